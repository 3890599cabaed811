package io.sqlqueue.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which published messages a topic subscription takes, by their headers: conditions joined by
 * {@code AND}, each {@code name = 'value'} or {@code name IN ('a', 'b')}; a message without the
 * header does not match. Quotes inside a value are doubled ({@code 'it''s'}). An empty filter takes
 * every message. Evaluated in Java when a message is published, so nothing of it reaches SQL.
 * Immutable and thread-safe.
 *
 * <pre>{@code type = 'order-created' AND region IN ('eu', 'uk')}</pre>
 */
public final class SubscriptionFilter {

    /** The longest filter accepted, in characters (the column is NVARCHAR(2000)). */
    public static final int MAX_LENGTH = 2000;
    /** A filter that takes every message. */
    public static final SubscriptionFilter ALL = new SubscriptionFilter("", List.of());

    private final String text;
    private final List<Condition> conditions;

    private SubscriptionFilter(String text, List<Condition> conditions) {
        this.text = text;
        this.conditions = conditions;
    }

    /**
     * Parses a filter; {@code null} or blank is {@link #ALL}.
     *
     * @throws IllegalArgumentException naming what is wrong and where
     */
    public static SubscriptionFilter parse(String filter) {
        if (filter == null || filter.isBlank()) {
            return ALL;
        }
        if (filter.length() > MAX_LENGTH) {
            throw new IllegalArgumentException("subscription filter must be at most " + MAX_LENGTH
                    + " characters, was " + filter.length());
        }
        return new Parser(filter.trim()).filter();
    }

    /** Whether a message with these headers matches. */
    public boolean matches(Map<String, String> headers) {
        for (Condition c : conditions) {
            String value = headers.get(c.header());
            if (value == null || !c.values().contains(value)) {
                return false;
            }
        }
        return true;
    }

    /** The filter as written (trimmed); empty for {@link #ALL}. */
    public String text() {
        return text;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SubscriptionFilter f && conditions.equals(f.conditions);
    }

    @Override
    public int hashCode() {
        return conditions.hashCode();
    }

    @Override
    public String toString() {
        return text.isEmpty() ? "(all messages)" : text;
    }

    /** One condition: the header has one of these values. */
    private record Condition(String header, Set<String> values) {
    }

    /** A recursive-descent parser over the filter's text. */
    private static final class Parser {
        private final String s;
        private int at;

        Parser(String s) {
            this.s = s;
        }

        SubscriptionFilter filter() {
            List<Condition> conditions = new ArrayList<>();
            conditions.add(condition());
            while (skipSpaces() < s.length()) {
                keyword("AND");
                conditions.add(condition());
            }
            return new SubscriptionFilter(s, List.copyOf(conditions));
        }

        private Condition condition() {
            String header = name();
            skipSpaces();
            if (at < s.length() && s.charAt(at) == '=') {
                at++;
                return new Condition(header, Set.of(literal()));
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
            return new Condition(header, Set.copyOf(values));
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

        private IllegalArgumentException error(String expected) {
            String found = at >= s.length() ? "the end" : "'" + s.substring(at, Math.min(s.length(), at + 20)) + "'";
            return new IllegalArgumentException("subscription filter \"" + s + "\": expected " + expected
                    + " at position " + (at + 1) + ", found " + found);
        }
    }
}
