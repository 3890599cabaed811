package io.sqlqueue.console;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * One HTML page of the console, written as text: every value from outside goes through
 * {@link #text}, which escapes it, and {@link #raw} takes only the console's own markup. No script,
 * no external style sheet or font: a little inline CSS.
 */
final class Page {

    private static final String STYLE = "body{font-family:system-ui,sans-serif;margin:1.5em;color:#222}"
            + "table{border-collapse:collapse;margin:.5em 0 1.5em}th,td{border:1px solid #ccc;padding:.25em .5em;"
            + "text-align:left;vertical-align:top}th{background:#f0f0f0}td.n{text-align:right}"
            + "pre{background:#f7f7f7;padding:.5em;white-space:pre-wrap;word-break:break-all;max-width:60em}"
            + ".notice{background:#eef6ee;border:1px solid #9c9;padding:.5em}.error{background:#fbeaea;"
            + "border:1px solid #d99;padding:.5em}form.inline{display:inline}button{margin:.1em}";

    /** The most body bytes shown; the rest is counted, not shown. */
    static final int SHOWN_BODY_BYTES = 64 * 1024;

    private final StringBuilder html = new StringBuilder();

    Page(String title) {
        html.append("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>").append(escape(title))
                .append("</title><style>").append(STYLE).append("</style></head><body>");
    }

    /** Escaped text. */
    Page text(Object value) {
        html.append(escape(value == null ? "" : String.valueOf(value)));
        return this;
    }

    /** The console's own markup, never a value from outside. */
    Page raw(String markup) {
        html.append(markup);
        return this;
    }

    /** A hidden form field. */
    Page hidden(String name, Object value) {
        return raw("<input type=\"hidden\" name=\"").raw(name).raw("\" value=\"").text(value).raw("\">");
    }

    String finish() {
        return html.append("</body></html>").toString();
    }

    /** Text safe in HTML content and in double-quoted attribute values. */
    static String escape(String s) {
        StringBuilder out = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }

    /**
     * A body as an operator reads it: its UTF-8 text when it is valid UTF-8 without control
     * characters other than tab and line breaks, else a hex dump, 16 bytes a line; at most
     * {@value #SHOWN_BODY_BYTES} bytes of it.
     */
    static String body(byte[] body) {
        int shown = Math.min(body.length, SHOWN_BODY_BYTES);
        String more = shown < body.length ? "\n… " + (body.length - shown) + " more bytes" : "";
        String text = utf8(body, shown);
        if (text != null) {
            return text + more;
        }
        StringBuilder hex = new StringBuilder();
        for (int i = 0; i < shown; i++) {
            hex.append(i % 16 == 0 ? (i == 0 ? "" : "\n") + String.format("%08x ", i) : "").append(String.format(" %02x", body[i]));
        }
        return hex + more;
    }

    /** Whether the body is text: its first {@code length} bytes as UTF-8, or null. */
    static String utf8(byte[] body, int length) {
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(body, 0, length)).toString();
        } catch (CharacterCodingException e) {
            return null; // also a multi-byte character cut at the shown length: shown as hex then
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isISOControl(c) && c != '\n' && c != '\r' && c != '\t') {
                return null;
            }
        }
        return text;
    }
}
