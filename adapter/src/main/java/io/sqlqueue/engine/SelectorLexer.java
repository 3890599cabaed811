package io.sqlqueue.engine;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Splits a message selector into tokens, as Jakarta Messaging 3.1 §3.8.1.1 spells them: string
 * literals in single quotes ({@code ''} a quote), numeric literals in Java's syntax, identifiers of
 * Java letters and digits, the keywords in any case, the operators, and white space as Java's
 * (space, tab, form feed, line terminators). Stateless; used by {@link SelectorParser}.
 */
final class SelectorLexer {

    /** The words that are keywords in any case, never identifiers. */
    static final Set<String> KEYWORDS = Set.of("NOT", "AND", "OR", "BETWEEN", "LIKE", "IN", "IS", "ESCAPE", "NULL",
            "TRUE", "FALSE");

    enum Kind { STRING, EXACT, APPROXIMATE, IDENTIFIER, KEYWORD, OPERATOR, END }

    /**
     * A token: {@code text} as written (a keyword's upper-cased), {@code start} its offset from 0;
     * {@code value} a string literal's String, an exact literal's BigInteger (its sign applied by
     * the parser, so that -9223372036854775808 is a long) with {@code longSuffix}, an approximate
     * literal's Float or Double.
     */
    record Token(Kind kind, String text, int start, Object value, boolean longSuffix) {

        boolean is(Kind k, String t) {
            return kind == k && text.equals(t);
        }

        boolean isKeyword(String word) {
            return is(Kind.KEYWORD, word);
        }

        boolean isOperator(String op) {
            return is(Kind.OPERATOR, op);
        }

        /** How an error message shows the token. */
        String shown() {
            return kind == Kind.END ? "end" : "'" + text + "'";
        }
    }

    private static final String DIGITS = "[0-9](?:[0-9_]*[0-9])?";
    private static final String HEX_DIGITS = "[0-9a-fA-F](?:[0-9a-fA-F_]*[0-9a-fA-F])?";
    private static final String EXPONENT = "[eE][+-]?" + DIGITS;
    /** Java's floating-point literals: decimal, then hexadecimal; an optional f, F, d or D. */
    private static final Pattern APPROXIMATE = Pattern.compile("(?:" + DIGITS + "\\.(?:" + DIGITS + ")?(?:" + EXPONENT
            + ")?|\\." + DIGITS + "(?:" + EXPONENT + ")?|" + DIGITS + EXPONENT + "|" + DIGITS + "(?=[fFdD])"
            + "|0[xX](?:" + HEX_DIGITS + "\\.?|(?:" + HEX_DIGITS + ")?\\." + HEX_DIGITS + ")[pP][+-]?" + DIGITS
            + ")[fFdD]?");
    /** Java's integer literals: hexadecimal, binary, octal, decimal; an optional l or L. */
    private static final Pattern EXACT = Pattern.compile("(?:0[xX]" + HEX_DIGITS + "|0[bB][01](?:[01_]*[01])?"
            + "|0_*[0-7](?:[0-7_]*[0-7])?|0|[1-9](?:[0-9_]*[0-9])?)[lL]?");

    private SelectorLexer() {
    }

    /**
     * The tokens of {@code s}, ending with an {@link Kind#END} token.
     *
     * @throws IllegalArgumentException naming the character or literal that is wrong, and where
     */
    static List<Token> tokens(String s) {
        List<Token> tokens = new ArrayList<>();
        int at = 0;
        while (true) {
            while (at < s.length() && " \t\f\n\r".indexOf(s.charAt(at)) >= 0) {
                at++;
            }
            if (at == s.length()) {
                tokens.add(new Token(Kind.END, "", at, null, false));
                return tokens;
            }
            Token t = next(s, at);
            tokens.add(t);
            at = t.start() + t.text().length();
        }
    }

    private static Token next(String s, int at) {
        char c = s.charAt(at);
        if (c == '\'') {
            return string(s, at);
        }
        if (Character.isDigit(c) || (c == '.' && at + 1 < s.length() && Character.isDigit(s.charAt(at + 1)))) {
            return number(s, at);
        }
        int cp = s.codePointAt(at);
        if (Character.isJavaIdentifierStart(cp)) {
            int end = at + Character.charCount(cp);
            while (end < s.length() && Character.isJavaIdentifierPart(s.codePointAt(end))) {
                end += Character.charCount(s.codePointAt(end));
            }
            String word = s.substring(at, end);
            String upper = word.toUpperCase(Locale.ROOT);
            return KEYWORDS.contains(upper) ? new Token(Kind.KEYWORD, upper, at, null, false)
                    : new Token(Kind.IDENTIFIER, word, at, null, false);
        }
        for (String op : new String[] {"<>", "<=", ">=", "=", "<", ">", "+", "-", "*", "/", "(", ")", ","}) {
            if (s.startsWith(op, at)) {
                return new Token(Kind.OPERATOR, op, at, null, false);
            }
        }
        String hint = s.startsWith("!=", at) ? ": not equal is <>"
                : c == '"' ? ": a string literal is in single quotes" : "";
        throw SelectorParser.error("unexpected character '" + new String(Character.toChars(cp)) + "'" + hint, at, s);
    }

    private static Token string(String s, int at) {
        StringBuilder value = new StringBuilder();
        for (int i = at + 1; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c != '\'') {
                value.append(c);
            } else if (i + 1 < s.length() && s.charAt(i + 1) == '\'') {
                value.append('\'');
                i++;
            } else {
                return new Token(Kind.STRING, s.substring(at, i + 1), at, value.toString(), false);
            }
        }
        throw SelectorParser.error("string literal not closed (a quote inside one is written '')", at, s);
    }

    /** The longest numeric literal at {@code at}, which must not run on into letters, digits or a dot. */
    private static Token number(String s, int at) {
        Matcher approximate = APPROXIMATE.matcher(s).region(at, s.length());
        Matcher exact = EXACT.matcher(s).region(at, s.length());
        int approximateEnd = approximate.lookingAt() ? approximate.end() : -1;
        int exactEnd = exact.lookingAt() ? exact.end() : -1;
        int end = Math.max(approximateEnd, exactEnd);
        int runEnd = end < 0 ? at : end;
        while (runEnd < s.length() && (Character.isJavaIdentifierPart(s.charAt(runEnd)) || s.charAt(runEnd) == '.')) {
            runEnd++;
        }
        if (end < 0 || runEnd > end) {
            throw SelectorParser.error("malformed number '" + s.substring(at, Math.max(runEnd, at + 1)) + "'", at, s);
        }
        String text = s.substring(at, end);
        String plain = text.replace("_", "");
        if (approximateEnd == end) {
            char last = plain.charAt(plain.length() - 1);
            boolean isFloat = last == 'f' || last == 'F';
            Object value = isFloat ? (Object) Float.parseFloat(plain) : (Object) Double.parseDouble(plain);
            if (Double.isInfinite(((Number) value).doubleValue())) {
                throw SelectorParser.error("number " + text + " is out of the range of " + (isFloat ? "float" : "double"),
                        at, s);
            }
            return new Token(Kind.APPROXIMATE, text, at, value, false);
        }
        boolean longSuffix = plain.endsWith("l") || plain.endsWith("L");
        String digits = longSuffix ? plain.substring(0, plain.length() - 1) : plain;
        BigInteger value;
        if (digits.length() > 1 && (digits.charAt(1) == 'x' || digits.charAt(1) == 'X')) {
            value = new BigInteger(digits.substring(2), 16);
        } else if (digits.length() > 1 && (digits.charAt(1) == 'b' || digits.charAt(1) == 'B')) {
            value = new BigInteger(digits.substring(2), 2);
        } else if (digits.length() > 1 && digits.charAt(0) == '0') {
            value = new BigInteger(digits.substring(1), 8);
        } else {
            value = new BigInteger(digits);
        }
        return new Token(Kind.EXACT, text, at, value, longSuffix);
    }
}
