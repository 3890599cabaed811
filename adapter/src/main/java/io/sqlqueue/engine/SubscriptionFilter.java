package io.sqlqueue.engine;

import io.sqlqueue.api.OutgoingMessage;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which published messages a topic subscription takes: a {@link MessageSelector}, evaluated when a
 * message is published against the message's headers and header fields ({@link SelectorValues}),
 * so nothing of it reaches SQL. An empty filter takes every message.
 *
 * <p>Filters written for earlier releases keep their meaning. Their form, conditions
 * {@code name = 'value'} or {@code name IN ('a', 'b')} joined by {@code AND}, is a selector that
 * means the same (a message without the header does not match), except where a header's name is
 * no identifier of the selector grammar ({@code content-type}, {@code event.type}): a filter that
 * is not a valid selector but is of that form is read in that form, its names the headers. A
 * selector never reads as the earlier form: {@code content-type = 'json'} would be arithmetic
 * compared with a string, which the selector refuses. Immutable and thread-safe.
 *
 * <pre>{@code type = 'order-created' AND region IN ('eu', 'uk')}</pre>
 * <pre>{@code JMSPriority > 6 OR (amount BETWEEN 1000 AND 5000 AND currency <> 'USD')}</pre>
 */
public final class SubscriptionFilter {

    /** The longest filter accepted, in characters (the column is NVARCHAR(2000)). */
    public static final int MAX_LENGTH = 2000;
    /** A filter that takes every message. */
    public static final SubscriptionFilter ALL = new SubscriptionFilter("", null);

    private final String text;
    /** Null for {@link #ALL}. */
    private final MessageSelector selector;

    private SubscriptionFilter(String text, MessageSelector selector) {
        this.text = text;
        this.selector = selector;
    }

    /**
     * Parses a filter; {@code null} or blank is {@link #ALL}.
     *
     * @throws IllegalArgumentException naming what is wrong and where, as a selector's error
     */
    public static SubscriptionFilter parse(String filter) {
        if (filter == null || filter.isBlank()) {
            return ALL;
        }
        if (filter.length() > MAX_LENGTH) {
            throw new IllegalArgumentException("subscription filter must be at most " + MAX_LENGTH
                    + " characters, was " + filter.length());
        }
        String text = filter.trim();
        try {
            return new SubscriptionFilter(text, MessageSelector.parse(text));
        } catch (IllegalArgumentException notASelector) {
            SelectorExpression earlier = new Parser(text).filter();
            if (earlier == null) {
                throw new IllegalArgumentException("subscription filter: " + notASelector.getMessage(), notASelector);
            }
            return new SubscriptionFilter(text, MessageSelector.of(text, earlier));
        }
    }

    /** Whether a message whose selector identifiers have these values ({@link SelectorValues}) matches. */
    public boolean matches(java.util.function.Function<String, ?> identifiers) {
        return selector == null || selector.matches(identifiers);
    }

    /** Whether a message published now with these headers, and no priority or ordering key, matches. */
    public boolean matches(Map<String, String> headers) {
        return matches(SelectorValues.ofPublished(OutgoingMessage.text("").headers(headers).build(), Instant.now()));
    }

    /** The filter as written (trimmed); empty for {@link #ALL}. */
    public String text() {
        return text;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SubscriptionFilter f && text.equals(f.text);
    }

    @Override
    public int hashCode() {
        return text.hashCode();
    }

    @Override
    public String toString() {
        return text.isEmpty() ? "(all messages)" : text;
    }

    /**
     * A recursive-descent parser of the earlier form: each condition an {@code IN} of the header
     * (an {@code =} is an IN of one value), which is what a selector makes of it.
     */
    private static final class Parser {
        private final String s;
        private int at;

        Parser(String s) {
            this.s = s;
        }

        /** The filter as a selector's condition, or null when it is not of the earlier form. */
        SelectorExpression filter() {
            try {
                SelectorExpression all = condition();
                while (skipSpaces() < s.length()) {
                    keyword("AND");
                    all = new SelectorExpression.Logical(true, all, condition());
                }
                return all;
            } catch (IllegalArgumentException notOfTheEarlierForm) {
                return null;
            }
        }

        private SelectorExpression condition() {
            int start = skipSpaces();
            SelectorExpression.Identifier header = new SelectorExpression.Identifier(name(), start, at);
            skipSpaces();
            if (at < s.length() && s.charAt(at) == '=') {
                at++;
                return new SelectorExpression.In(false, header, Set.of(literal()), at);
            }
            keyword("IN");
            expect('(');
            List<String> values = new ArrayList<>();
            values.add(literal());
            while (skipSpaces() < s.length() && s.charAt(at) == ',') {
                at++;
                values.add(literal());
            }
            expect(')');
            return new SelectorExpression.In(false, header, Set.copyOf(values), at);
        }

        private String name() {
            int start = skipSpaces();
            while (at < s.length() && (Character.isLetterOrDigit(s.charAt(at)) || "_.-".indexOf(s.charAt(at)) >= 0)) {
                at++;
            }
            if (at == start) {
                throw error("a header name");
            }
            return s.substring(start, at);
        }

        private String literal() {
            skipSpaces();
            if (at >= s.length() || s.charAt(at) != '\'') {
                throw error("a quoted value such as 'order-created'");
            }
            StringBuilder value = new StringBuilder();
            for (at++; ; at++) {
                if (at >= s.length()) {
                    throw error("the closing quote of the value");
                }
                char c = s.charAt(at);
                if (c == '\'') {
                    if (at + 1 < s.length() && s.charAt(at + 1) == '\'') {
                        value.append('\'');
                        at++;
                    } else {
                        at++;
                        return value.toString();
                    }
                } else {
                    value.append(c);
                }
            }
        }

        private void keyword(String word) {
            int start = skipSpaces();
            if (!s.regionMatches(true, start, word, 0, word.length())
                    || (start + word.length() < s.length() && Character.isLetterOrDigit(s.charAt(start + word.length())))) {
                throw error(word.equals("IN") ? "'=' or IN" : word);
            }
            at = start + word.length();
        }

        private void expect(char c) {
            if (skipSpaces() >= s.length() || s.charAt(at) != c) {
                throw error("'" + c + "'");
            }
            at++;
        }

        private int skipSpaces() {
            while (at < s.length() && Character.isWhitespace(s.charAt(at))) {
                at++;
            }
            return at;
        }

        /** Not of the earlier form: the selector's error is the one reported. */
        private IllegalArgumentException error(String expected) {
            return new IllegalArgumentException("expected " + expected + " at " + (at + 1));
        }
    }
}
