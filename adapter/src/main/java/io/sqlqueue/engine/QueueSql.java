package io.sqlqueue.engine;

/**
 * Every statement the engine runs against one queue and its dead-letter table, each written once,
 * by name, from its {@link Dialect} when the queue is opened. Parameters are named; see each
 * field. Claims, leases and holds return the message columns in the order of
 * {@link Dialect#MESSAGE_COLUMNS}. Immutable.
 */
final class QueueSql {

    /** The queue table's quoted, qualified name. */
    final String tableName;
    /** The dead-letter table's quoted, qualified name. */
    final String deadLetterTableName;
    /** :priority :delay :ttl :headers :body :dedupKey :orderingKey → id */
    final SqlTemplate insert;
    /** As insert, but returns no row when the dedup key exists (or fails with a unique violation). */
    final SqlTemplate insertIfAbsent;
    /** As insert without a dedup key or a returned id, for JDBC batches with generated keys; null where unsupported. */
    final SqlTemplate insertForBatch;
    /** :dedupKey → id */
    final SqlTemplate idByDedupKey;
    /** How claim, lease, hold and holdAfter are prepared for a size: the rows they take are picked by it. */
    final Dialect.Pick pick;
    /** :n → messages, deleted */
    final SqlTemplate claim;
    /** :n :lease :token → messages, attempts incremented, invisible for the lease */
    final SqlTemplate lease;
    /** :n → messages, locked until the transaction ends, unchanged */
    final SqlTemplate hold;
    /** As hold, after :afterPriority :afterId in the dequeue order */
    final SqlTemplate holdAfter;
    /** :id :token → update count */
    final SqlTemplate ack;
    /** :ids → update count: held messages, deleted; null where the dialect builds it per count */
    final SqlTemplate deleteHeld;
    /**
     * :id :newAttempts :delay :error → update count (none when the count is already there). The
     * fence "attempts < :newAttempts" counts each failed attempt once, however many deliveries
     * report it, and never lowers a count (a row written with attempts -5 gets 1).
     */
    final SqlTemplate retryClaimed;
    /** :id :token :delay :error → update count */
    final SqlTemplate retryLeased;
    /** :id :newAttempts :error → moved count */
    final SqlTemplate deadLetterClaimed;
    /** :id :token :error → moved count */
    final SqlTemplate deadLetterLeased;
    /** Every dead-letter column but failed_at, from values: a claimed row that cannot be delivered. */
    final SqlTemplate deadLetterRow;
    /** :id :token → update count: a lease given back uncounted, visible at once */
    final SqlTemplate releaseLeased;
    /** → a row when some message is ready */
    final SqlTemplate peek;
    /** :n (literal) → update count: hidden rows whose time has passed, made claimable */
    final SqlTemplate reveal;
    /** → ready, delayed, leased, oldest ready age in ms (null when none), expired */
    final SqlTemplate stats;
    /** → dead-letter count */
    final SqlTemplate deadLetterCount;
    /** Dead letters moved back into the queue, oldest failure first ({@link Dialect#requeueStatement}). */
    final Dialect.Requeue requeue;
    /** :n (literal) :cutoff → update count: dead letters that failed before :cutoff, deleted */
    final SqlTemplate purgeDeadLetters;
    /** :n (literal) :error → update count: expired messages moved to the dead-letter table */
    final SqlTemplate sweepExpired;
    /** :n (literal) → update count: expired messages deleted */
    final SqlTemplate discardExpired;
    /** :id :newAttempts → update count: a held row deleted (an expired one, discarded) */
    final SqlTemplate deleteHeldRow;

    /**
     * With {@code keyOrder}, claims, leases, holds and the peek take only the first message of
     * each ordering key ({@link Dialect#headOfKey}).
     */
    QueueSql(Dialect d, TableName queue, TableName deadLetters, boolean keyOrder) {
        String q = d.qualified(queue);
        String dlq = d.qualified(deadLetters);
        String order = keyOrder ? d.headOfKey(q) : "";
        String after = Dialect.AND_AFTER + order;
        String byId = " WHERE " + d.byId(q);
        tableName = q;
        deadLetterTableName = dlq;
        insert = new SqlTemplate(d.insert(q));
        insertIfAbsent = new SqlTemplate(d.insertIfAbsent(q));
        insertForBatch = template(d.insertForBatch(q));
        idByDedupKey = new SqlTemplate("SELECT id FROM " + q + " WHERE dedup_key IS NOT NULL AND "
                + d.sameKey("dedup_key", d.keyParameter("dedupKey")));
        pick = d.pick(q, order);
        claim = new SqlTemplate(d.claim(q, order));
        lease = new SqlTemplate(d.lease(q, order));
        hold = new SqlTemplate(d.hold(q, order));
        holdAfter = new SqlTemplate(d.hold(q, after));
        ack = new SqlTemplate("DELETE FROM " + q + byId + " AND lease_token = :token");
        deleteHeld = template(d.deleteHeld(q));
        String retryLater = " visible_at = " + d.nowPlus("delay") + ", hidden = " + Dialect.hiddenFor("delay")
                + ", lease_token = NULL";
        retryClaimed = new SqlTemplate("UPDATE " + q + " SET attempts = :newAttempts, last_error = :error," + retryLater
                + byId + " AND attempts < :newAttempts");
        retryLeased = new SqlTemplate("UPDATE " + q + " SET last_error = :error," + retryLater + byId
                + " AND lease_token = :token");
        deadLetterClaimed = new SqlTemplate(d.deadLetter(q, dlq, "CAST(:newAttempts AS INTEGER)", "attempts < :newAttempts"));
        deadLetterLeased = new SqlTemplate(d.deadLetter(q, dlq, null, "lease_token = :token"));
        deadLetterRow = new SqlTemplate("INSERT INTO " + dlq + " (" + Dialect.DEAD_LETTER_COLUMNS + ") VALUES (:id,"
                + " :priority, :visibleAt, :enqueuedAt, :attempts, :dedupKey, :headers, :body, :error, " + d.now()
                + ", :orderingKey)");
        releaseLeased = new SqlTemplate("UPDATE " + q + " SET attempts = attempts - 1, visible_at = " + d.now()
                + ", hidden = NULL, lease_token = NULL" + byId + " AND lease_token = :token");
        peek = new SqlTemplate(d.peek(q, order));
        reveal = new SqlTemplate(d.reveal(q));
        stats = new SqlTemplate(d.stats(q));
        deadLetterCount = new SqlTemplate("SELECT COUNT(*) FROM " + dlq + d.readUncommitted());
        requeue = d.requeue(q, dlq);
        purgeDeadLetters = new SqlTemplate(d.deleteBefore(dlq, "failed_at"));
        sweepExpired = new SqlTemplate(d.sweepExpired(q, dlq, false));
        discardExpired = new SqlTemplate(d.sweepExpired(q, dlq, true));
        deleteHeldRow = new SqlTemplate("DELETE FROM " + q + byId + " AND attempts < :newAttempts");
    }

    private static SqlTemplate template(String sql) {
        return sql == null ? null : new SqlTemplate(sql);
    }
}
