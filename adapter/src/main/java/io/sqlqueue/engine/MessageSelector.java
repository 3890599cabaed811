package io.sqlqueue.engine;

import java.util.Objects;
import java.util.function.Function;

/**
 * A Jakarta Messaging message selector (Jakarta Messaging 3.1, §3.8.1.1): the SQL-92 subset that
 * JMS consumers filter by, such as {@code JMSType = 'car' AND color = 'blue' AND weight > 2500}.
 *
 * <p>The whole grammar: string literals ({@code 'it''s'}), exact and approximate numeric literals
 * in Java's syntax (decimal, hexadecimal, octal and binary integers with an optional {@code L};
 * decimals and exponents with an optional {@code F} or {@code D}), {@code TRUE} and
 * {@code FALSE}; identifiers (Java identifiers, case-sensitive, never a reserved word:
 * {@code NULL TRUE FALSE NOT AND OR BETWEEN LIKE IN IS ESCAPE}); {@code NOT}, {@code AND} and
 * {@code OR} in that precedence with SQL's three-valued logic; comparisons {@code = <> < > <= >=};
 * arithmetic {@code + - * /} and unary signs; {@code [NOT] BETWEEN}, {@code [NOT] IN},
 * {@code [NOT] LIKE} with {@code _}, {@code %} and {@code ESCAPE}, {@code IS [NOT] NULL};
 * parentheses. Keywords in any case. How values compare and what is unknown:
 * {@link SelectorExpression}; what the text shows of types is checked at parse time
 * ({@link SelectorParser}).
 *
 * <p>A selector is evaluated against a lookup from identifier to value (null: absent), so the
 * engine needs no JMS classes: {@link SelectorValues} gives a queued or published message's.
 * Immutable and thread-safe.
 */
public final class MessageSelector {

    private final String text;
    private final SelectorExpression condition;

    private MessageSelector(String text, SelectorExpression condition) {
        this.text = text;
        this.condition = condition;
    }

    /**
     * Parses a selector. An empty or blank selector selects every message, as the specification
     * says: callers treat it as none and do not parse it.
     *
     * @throws IllegalArgumentException saying what is wrong, at which position (from 1) and in
     *         which selector: {@code unexpected ')' (expected ...) at 11 in: a = 1 AND )}
     */
    public static MessageSelector parse(String selector) {
        Objects.requireNonNull(selector, "selector");
        if (selector.isBlank()) {
            throw new IllegalArgumentException("a message selector is empty: give none instead");
        }
        return new MessageSelector(selector, SelectorParser.parse(selector));
    }

    /** A selector of a condition built by the engine (a subscription filter of the earlier form). */
    static MessageSelector of(String text, SelectorExpression condition) {
        return new MessageSelector(text, condition);
    }

    /**
     * Whether a message whose identifiers have these values is selected: the selector is true for
     * it (false and unknown are not). {@code identifiers} gives null for an absent property.
     */
    public boolean matches(Function<String, ?> identifiers) {
        return Boolean.TRUE.equals(evaluate(identifiers));
    }

    /** The selector's value for such a message: TRUE, FALSE or null (unknown). */
    public Boolean evaluate(Function<String, ?> identifiers) {
        return condition.condition(identifiers);
    }

    /** The selector as written. */
    public String text() {
        return text;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MessageSelector s && text.equals(s.text);
    }

    @Override
    public int hashCode() {
        return text.hashCode();
    }

    @Override
    public String toString() {
        return text;
    }
}
