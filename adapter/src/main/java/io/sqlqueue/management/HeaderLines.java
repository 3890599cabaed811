package io.sqlqueue.management;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * Message headers as text an operator edits in a form or passes to a JMX operation (an open type):
 * one {@code name=value} per line. The name is everything before the first {@code =}, the value
 * everything after it, both as written (no trimming: a header's spaces are its own); blank lines
 * are skipped. A value cannot hold a line break.
 */
public final class HeaderLines {

    private HeaderLines() {
    }

    /**
     * The headers of {@code text}, in their order; a name given twice keeps its last value.
     *
     * @throws IllegalArgumentException naming the line, for a line without {@code =} or with an empty name
     */
    public static Map<String, String> parse(String text) {
        Objects.requireNonNull(text, "text");
        Map<String, String> headers = new LinkedHashMap<>();
        String[] lines = text.split("\r\n|\r|\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            if (line.isBlank()) {
                continue;
            }
            int eq = line.indexOf('=');
            if (eq < 1) {
                throw new IllegalArgumentException("header line " + (i + 1) + " must be name=value with a name, was '"
                        + line + "'");
            }
            headers.put(line.substring(0, eq), line.substring(eq + 1));
        }
        return headers;
    }

    /** The lines of {@code headers}, as {@link #parse} reads them; values with line breaks do not come back alike. */
    public static String format(Map<String, String> headers) {
        return headers.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining("\n"));
    }
}
