package io.sqlqueue.engine;

import java.util.List;

/**
 * Every statement the engine runs against one queue and its dead-letter table, written once by
 * a {@link Dialect} when the queue is opened. Parameters are named; see each field.
 *
 * <p>Claims and leases return the message columns in the order of {@link Dialect#MESSAGE_COLUMNS}.
 */
record QueueSql(
        /* The queue table's quoted, qualified name. */
        String tableName,
        /* The dead-letter table's quoted, qualified name. */
        String deadLetterTableName,
        /* CREATE statements, each safe to run when the object exists. */
        List<String> create,
        /* :priority :delay :headers :body :dedupKey → id */
        SqlTemplate insert,
        /* As insert, but returns no row when the dedup key exists (or fails with a unique violation). */
        SqlTemplate insertIfAbsent,
        /* As insert without returning, for JDBC batches with generated keys; null where unsupported. */
        SqlTemplate insertForBatch,
        /* :dedupKey → id */
        SqlTemplate idByDedupKey,
        /* H2 only: :offset :n → candidate ids for the claim, not locked; null elsewhere */
        SqlTemplate candidates,
        /* H2 only: as candidates, after :afterPriority :afterId, for a hold; null elsewhere */
        SqlTemplate candidatesAfter,
        /* :n → messages, deleted */
        SqlTemplate claim,
        /* :n :lease :token → messages, attempts incremented, invisible for the lease */
        SqlTemplate lease,
        /* :n → messages, locked until the transaction ends, unchanged */
        SqlTemplate hold,
        /* As hold, after :afterPriority :afterId in the dequeue order */
        SqlTemplate holdAfter,
        /* :id :token → update count */
        SqlTemplate ack,
        /* :ids → update count: held messages, deleted; null where the dialect builds it per count */
        SqlTemplate deleteHeld,
        /* :id :newAttempts :delay :error → update count (none when the count is already there) */
        SqlTemplate retryClaimed,
        /* :id :token :delay :error → update count */
        SqlTemplate retryLeased,
        /* :id :newAttempts :error → moved count */
        SqlTemplate deadLetterClaimed,
        /* :id :token :error → moved count */
        SqlTemplate deadLetterLeased,
        /* every dead-letter column but failed_at, from values: a claimed row that cannot be delivered */
        SqlTemplate deadLetterRow,
        /* :id :token → update count: a lease given back uncounted, visible at once */
        SqlTemplate releaseLeased,
        /* → a row when some message is ready */
        SqlTemplate peek,
        /* :n (literal) → update count: hidden rows whose time has passed, made claimable */
        SqlTemplate reveal,
        /* → ready, delayed, leased, oldest ready age in ms (null when none), expired */
        SqlTemplate stats,
        /* → dead-letter count */
        SqlTemplate deadLetterCount,
        /* :n (literal) → update count: dead letters moved back into the queue, oldest failure first.
           H2: → the dead letters' _ROWID_s to move, locked (see H2Dialect.requeueBatch). */
        SqlTemplate requeueDeadLetters,
        /* :n (literal) :cutoff → update count: dead letters that failed before :cutoff, deleted */
        SqlTemplate purgeDeadLetters,
        /* :n (literal) :error → update count: expired messages moved to the dead-letter table */
        SqlTemplate sweepExpired,
        /* :n (literal) → update count: expired messages deleted */
        SqlTemplate discardExpired,
        /* :id :newAttempts → update count: a held row deleted (an expired one, discarded) */
        SqlTemplate deleteHeldRow) {
}
