package io.sqlqueue.engine;

import java.util.List;
import java.util.Map;

/**
 * One dead letter in full: its row, its headers and body as stored, and its history, the rows the
 * queue's completion journal holds for its id (empty without a journal; the journal keeps finished
 * deliveries only, so a dead letter has at most its {@code dead_lettered} row there, or several
 * when an older message had the same id in a table written by hand).
 *
 * @param headers the {@code headers} column as stored (JSON written by the adapter, or anything
 *                written by hand), or null
 * @param body    never null
 */
public record DeadLetterMessage(DeadLetter row, String headers, byte[] body, List<JournalEntry> history) {

    /**
     * The headers as the adapter reads them.
     *
     * @throws IllegalArgumentException when the stored text is not the adapter's JSON object of strings
     */
    public Map<String, String> headerMap() {
        return HeadersJson.read(headers);
    }
}
