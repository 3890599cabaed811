package io.sqlqueue.engine;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Headers (string → string) as a flat JSON object, the form the {@code headers} column holds, so
 * that an admin can read and query them with the database's own JSON functions. Only this shape
 * is written or read: no nesting, numbers or nulls.
 */
final class HeadersJson {

    private HeadersJson() {
    }

    /** The JSON text, or {@code null} for no headers (the column stays NULL). */
    static String write(Map<String, String> headers) {
        if (headers.isEmpty()) {
            return null;
        }
        StringBuilder json = new StringBuilder("{");
        for (Map.Entry<String, String> e : headers.entrySet()) {
            if (json.length() > 1) {
                json.append(',');
            }
            quote(e.getKey(), json);
            json.append(':');
            quote(e.getValue(), json);
        }
        return json.append('}').toString();
    }

    private static void quote(String s, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    /**
     * Parses what {@link #write} wrote (or an admin wrote by hand in the same shape).
     *
     * @throws IllegalArgumentException if the text is not a flat JSON object of strings
     */
    static Map<String, String> read(String json) {
        if (json == null || json.isBlank()) {
            return Collections.emptyMap();
        }
        return new Parser(json).object();
    }

    private static final class Parser {
        private final String s;
        private int pos;

        Parser(String s) {
            this.s = s;
        }

        Map<String, String> object() {
            Map<String, String> map = new LinkedHashMap<>();
            expect('{');
            if (peek() == '}') {
                pos++;
            } else {
                do {
                    String key = string();
                    expect(':');
                    map.put(key, string());
                } while (next(',', '}') == ',');
            }
            skipSpace();
            if (pos != s.length()) {
                throw error("unexpected text after the object");
            }
            return map;
        }

        private String string() {
            expect('"');
            StringBuilder out = new StringBuilder();
            while (true) {
                if (pos >= s.length()) {
                    throw error("unterminated string");
                }
                char c = s.charAt(pos++);
                if (c == '"') {
                    return out.toString();
                }
                if (c != '\\') {
                    out.append(c);
                    continue;
                }
                if (pos >= s.length()) {
                    throw error("unterminated escape");
                }
                char e = s.charAt(pos++);
                switch (e) {
                    case '"', '\\', '/' -> out.append(e);
                    case 'b' -> out.append('\b');
                    case 'f' -> out.append('\f');
                    case 'n' -> out.append('\n');
                    case 'r' -> out.append('\r');
                    case 't' -> out.append('\t');
                    case 'u' -> {
                        if (pos + 4 > s.length()) {
                            throw error("short \\u escape");
                        }
                        try {
                            out.append((char) Integer.parseInt(s.substring(pos, pos + 4), 16));
                        } catch (NumberFormatException ex) {
                            throw error("bad \\u escape");
                        }
                        pos += 4;
                    }
                    default -> throw error("bad escape \\" + e);
                }
            }
        }

        private char peek() {
            skipSpace();
            if (pos >= s.length()) {
                throw error("unexpected end");
            }
            return s.charAt(pos);
        }

        private void expect(char c) {
            if (peek() != c) {
                throw error("expected '" + c + "'");
            }
            pos++;
        }

        private char next(char a, char b) {
            char c = peek();
            if (c != a && c != b) {
                throw error("expected '" + a + "' or '" + b + "'");
            }
            pos++;
            return c;
        }

        private void skipSpace() {
            while (pos < s.length() && Character.isWhitespace(s.charAt(pos))) {
                pos++;
            }
        }

        private IllegalArgumentException error(String what) {
            return new IllegalArgumentException("headers column is not a flat JSON object of strings: " + what
                    + " at character " + pos);
        }
    }
}
