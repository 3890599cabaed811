package io.sqlqueue.engine;

import java.util.List;
import java.util.Map;

/**
 * A dead letter that an operator requeued edited, as a new message ({@link DeadLetters#requeueEdited}):
 * the edit's audit row and the original's headers and body as they were, which the audit row
 * keeps, with the journal's rows for the original's id (see {@link DeadLetterMessage#history}).
 *
 * @param edit    the edit's audit row; its {@code messageIds} are {@code "<old id> -> <new id>"}
 * @param headers the original's {@code headers} column as stored, or null when it had none
 * @param body    the original's body; null only for an edit audited by a release that did not keep it
 */
public record EditedDeadLetter(AuditEntry edit, String headers, byte[] body, List<JournalEntry> history) {

    /**
     * The original's headers as the adapter reads them.
     *
     * @throws IllegalArgumentException when the stored text is not the adapter's JSON object of strings
     */
    public Map<String, String> headerMap() {
        return HeadersJson.read(headers);
    }
}
