package io.sqlqueue.engine;

/**
 * The pattern of a selector's {@code LIKE}: {@code _} stands for any one character, {@code %} for
 * any sequence of characters (the empty one too), every other character for itself; an escape
 * character makes the {@code _}, {@code %} or escape character after it stand for itself.
 * Characters are Unicode code points. Matching takes time proportional to the value's length
 * times the pattern's at worst (no regular expression, so no pattern can make it backtrack
 * without end). Immutable and thread-safe.
 */
final class LikePattern {

    /** A code point of the pattern, or one of these two wildcards (negative: no code point is). */
    private static final int ANY_ONE = -1;
    private static final int ANY_SEQUENCE = -2;

    private final int[] pattern;

    private LikePattern(int[] pattern) {
        this.pattern = pattern;
    }

    /**
     * The pattern written as {@code text} with {@code escape} (a code point, or -1 for none).
     *
     * @throws IllegalArgumentException naming the problem when the escape character ends the
     *         pattern or is followed by another character than {@code _}, {@code %} or itself
     */
    static LikePattern of(String text, int escape) {
        int[] cps = text.codePoints().toArray();
        int[] compiled = new int[cps.length];
        int n = 0;
        for (int i = 0; i < cps.length; i++) {
            int c = cps[i];
            if (c == escape) {
                if (i + 1 == cps.length) {
                    throw new IllegalArgumentException("the escape character ends the pattern");
                }
                int next = cps[++i];
                if (next != '_' && next != '%' && next != escape) {
                    throw new IllegalArgumentException("the escape character is followed by '"
                            + new String(Character.toChars(next)) + "': it may precede only '_', '%' or itself");
                }
                compiled[n++] = next;
            } else {
                compiled[n++] = c == '_' ? ANY_ONE : c == '%' ? ANY_SEQUENCE : c;
            }
        }
        return new LikePattern(java.util.Arrays.copyOf(compiled, n));
    }

    /**
     * Whether {@code value} matches: the classic wildcard match, going back only to the last
     * {@code %} seen when a character does not match.
     */
    boolean matches(String value) {
        int[] v = value.codePoints().toArray();
        int vi = 0;
        int pi = 0;
        int sequenceAt = -1; // the pattern index after the last %
        int sequenceFrom = 0; // where in the value that % would next stop
        while (vi < v.length) {
            if (pi < pattern.length && pattern[pi] == ANY_SEQUENCE) {
                sequenceAt = ++pi;
                sequenceFrom = vi;
            } else if (pi < pattern.length && (pattern[pi] == ANY_ONE || pattern[pi] == v[vi])) {
                pi++;
                vi++;
            } else if (sequenceAt >= 0) {
                pi = sequenceAt;
                vi = ++sequenceFrom;
            } else {
                return false;
            }
        }
        while (pi < pattern.length && pattern[pi] == ANY_SEQUENCE) {
            pi++;
        }
        return pi == pattern.length;
    }
}
