package io.sqlqueue.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The selector grammar and its evaluation against Jakarta Messaging 3.1 §3.8.1.1: the
 * specification's own examples, the three-valued logic tables, literals, precedence, the type
 * rules, and the errors.
 */
class MessageSelectorTest {

    /** The selector's value (TRUE, FALSE or null for unknown) for a message with these identifiers. */
    private static Boolean eval(String selector, Object... namesAndValues) {
        Map<String, Object> values = new HashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            values.put((String) namesAndValues[i], namesAndValues[i + 1]);
        }
        return MessageSelector.parse(selector).evaluate(values::get);
    }

    private static String error(String selector) {
        return assertThrows(IllegalArgumentException.class, () -> MessageSelector.parse(selector)).getMessage();
    }

    // ---- the specification's examples ----

    @Test
    void theSpecificationsExampleSelectsCarsThatAreBlueAndHeavy() {
        String selector = "JMSType = 'car' AND color = 'blue' AND weight > 2500";
        assertEquals(true, eval(selector, "JMSType", "car", "color", "blue", "weight", 3000));
        assertEquals(false, eval(selector, "JMSType", "car", "color", "blue", "weight", 2500));
        assertEquals(false, eval(selector, "JMSType", "bike", "color", "blue", "weight", 3000));
        assertNull(eval(selector, "JMSType", "car", "color", "blue"), "no weight: unknown");
        assertFalse(MessageSelector.parse(selector).matches(name -> null));
    }

    @Test
    void aPropertySetAsAStringIsNoNumber() {
        assertEquals(false, eval("NumberOfOrders > 1", "NumberOfOrders", "2"), "the conversions of the getters do not apply");
        assertEquals(true, eval("NumberOfOrders > 1", "NumberOfOrders", 2));
    }

    @Test
    void betweenIsBothComparisonsAndNotBetweenTheirOpposites() {
        for (int age = 13; age <= 21; age++) {
            boolean inside = age >= 15 && age <= 19;
            assertEquals(inside, eval("age BETWEEN 15 AND 19", "age", age), "age " + age);
            assertEquals(!inside, eval("age NOT BETWEEN 15 AND 19", "age", age), "age " + age);
        }
        assertEquals(true, eval("age between 14.5 and 15", "age", 15L), "exact and approximate compare");
        assertNull(eval("age BETWEEN 15 AND 19"), "age NULL: unknown");
        assertNull(eval("age NOT BETWEEN 15 AND 19"), "age NULL: unknown");
        assertEquals(false, eval("age BETWEEN 15 AND 19", "age", "17"), "a string compares with no number");
        assertEquals(false, eval("age NOT BETWEEN 15 AND 19", "age", "17"), "age < 15 OR age > 19, both false");
        assertEquals(true, eval("x BETWEEN 1 AND 10 AND y = 2", "x", 5, "y", 2), "the AND of BETWEEN is its own");
    }

    @Test
    void inIsTheOrOfItsEqualities() {
        String in = "Country IN (' UK', 'US', 'France')";
        assertEquals(true, eval(in, "Country", "US"));
        assertEquals(true, eval(in, "Country", " UK"));
        assertEquals(false, eval(in, "Country", "UK"), "the specification's ' UK' has a space");
        assertEquals(false, eval(in, "Country", "Peru"));
        assertEquals(true, eval("Country NOT IN (' UK', 'US', 'France')", "Country", "Peru"));
        assertEquals(false, eval("Country NOT IN (' UK', 'US', 'France')", "Country", "France"));
        assertNull(eval(in), "identifier NULL: unknown");
        assertNull(eval("Country NOT IN ('US')"), "identifier NULL: unknown");
        assertEquals(false, eval("n IN ('1')", "n", 1), "a number is not like a string");
        assertEquals(false, eval("n NOT IN ('1')", "n", 1), "nor unlike it: comparisons of unlike types are false");
    }

    @Test
    void likeMatchesUnderscoresPercentsAndEscapedOnes() {
        for (String v : List.of("123", "12993")) {
            assertEquals(true, eval("phone LIKE '12%3'", "phone", v), v);
            assertEquals(false, eval("phone NOT LIKE '12%3'", "phone", v), v);
        }
        assertEquals(false, eval("phone LIKE '12%3'", "phone", "1234"));
        assertEquals(true, eval("phone NOT LIKE '12%3'", "phone", "1234"));
        assertEquals(true, eval("word LIKE 'l_se'", "word", "lose"));
        assertEquals(false, eval("word LIKE 'l_se'", "word", "loose"));
        assertEquals(true, eval("underscored LIKE '\\_%' ESCAPE '\\'", "underscored", "_foo"));
        assertEquals(false, eval("underscored LIKE '\\_%' ESCAPE '\\'", "underscored", "bar"));
        assertEquals(true, eval("p LIKE '100!%' ESCAPE '!'", "p", "100%"));
        assertEquals(false, eval("p LIKE '100!%' ESCAPE '!'", "p", "1000"));
        assertEquals(true, eval("p LIKE 'a!!b' ESCAPE '!'", "p", "a!b"), "the escape escapes itself");
        assertEquals(true, eval("p LIKE '%'", "p", ""), "% is any sequence, the empty one too");
        assertEquals(false, eval("p LIKE '_'", "p", ""));
        assertEquals(true, eval("p LIKE '_'", "p", "\uD83D\uDE00"), "_ is one character, not one UTF-16 unit");
        assertEquals(true, eval("p LIKE 'a%b%c'", "p", "aXbYbZc"));
        assertEquals(false, eval("p LIKE 'a%b%c'", "p", "aXbYbZ"));
        assertEquals(true, eval("p LIKE 'A.*'", "p", "A.*"), "no regular expression: . and * stand for themselves");
        assertNull(eval("phone LIKE '12%3'"), "NULL: unknown");
        assertNull(eval("phone NOT LIKE '12%3'"), "NULL: unknown");
        assertEquals(false, eval("n LIKE '1'", "n", 1));
        assertEquals(false, eval("n NOT LIKE '1'", "n", 1));
        String manyPercents = "p LIKE '" + "%a".repeat(30) + "%b'";
        assertEquals(false, eval(manyPercents, "p", "a".repeat(5000)), "no exponential backtracking");
    }

    @Test
    void isNullTestsForAnAbsentPropertyAndIsNeverUnknown() {
        assertEquals(true, eval("prop_name IS NULL"));
        assertEquals(false, eval("prop_name IS NULL", "prop_name", ""));
        assertEquals(false, eval("prop_name IS NOT NULL"));
        assertEquals(true, eval("prop_name is not null", "prop_name", 0));
    }

    // ---- three-valued logic ----

    /** T, F and U as identifiers whose values are TRUE, FALSE and absent. */
    private static Boolean logic(String selector) {
        return eval(selector, "T", true, "F", false);
    }

    @Test
    void andOrAndNotFollowTheSpecificationsTables() {
        String[] v = {"T", "F", "U"};
        Boolean[] value = {true, false, null};
        Boolean[][] and = {{true, false, null}, {false, false, false}, {null, false, null}};
        Boolean[][] or = {{true, true, true}, {true, false, null}, {true, null, null}};
        for (int a = 0; a < 3; a++) {
            for (int b = 0; b < 3; b++) {
                assertEquals(and[a][b], logic(v[a] + " AND " + v[b]), v[a] + " AND " + v[b]);
                assertEquals(or[a][b], logic(v[a] + " OR " + v[b]), v[a] + " OR " + v[b]);
            }
            assertEquals(value[a] == null ? null : !value[a], logic("NOT " + v[a]), "NOT " + v[a]);
        }
        assertNull(logic("U = 1"), "comparison with NULL: unknown");
        assertNull(logic("NOT (U = 1)"), "NOT unknown: unknown");
        assertEquals(true, logic("U IS NULL OR U = 1"));
        assertNull(logic("U + 1 > 0"), "arithmetic with NULL: unknown");
    }

    @Test
    void anIdentifierIsAConditionWhenItsValueIsABoolean() {
        assertEquals(true, eval("urgent", "urgent", true));
        assertEquals(false, eval("urgent", "urgent", false));
        assertNull(eval("urgent"), "absent: unknown");
        assertNull(eval("urgent", "urgent", "true"), "a string is no boolean: unknown");
        assertNull(eval("NOT urgent", "urgent", 1));
        assertEquals(true, eval("urgent = TRUE", "urgent", true));
        assertEquals(true, eval("urgent <> false", "urgent", true));
        assertEquals(true, eval("TRUE"));
        assertEquals(false, eval("FALSE OR fAlSe"));
    }

    // ---- literals ----

    @Test
    void stringLiteralsDoubleTheirQuotes() {
        assertEquals(true, eval("s = 'literal''s'", "s", "literal's"));
        assertEquals(true, eval("s = ''''", "s", "'"));
        assertEquals(true, eval("s = ''", "s", ""));
        assertEquals(true, eval("s = 'AND OR (x)'", "s", "AND OR (x)"), "keywords in a literal are text");
        assertEquals(true, eval("s = 'z\u00e9\uD83D\uDE00'", "s", "z\u00e9\uD83D\uDE00"));
        assertEquals(false, eval("s = 'Blue'", "s", "blue"), "strings compare exactly");
    }

    @Test
    void exactLiteralsUseJavasIntegerSyntax() {
        assertEquals(true, eval("n = 57", "n", 57));
        assertEquals(true, eval("n = -957", "n", -957));
        assertEquals(true, eval("n = +62", "n", 62));
        assertEquals(true, eval("n = 0x1F AND n = 0X1f AND n = 037 AND n = 0b11111 AND n = 31L", "n", 31));
        assertEquals(true, eval("n = 1_000_000", "n", 1_000_000));
        assertEquals(true, eval("n = 0", "n", 0));
        assertEquals(true, eval("n = 9223372036854775807", "n", Long.MAX_VALUE));
        assertEquals(true, eval("n = -9223372036854775808", "n", Long.MIN_VALUE));
        assertEquals(true, eval("n = 2147483648", "n", 2147483648L), "beyond an int: a long");
        assertEquals(true, eval("n = 5", "n", (byte) 5));
        assertEquals(true, eval("n = 5", "n", (short) 5));
        assertEquals(true, eval("JMSTimestamp > 1700000000000", "JMSTimestamp", 1_800_000_000_000L));
        assertTrue(error("n = 9223372036854775808").startsWith("number 9223372036854775808 is out of the range of long at 5"));
        assertTrue(error("n = 09").startsWith("malformed number '09' at 5"), "9 is no octal digit");
        assertTrue(error("n = 12abc").startsWith("malformed number '12abc' at 5"));
        assertTrue(error("n = 1_").startsWith("malformed number '1_' at 5"));
    }

    @Test
    void approximateLiteralsUseJavasFloatingPointSyntax() {
        assertEquals(true, eval("x = 7E3", "x", 7000.0));
        assertEquals(true, eval("x = -57.9E2", "x", -5790.0));
        assertEquals(true, eval("x = 7.", "x", 7.0));
        assertEquals(true, eval("x = -95.7", "x", -95.7));
        assertEquals(true, eval("x = +6.2", "x", 6.2));
        assertEquals(true, eval("x = .5 AND x = 5e-1 AND x = 0.5d AND x = 0x1p-1", "x", 0.5));
        assertEquals(true, eval("x = 7", "x", 7.0), "an exact literal compares with an approximate value");
        assertEquals(true, eval("x = 0.1f", "x", 0.1f), "a float literal is a float");
        assertEquals(false, eval("x = 0.1", "x", 0.1f), "a float promoted to double is not 0.1, as in Java");
        assertEquals(true, eval("x = 1_0.2_5", "x", 10.25));
        assertTrue(error("x = 1e400").startsWith("number 1e400 is out of the range of double at 5"));
        assertTrue(error("x = 1e39f").startsWith("number 1e39f is out of the range of float at 5"));
        assertTrue(error("x = 3e").startsWith("malformed number '3e' at 5"));
    }

    // ---- identifiers and keywords ----

    @Test
    void identifiersAreCaseSensitiveAndKeywordsAreNot() {
        assertNull(eval("Color = 'blue'", "color", "blue"), "Color is not color");
        assertEquals(true, eval("color = 'blue' and NOT size in ('S') Or FALSE", "color", "blue", "size", "M"));
        assertEquals(true, eval("$price > 1 AND _qty < 2 AND \u00e9t\u00e9 = 'x' AND a1$_b = 1",
                "$price", 2, "_qty", 1, "\u00e9t\u00e9", "x", "a1$_b", 1));
        assertEquals(true, eval("JMSXGroupID = 'g' AND JMS_vendor_x = 1", "JMSXGroupID", "g", "JMS_vendor_x", 1));
    }

    @Test
    void reservedWordsAreRefusedAsIdentifiers() {
        for (String word : List.of("NULL", "TRUE", "FALSE", "NOT", "AND", "OR", "BETWEEN", "LIKE", "IN", "IS", "ESCAPE")) {
            for (String spelled : List.of(word, word.toLowerCase(), word.charAt(0) + word.substring(1).toLowerCase())) {
                assertThrows(IllegalArgumentException.class, () -> MessageSelector.parse(spelled + " = 'x'"), spelled);
            }
        }
        assertEquals("'in' is a reserved word, not an identifier, at 1 in: in = 'x'", error("in = 'x'"));
        assertEquals("'Null' is a reserved word, not an identifier, at 5 in: a = Null", error("a = Null"));
        assertEquals(true, eval("inside = 1 AND nullable = 2 AND ISO = 3", "inside", 1, "nullable", 2, "ISO", 3),
                "a keyword inside an identifier is no keyword");
    }

    @Test
    void whiteSpaceIsJavas() {
        assertEquals(true, eval("\ta\n=\r1\fAND\r\nb\t<>\t2 ", "a", 1, "b", 3));
    }

    // ---- precedence ----

    @Test
    void notBindsBeforeAndAndAndBeforeOr() {
        String s = "a = 1 OR b = 2 AND c = 3";
        assertEquals(true, eval(s, "a", 1, "b", 0, "c", 0));
        assertEquals(false, eval(s, "a", 0, "b", 2, "c", 0), "b = 2 AND c = 3 goes together");
        assertEquals(false, eval("(a = 1 OR b = 2) AND c = 3", "a", 1, "b", 0, "c", 0));
        assertEquals(false, eval("NOT a = 1 AND b = 2", "a", 1, "b", 2), "(NOT a = 1) AND b = 2");
        assertEquals(true, eval("NOT (a = 1 AND b = 3)", "a", 1, "b", 2));
        assertEquals(true, eval("NOT NOT a = 1", "a", 1));
    }

    @Test
    void arithmeticFollowsItsPrecedenceFromLeftToRightWithJavasPromotion() {
        assertEquals(true, eval("2 + 3 * 4 = 14"));
        assertEquals(true, eval("(2 + 3) * 4 = 20"));
        assertEquals(true, eval("1 - 2 - 3 = -4"), "left to right");
        assertEquals(true, eval("12 / 3 / 2 = 2"));
        assertEquals(true, eval("-2 * -3 = 6 AND - -2 = 2 AND -(1 + 2) = -3"));
        assertEquals(true, eval("10 / 4 = 2"), "int division");
        assertEquals(true, eval("10 / 4.0 = 2.5"));
        assertEquals(true, eval("i * 2 = -2", "i", Integer.MAX_VALUE), "int arithmetic overflows as in Java");
        assertEquals(true, eval("i * 2 = 4294967294", "i", (long) Integer.MAX_VALUE), "long arithmetic");
        assertEquals(true, eval("b + b = 254", "b", (byte) 127), "bytes promote to int");
        assertEquals(true, eval("f * 2 = 0.5", "f", 0.25f));
        assertEquals(true, eval("-s = -3", "s", (short) 3));
        assertNull(eval("i / 0 = 1", "i", 1), "an integer division by zero is unknown");
        assertNull(eval("NOT (i / 0 = 1)", "i", 1));
        assertEquals(true, eval("1.0 / 0 > 1e308"), "a floating division by zero is infinite, as in Java");
        assertNull(eval("s + 1 = 2", "s", "1"), "arithmetic on a string is unknown");
        assertNull(eval("-s = -1", "s", "1"));
        assertEquals(false, eval("x = x", "x", Double.NaN), "NaN equals nothing, as in Java");
    }

    // ---- types ----

    @Test
    void valuesOfUnlikeTypesCompareFalseWhateverTheOperator() {
        assertEquals(false, eval("s = 5", "s", "5"));
        assertEquals(false, eval("s <> 5", "s", "5"));
        assertEquals(true, eval("NOT (s = 5)", "s", "5"));
        assertEquals(false, eval("b = 1", "b", true));
        assertEquals(false, eval("b = s", "b", true, "s", "true"));
        assertEquals(false, eval("s < t", "s", "a", "t", "b"), "strings only with = and <>");
        assertEquals(false, eval("b >= c", "b", true, "c", false), "booleans only with = and <>");
        assertEquals(true, eval("s <> t", "s", "a", "t", "b"));
        assertEquals(true, eval("i = l AND l = d AND f = i", "i", 3, "l", 3L, "d", 3.0, "f", 3.0f));
        assertEquals(true, eval("l > i", "l", Long.MAX_VALUE, "i", Integer.MAX_VALUE));
        assertEquals(true, eval("l <> l2", "l", Long.MAX_VALUE, "l2", Long.MAX_VALUE - 1), "longs compare exactly");
        assertEquals(false, eval("x = 1", "x", new Object()), "a value of no JMS type compares with nothing");
    }

    @Test
    void whatTheTextShowsOfTypesIsCheckedWhenParsed() {
        assertEquals("'<' compares numbers only (strings and booleans only with = and <>), but ''b'' is a string, at 5"
                + " in: x < 'b'", error("x < 'b'"));
        assertTrue(error("'a' < 'b'").startsWith("'<' compares numbers only"));
        assertTrue(error("TRUE >= x").startsWith("'>=' compares numbers only (strings and booleans only with = and <>),"
                + " but 'TRUE' is a condition"));
        assertEquals("'=' compares '1', a number, with ''a'', a string: never true, at 3 in: 1 = 'a'", error("1 = 'a'"));
        assertTrue(error("x + 1 = 'a'").startsWith("'=' compares 'x + 1', a number, with ''a'', a string"));
        assertEquals("'=' compares 'a = 1', a condition, with '2', a number: never true, at 9 in: (a = 1) = 2",
                error("(a = 1) = 2"));
        assertTrue(error("x + 'a' = 1").startsWith("'+' takes numbers, but ''a'' is a string, at 5"));
        assertTrue(error("x = 1 + TRUE").startsWith("'+' takes numbers, but 'TRUE' is a condition"));
        assertTrue(error("-'a' = 1").startsWith("'-' takes a number, but ''a'' is a string"));
        assertTrue(error("'a' BETWEEN 'a' AND 'b'").startsWith("BETWEEN compares numbers only, but ''a'' is a string"));
        assertEquals("expected a condition, but '5' is a number, at 1 in: 5", error("5"));
        assertTrue(error("'abc'").startsWith("expected a condition, but ''abc'' is a string, at 1"));
        assertTrue(error("x AND a + 1").startsWith("expected a condition, but 'a + 1' is a number, at 7"));
        assertTrue(error("NOT 'a'").startsWith("expected a condition, but ''a'' is a string, at 5"));
        assertTrue(error("'a' IN ('a')").startsWith("IN takes an identifier on its left, not ''a'', at 1"));
        assertTrue(error("x + 1 LIKE '1'").startsWith("LIKE takes an identifier on its left, not 'x + 1', at 1"));
        assertTrue(error("(a + 1) IS NULL").startsWith("IS takes an identifier on its left, not 'a + 1', at 2"));
        assertEquals(true, eval("(a) IS NULL AND (b) IN ('x')", "b", "x"), "a parenthesised identifier is one");
        assertEquals(true, eval("(a = 1) = (b = 2)", "a", 1, "b", 2), "conditions compare with =");
    }

    // ---- syntax errors: what is wrong, where, in which selector ----

    @Test
    void syntaxErrorsPointAtTheTokenAndShowTheSelector() {
        assertEquals("unexpected ')' (expected an identifier, a literal or '(') at 11 in: a = 1 AND )",
                error("a = 1 AND )"));
        assertEquals("unexpected end (expected an identifier, a literal or '(') at 4 in: a =", error("a ="));
        assertEquals("unexpected character '!': not equal is <> at 3 in: a != 1", error("a != 1"));
        assertEquals("unexpected character '\"': a string literal is in single quotes at 5 in: a = \"x\"",
                error("a = \"x\""));
        assertEquals("string literal not closed (a quote inside one is written '') at 10 in: a = 'it's'",
                error("a = 'it's'"), "'it' closes, then s, then a quote that opens");
        assertEquals("unexpected 'b' (expected AND, OR or the end) at 7 in: a = 1 b = 2", error("a = 1 b = 2"));
        assertEquals("unexpected '=' (expected AND, OR or the end) at 7 in: a = 1 = 2", error("a = 1 = 2"));
        assertEquals("unexpected ')' (expected a string literal in the list of IN) at 7 in: a IN ()", error("a IN ()"));
        assertEquals("unexpected end (expected ',' or ')' in the list of IN) at 10 in: a IN ('x'", error("a IN ('x'"));
        assertEquals("unexpected '1' (expected a string literal in the list of IN) at 7 in: a IN (1)", error("a IN (1)"));
        assertEquals("unexpected '2' (expected AND between the bounds of BETWEEN) at 13 in: a BETWEEN 1 2",
                error("a BETWEEN 1 2"));
        assertEquals("unexpected '=' (expected BETWEEN, IN or LIKE after NOT) at 7 in: a NOT = 1", error("a NOT = 1"));
        assertEquals("unexpected '1' (expected NULL or NOT NULL after IS) at 6 in: a IS 1", error("a IS 1"));
        assertEquals("unexpected 'x' (expected a string literal: the pattern of LIKE) at 8 in: a LIKE x", error("a LIKE x"));
        assertEquals("the escape character ''ab'' is not one character at 19 in: a LIKE 'x' ESCAPE 'ab'",
                error("a LIKE 'x' ESCAPE 'ab'"));
        assertEquals("pattern ''x\\'': the escape character ends the pattern, at 8 in: a LIKE 'x\\' ESCAPE '\\'",
                error("a LIKE 'x\\' ESCAPE '\\'"));
        assertTrue(error("a LIKE '\\a' ESCAPE '\\'").startsWith("pattern ''\\a'': the escape character is followed by"
                + " 'a': it may precede only '_', '%' or itself, at 8"));
        assertEquals("unexpected end (expected ')') at 7 in: (a = 1", error("(a = 1"));
        assertEquals("unexpected 'NOT' (expected an identifier, a literal or '(') at 5 in: a = NOT b", error("a = NOT b"));
        assertEquals("unexpected character '.' at 2 in: a.b = 'x'", error("a.b = 'x'"));
        assertTrue(error(" ").startsWith("a message selector is empty"));
    }

    @Test
    void unclosedStringLiteralsAreReportedWhereTheyOpen() {
        assertEquals("string literal not closed (a quote inside one is written '') at 5 in: a = 'open",
                error("a = 'open"));
    }

    // ---- the selector as a value ----

    @Test
    void aSelectorIsImmutableAndEvaluatesTheSameFromManyThreads() {
        MessageSelector s = MessageSelector.parse("n BETWEEN 10 AND 20 AND name LIKE 'm%'");
        assertEquals("n BETWEEN 10 AND 20 AND name LIKE 'm%'", s.text());
        assertEquals(s, MessageSelector.parse("n BETWEEN 10 AND 20 AND name LIKE 'm%'"));
        long matching = IntStream.range(0, 20_000).parallel()
                .filter(i -> s.matches(name -> name.equals("n") ? i % 40 : "m" + i)).count();
        assertEquals(20_000 / 40 * 11, matching);
    }
}
