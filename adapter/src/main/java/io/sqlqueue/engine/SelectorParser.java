package io.sqlqueue.engine;

import io.sqlqueue.engine.SelectorExpression.Type;
import io.sqlqueue.engine.SelectorLexer.Kind;
import io.sqlqueue.engine.SelectorLexer.Token;
import java.math.BigInteger;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A recursive-descent parser of the message selector grammar of Jakarta Messaging 3.1 §3.8.1.1,
 * in its precedence, loosest first:
 *
 * <pre>
 * selector    := or END
 * or          := and (OR and)*
 * and         := not (AND not)*
 * not         := NOT not | predicate
 * predicate   := sum [ comparison sum | [NOT] BETWEEN sum AND sum
 *                    | [NOT] IN '(' string (',' string)* ')' | [NOT] LIKE string [ESCAPE string]
 *                    | IS [NOT] NULL ]
 * sum         := product (('+' | '-') product)*
 * product     := sign (('*' | '/') sign)*
 * sign        := ('+' | '-') sign | primary
 * primary     := literal | identifier | '(' or ')'
 * </pre>
 *
 * Besides the syntax it checks what the text alone shows of the types, as the specification lets
 * a provider: a literal or arithmetic that can never make the comparison it stands in true (a
 * string compared with {@code <}, a number with a string, arithmetic on a string, a number used
 * as a condition) is refused, naming it. {@code IN}, {@code LIKE} and {@code IS NULL} take an
 * identifier on their left, as the grammar says. Errors are {@link IllegalArgumentException}s
 * saying what is wrong, at which position (from 1) and in which selector.
 */
final class SelectorParser {

    private final String text;
    private final List<Token> tokens;
    private int next;

    private SelectorParser(String text) {
        this.text = text;
        this.tokens = SelectorLexer.tokens(text);
    }

    /** The selector's condition. */
    static SelectorExpression parse(String text) {
        SelectorParser p = new SelectorParser(text);
        SelectorExpression e = p.condition(p.or());
        if (p.peek().kind() != Kind.END) {
            throw p.unexpected(p.peek(), "AND, OR or the end");
        }
        return e;
    }

    /** An error at offset {@code at} (from 0) of {@code text}. */
    static IllegalArgumentException error(String problem, int at, String text) {
        return new IllegalArgumentException(problem + " at " + (at + 1) + " in: " + text);
    }

    private SelectorExpression or() {
        SelectorExpression e = and();
        while (peek().isKeyword("OR")) {
            next++;
            e = new SelectorExpression.Logical(false, condition(e), condition(and()));
        }
        return e;
    }

    private SelectorExpression and() {
        SelectorExpression e = not();
        while (peek().isKeyword("AND")) {
            next++;
            e = new SelectorExpression.Logical(true, condition(e), condition(not()));
        }
        return e;
    }

    private SelectorExpression not() {
        Token t = peek();
        if (t.isKeyword("NOT")) {
            next++;
            return new SelectorExpression.Not(condition(not()), t.start());
        }
        return predicate();
    }

    private SelectorExpression predicate() {
        SelectorExpression left = sum();
        Token t = peek();
        if (t.kind() == Kind.OPERATOR && List.of("=", "<>", "<", ">", "<=", ">=").contains(t.text())) {
            next++;
            SelectorExpression right = sum();
            comparable(t, left, right);
            return new SelectorExpression.Comparison(t.text(), left, right);
        }
        boolean not = false;
        if (t.isKeyword("NOT")) {
            Token after = tokens.get(next + 1);
            if (!after.isKeyword("BETWEEN") && !after.isKeyword("IN") && !after.isKeyword("LIKE")) {
                throw unexpected(after, "BETWEEN, IN or LIKE after NOT");
            }
            next++;
            not = true;
            t = peek();
        }
        if (t.isKeyword("BETWEEN")) {
            next++;
            SelectorExpression low = sum();
            expectKeyword("AND", "AND between the bounds of BETWEEN");
            SelectorExpression high = sum();
            for (SelectorExpression operand : List.of(left, low, high)) {
                numeric(operand, "BETWEEN compares numbers only");
            }
            return new SelectorExpression.Between(not, left, low, high);
        }
        if (t.isKeyword("IN")) {
            next++;
            SelectorExpression.Identifier identifier = identifier(left, t);
            expectOperator("(", "'(' after IN");
            Set<String> values = new LinkedHashSet<>();
            do {
                values.add(string("a string literal in the list of IN"));
            } while (acceptOperator(","));
            Token close = expectOperator(")", "',' or ')' in the list of IN");
            return new SelectorExpression.In(not, identifier, values, close.start() + 1);
        }
        if (t.isKeyword("LIKE")) {
            next++;
            SelectorExpression.Identifier identifier = identifier(left, t);
            Token pattern = peek();
            String patternText = string("a string literal: the pattern of LIKE");
            int escape = -1;
            int end = pattern.start() + pattern.text().length();
            if (peek().isKeyword("ESCAPE")) {
                next++;
                Token escapeToken = peek();
                String e = string("a string literal of one character after ESCAPE");
                if (e.codePointCount(0, e.length()) != 1) {
                    throw error("the escape character " + escapeToken.shown() + " is not one character",
                            escapeToken.start(), text);
                }
                escape = e.codePointAt(0);
                end = escapeToken.start() + escapeToken.text().length();
            }
            try {
                return new SelectorExpression.Like(not, identifier, LikePattern.of(patternText, escape), end);
            } catch (IllegalArgumentException e) {
                throw error("pattern " + pattern.shown() + ": " + e.getMessage() + ",", pattern.start(), text);
            }
        }
        if (t.isKeyword("IS")) {
            next++;
            SelectorExpression.Identifier identifier = identifier(left, t);
            boolean isNot = acceptKeyword("NOT");
            Token nul = expectKeyword("NULL", isNot ? "NULL after IS NOT" : "NULL or NOT NULL after IS");
            return new SelectorExpression.IsNull(isNot, identifier, nul.start() + nul.text().length());
        }
        return left;
    }

    private SelectorExpression sum() {
        SelectorExpression e = product();
        for (Token t = peek(); t.isOperator("+") || t.isOperator("-"); t = peek()) {
            next++;
            e = arithmetic(t, e, product());
        }
        return e;
    }

    private SelectorExpression product() {
        SelectorExpression e = sign();
        for (Token t = peek(); t.isOperator("*") || t.isOperator("/"); t = peek()) {
            next++;
            e = arithmetic(t, e, sign());
        }
        return e;
    }

    private SelectorExpression arithmetic(Token operator, SelectorExpression left, SelectorExpression right) {
        String why = "'" + operator.text() + "' takes numbers";
        numeric(left, why);
        numeric(right, why);
        return new SelectorExpression.Arithmetic(operator.text().charAt(0), left, right);
    }

    private SelectorExpression sign() {
        Token t = peek();
        if (!t.isOperator("+") && !t.isOperator("-")) {
            return primary();
        }
        next++;
        boolean minus = t.isOperator("-");
        Token operand = peek();
        if (operand.kind() == Kind.EXACT) { // folded, so that -9223372036854775808 is a long
            next++;
            BigInteger v = (BigInteger) operand.value();
            return exact(minus ? v.negate() : v, operand, t.start());
        }
        SelectorExpression e = sign();
        numeric(e, "'" + t.text() + "' takes a number");
        SelectorExpression signed = new SelectorExpression.Sign(minus, e, t.start());
        if (e instanceof SelectorExpression.Literal) { // a signed literal, such as -57.9E2: its value now
            return new SelectorExpression.Literal(signed.evaluate(name -> null), Type.NUMBER, t.start(), e.end);
        }
        return signed;
    }

    private SelectorExpression primary() {
        Token t = peek();
        int end = t.start() + t.text().length();
        switch (t.kind()) {
            case STRING -> {
                next++;
                return new SelectorExpression.Literal(t.value(), Type.STRING, t.start(), end);
            }
            case EXACT -> {
                next++;
                return exact((BigInteger) t.value(), t, t.start());
            }
            case APPROXIMATE -> {
                next++;
                return new SelectorExpression.Literal(t.value(), Type.NUMBER, t.start(), end);
            }
            case IDENTIFIER -> {
                next++;
                return new SelectorExpression.Identifier(t.text(), t.start(), end);
            }
            case KEYWORD -> {
                if (t.text().equals("TRUE") || t.text().equals("FALSE")) {
                    next++;
                    return new SelectorExpression.Literal(t.text().equals("TRUE"), Type.BOOLEAN, t.start(), end);
                }
                if (!t.text().equals("NOT")) {
                    throw error("'" + text.substring(t.start(), end) + "' is a reserved word, not an identifier,",
                            t.start(), text);
                }
            }
            case OPERATOR -> {
                if (t.isOperator("(")) {
                    next++;
                    SelectorExpression e = or();
                    expectOperator(")", "')'");
                    return e;
                }
            }
            default -> {
            }
        }
        throw unexpected(t, "an identifier, a literal or '('");
    }

    /** An exact literal: an Integer where the value fits one and has no L, else a Long. */
    private SelectorExpression.Literal exact(BigInteger value, Token literal, int start) {
        if (value.bitLength() > 63) {
            throw error("number " + text.substring(start, literal.start() + literal.text().length())
                    + " is out of the range of long", start, text);
        }
        Object v = !literal.longSuffix() && value.bitLength() <= 31 ? (Object) value.intValue() : (Object) value.longValue();
        return new SelectorExpression.Literal(v, Type.NUMBER, start, literal.start() + literal.text().length());
    }

    // ---- what the text shows of the types ----

    /** Refuses a node that is a condition where a selector needs one and it is a number or a string. */
    private SelectorExpression condition(SelectorExpression e) {
        if (e.type == Type.NUMBER || e.type == Type.STRING) {
            throw error("expected a condition, but " + shown(e) + " is " + e.type.described + ",", e.start, text);
        }
        return e;
    }

    private void numeric(SelectorExpression e, String why) {
        if (e.type == Type.STRING || e.type == Type.BOOLEAN) {
            throw error(why + ", but " + shown(e) + " is " + e.type.described + ",", e.start, text);
        }
    }

    private void comparable(Token operator, SelectorExpression left, SelectorExpression right) {
        if (!operator.isOperator("=") && !operator.isOperator("<>")) {
            numeric(left, "'" + operator.text() + "' compares numbers only (strings and booleans only with = and <>)");
            numeric(right, "'" + operator.text() + "' compares numbers only (strings and booleans only with = and <>)");
        } else if (left.type != Type.ANY && right.type != Type.ANY && left.type != right.type) {
            throw error("'" + operator.text() + "' compares " + shown(left) + ", " + left.type.described + ", with "
                    + shown(right) + ", " + right.type.described + ": never true,", operator.start(), text);
        }
    }

    /** {@code left} as the identifier {@code operator} needs on its left. */
    private SelectorExpression.Identifier identifier(SelectorExpression left, Token operator) {
        if (left instanceof SelectorExpression.Identifier i) {
            return i;
        }
        throw error(operator.text() + " takes an identifier on its left, not " + shown(left) + ",", left.start, text);
    }

    private String shown(SelectorExpression e) {
        String s = text.substring(e.start, e.end);
        return "'" + (s.length() > 40 ? s.substring(0, 37) + "..." : s) + "'";
    }

    // ---- tokens ----

    private Token peek() {
        return tokens.get(next);
    }

    private boolean acceptKeyword(String word) {
        if (peek().isKeyword(word)) {
            next++;
            return true;
        }
        return false;
    }

    private boolean acceptOperator(String op) {
        if (peek().isOperator(op)) {
            next++;
            return true;
        }
        return false;
    }

    private Token expectKeyword(String word, String expected) {
        Token t = peek();
        if (!t.isKeyword(word)) {
            throw unexpected(t, expected);
        }
        next++;
        return t;
    }

    private Token expectOperator(String op, String expected) {
        Token t = peek();
        if (!t.isOperator(op)) {
            throw unexpected(t, expected);
        }
        next++;
        return t;
    }

    private String string(String expected) {
        Token t = peek();
        if (t.kind() != Kind.STRING) {
            throw unexpected(t, expected);
        }
        next++;
        return (String) t.value();
    }

    private IllegalArgumentException unexpected(Token t, String expected) {
        return error("unexpected " + t.shown() + " (expected " + expected + ")", t.start(), text);
    }
}
