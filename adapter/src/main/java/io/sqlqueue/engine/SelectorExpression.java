package io.sqlqueue.engine;

import java.util.Set;
import java.util.function.Function;

/**
 * A node of a parsed message selector and how it evaluates, by the rules of Jakarta Messaging 3.1
 * §3.8.1.1: SQL's three-valued logic, with unknown as {@code null}; arithmetic by Java's numeric
 * promotion; only values of like types compare (exact and approximate numbers are alike), any
 * other comparison being false, and strings and booleans only with {@code =} and {@code <>}; a
 * NULL operand makes a comparison or arithmetic unknown. Where the specification leaves a case
 * open: arithmetic on a value that is not a number, and an integer division by zero, are
 * unknown; {@code IN} and {@code LIKE} (with or without NOT) of a value that is not a string are
 * false, as a comparison of unlike types is; a value that is not a boolean used as a condition is
 * unknown. Immutable and thread-safe.
 */
abstract sealed class SelectorExpression {

    /** What a node yields, as far as the text tells: identifiers can hold anything. */
    enum Type {
        NUMBER("a number"), STRING("a string"), BOOLEAN("a condition"), ANY("a value");

        final String described;

        Type(String described) {
            this.described = described;
        }
    }

    final Type type;
    /** The node's place in the selector's text, from 0, end exclusive: error messages show it. */
    final int start;
    final int end;

    private SelectorExpression(Type type, int start, int end) {
        this.type = type;
        this.start = start;
        this.end = end;
    }

    /**
     * The node's value for a message whose identifiers have the values {@code identifiers} gives
     * (null for an absent one): for a condition TRUE, FALSE or null (unknown).
     */
    abstract Object evaluate(Function<String, ?> identifiers);

    /** The value as a condition: a Boolean, or unknown for anything else. */
    final Boolean condition(Function<String, ?> identifiers) {
        return evaluate(identifiers) instanceof Boolean b ? b : null;
    }

    static final class Literal extends SelectorExpression {
        final Object value;

        Literal(Object value, Type type, int start, int end) {
            super(type, start, end);
            this.value = value;
        }

        @Override
        Object evaluate(Function<String, ?> identifiers) {
            return value;
        }
    }

    static final class Identifier extends SelectorExpression {
        final String name;

        Identifier(String name, int start, int end) {
            super(Type.ANY, start, end);
            this.name = name;
        }

        @Override
        Object evaluate(Function<String, ?> identifiers) {
            return identifiers.apply(name);
        }
    }

    /** Unary {@code +} or {@code -}. */
    static final class Sign extends SelectorExpression {
        private final boolean minus;
        private final SelectorExpression operand;

        Sign(boolean minus, SelectorExpression operand, int start) {
            super(Type.NUMBER, start, operand.end);
            this.minus = minus;
            this.operand = operand;
        }

        @Override
        Object evaluate(Function<String, ?> identifiers) {
            Object v = operand.evaluate(identifiers);
            if (!isNumber(v)) {
                return null;
            }
            if (v instanceof Double d) {
                return minus ? -d : d;
            }
            if (v instanceof Float f) {
                return minus ? -f : f;
            }
            if (v instanceof Long l) {
                return minus ? -l : l;
            }
            int i = ((Number) v).intValue(); // byte and short promote to int, as in Java
            return minus ? -i : i;
        }
    }

    /** {@code + - * /} of two operands. */
    static final class Arithmetic extends SelectorExpression {
        private final char operator;
        private final SelectorExpression left;
        private final SelectorExpression right;

        Arithmetic(char operator, SelectorExpression left, SelectorExpression right) {
            super(Type.NUMBER, left.start, right.end);
            this.operator = operator;
            this.left = left;
            this.right = right;
        }

        @Override
        Object evaluate(Function<String, ?> identifiers) {
            Object a = left.evaluate(identifiers);
            Object b = right.evaluate(identifiers);
            if (!isNumber(a) || !isNumber(b)) {
                return null;
            }
            Number x = (Number) a;
            Number y = (Number) b;
            if (a instanceof Double || b instanceof Double) {
                double p = x.doubleValue();
                double q = y.doubleValue();
                return switch (operator) {
                    case '+' -> p + q;
                    case '-' -> p - q;
                    case '*' -> p * q;
                    default -> p / q;
                };
            }
            if (a instanceof Float || b instanceof Float) {
                float p = x.floatValue();
                float q = y.floatValue();
                return switch (operator) {
                    case '+' -> p + q;
                    case '-' -> p - q;
                    case '*' -> p * q;
                    default -> p / q;
                };
            }
            if (a instanceof Long || b instanceof Long) {
                long p = x.longValue();
                long q = y.longValue();
                return switch (operator) {
                    case '+' -> p + q;
                    case '-' -> p - q;
                    case '*' -> p * q;
                    default -> q == 0 ? null : p / q;
                };
            }
            int p = x.intValue();
            int q = y.intValue();
            return switch (operator) {
                case '+' -> p + q;
                case '-' -> p - q;
                case '*' -> p * q;
                default -> q == 0 ? null : p / q;
            };
        }
    }

    /** {@code = <> < > <= >=}. */
    static final class Comparison extends SelectorExpression {
        private final String operator;
        private final SelectorExpression left;
        private final SelectorExpression right;

        Comparison(String operator, SelectorExpression left, SelectorExpression right) {
            super(Type.BOOLEAN, left.start, right.end);
            this.operator = operator;
            this.left = left;
            this.right = right;
        }

        @Override
        Object evaluate(Function<String, ?> identifiers) {
            return compare(operator, left.evaluate(identifiers), right.evaluate(identifiers));
        }
    }

    /**
     * {@code [NOT] BETWEEN}: as the specification defines it, {@code v >= low AND v <= high}, and
     * NOT BETWEEN {@code v < low OR v > high}.
     */
    static final class Between extends SelectorExpression {
        private final boolean not;
        private final SelectorExpression value;
        private final SelectorExpression low;
        private final SelectorExpression high;

        Between(boolean not, SelectorExpression value, SelectorExpression low, SelectorExpression high) {
            super(Type.BOOLEAN, value.start, high.end);
            this.not = not;
            this.value = value;
            this.low = low;
            this.high = high;
        }

        @Override
        Object evaluate(Function<String, ?> identifiers) {
            Object v = value.evaluate(identifiers);
            Object l = low.evaluate(identifiers);
            Object h = high.evaluate(identifiers);
            return not ? or(compare("<", v, l), compare(">", v, h)) : and(compare(">=", v, l), compare("<=", v, h));
        }
    }

    /** {@code identifier [NOT] IN ('a', 'b')}. */
    static final class In extends SelectorExpression {
        private final boolean not;
        private final Identifier identifier;
        private final Set<String> values;

        In(boolean not, Identifier identifier, Set<String> values, int end) {
            super(Type.BOOLEAN, identifier.start, end);
            this.not = not;
            this.identifier = identifier;
            this.values = Set.copyOf(values);
        }

        @Override
        Object evaluate(Function<String, ?> identifiers) {
            Object v = identifier.evaluate(identifiers);
            if (v == null) {
                return null;
            }
            return v instanceof String s && values.contains(s) != not;
        }
    }

    /** {@code identifier [NOT] LIKE 'pattern' [ESCAPE 'c']}. */
    static final class Like extends SelectorExpression {
        private final boolean not;
        private final Identifier identifier;
        private final LikePattern pattern;

        Like(boolean not, Identifier identifier, LikePattern pattern, int end) {
            super(Type.BOOLEAN, identifier.start, end);
            this.not = not;
            this.identifier = identifier;
            this.pattern = pattern;
        }

        @Override
        Object evaluate(Function<String, ?> identifiers) {
            Object v = identifier.evaluate(identifiers);
            if (v == null) {
                return null;
            }
            return v instanceof String s && pattern.matches(s) != not;
        }
    }

    /** {@code identifier IS [NOT] NULL}: never unknown. */
    static final class IsNull extends SelectorExpression {
        private final boolean not;
        private final Identifier identifier;

        IsNull(boolean not, Identifier identifier, int end) {
            super(Type.BOOLEAN, identifier.start, end);
            this.not = not;
            this.identifier = identifier;
        }

        @Override
        Object evaluate(Function<String, ?> identifiers) {
            return (identifier.evaluate(identifiers) == null) != not;
        }
    }

    static final class Not extends SelectorExpression {
        private final SelectorExpression operand;

        Not(SelectorExpression operand, int start) {
            super(Type.BOOLEAN, start, operand.end);
            this.operand = operand;
        }

        @Override
        Object evaluate(Function<String, ?> identifiers) {
            Boolean b = operand.condition(identifiers);
            return b == null ? null : !b;
        }
    }

    /** AND or OR of two conditions, the right one evaluated only when the left does not decide. */
    static final class Logical extends SelectorExpression {
        private final boolean isAnd;
        private final SelectorExpression left;
        private final SelectorExpression right;

        Logical(boolean isAnd, SelectorExpression left, SelectorExpression right) {
            super(Type.BOOLEAN, left.start, right.end);
            this.isAnd = isAnd;
            this.left = left;
            this.right = right;
        }

        @Override
        Object evaluate(Function<String, ?> identifiers) {
            Boolean l = left.condition(identifiers);
            if (l != null && l != isAnd) { // FALSE decides an AND, TRUE an OR
                return l;
            }
            Boolean r = right.condition(identifiers);
            return isAnd ? and(l, r) : or(l, r);
        }
    }

    /** Three-valued AND: false if either is, else unknown if either is. */
    static Boolean and(Boolean a, Boolean b) {
        if (Boolean.FALSE.equals(a) || Boolean.FALSE.equals(b)) {
            return false;
        }
        return a == null || b == null ? null : true;
    }

    /** Three-valued OR: true if either is, else unknown if either is. */
    static Boolean or(Boolean a, Boolean b) {
        if (Boolean.TRUE.equals(a) || Boolean.TRUE.equals(b)) {
            return true;
        }
        return a == null || b == null ? null : false;
    }

    /** The types of a message property that are numbers. */
    static boolean isNumber(Object v) {
        return v instanceof Integer || v instanceof Long || v instanceof Double || v instanceof Float
                || v instanceof Short || v instanceof Byte;
    }

    /**
     * A comparison: unknown if either value is null; numbers compared after Java's numeric
     * promotion; strings and booleans by {@code =} and {@code <>} only; anything else false.
     */
    static Boolean compare(String operator, Object a, Object b) {
        if (a == null || b == null) {
            return null;
        }
        if (isNumber(a) && isNumber(b)) {
            Number x = (Number) a;
            Number y = (Number) b;
            if (a instanceof Double || b instanceof Double) {
                return compared(operator, x.doubleValue(), y.doubleValue());
            }
            if (a instanceof Float || b instanceof Float) {
                float p = x.floatValue();
                float q = y.floatValue();
                return compared(operator, p, q); // a float compares as its exact double
            }
            long p = x.longValue();
            long q = y.longValue();
            return switch (operator) {
                case "=" -> p == q;
                case "<>" -> p != q;
                case "<" -> p < q;
                case ">" -> p > q;
                case "<=" -> p <= q;
                default -> p >= q;
            };
        }
        boolean alike = (a instanceof String && b instanceof String) || (a instanceof Boolean && b instanceof Boolean);
        if (!alike) {
            return false;
        }
        return switch (operator) {
            case "=" -> a.equals(b);
            case "<>" -> !a.equals(b);
            default -> false;
        };
    }

    private static boolean compared(String operator, double p, double q) {
        return switch (operator) {
            case "=" -> p == q;
            case "<>" -> p != q;
            case "<" -> p < q;
            case ">" -> p > q;
            case "<=" -> p <= q;
            default -> p >= q;
        };
    }
}
