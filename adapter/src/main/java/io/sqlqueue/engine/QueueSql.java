package io.sqlqueue.engine;

import java.util.function.Predicate;

/**
 * Every statement the engine runs against one queue and its dead-letter table, each written once,
 * by name, from its {@link Dialect}'s primitives when the queue is opened. Parameters are named;
 * see each field. Claims, leases and holds return the message columns in the order of
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
    /**
     * :n → messages, deleted: ready ones, highest priority first, FIFO within a priority, skipping
     * rows other transactions hold.
     */
    final SqlTemplate claim;
    /** :n :lease :token :holder :maxAttempts → messages, attempts incremented, invisible for the lease */
    final SqlTemplate lease;
    /** How leaseUnattempted is prepared for a size. */
    final Dialect.Pick pickUnattempted;
    /** As lease, of messages never attempted (attempts 0 or less) only. */
    final SqlTemplate leaseUnattempted;
    /**
     * :n → messages, locked until the transaction ends, unchanged: other consumers skip them
     * meanwhile. A transaction's own locks are not skipped, so a second hold in it goes on after
     * the first's last row (holdAfter).
     */
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
    /** :id :newAttempts :error :errorClass → moved count */
    final SqlTemplate deadLetterClaimed;
    /** :id :token :error :errorClass → moved count */
    final SqlTemplate deadLetterLeased;
    /** Every dead-letter column but failed_at, from values (:errorClass too): a claimed row that cannot be delivered. */
    final SqlTemplate deadLetterRow;
    /** :id :token → update count: a lease given back uncounted, visible at once */
    final SqlTemplate releaseLeased;
    /** :id :token :delay :error → update count: a lease given back uncounted, visible after :delay */
    final SqlTemplate postponeLeased;
    /**
     * :id :newAttempts :delay :error → update count: a claimed message whose transaction rolled back,
     * hidden for :delay, its attempt not counted. The fence "attempts < :newAttempts" is retryClaimed's:
     * a row whose attempt another delivery has counted since is left as that one set it.
     */
    final SqlTemplate postponeClaimed;
    /**
     * :id :token :lease → update count: a lease extended, hidden for :lease ms from now, while its
     * token is still the one leased (0: another consumer has taken the message over, or it is gone)
     */
    final SqlTemplate renewLeased;
    /**
     * → a row when some message is ready and, in key order, the first of its key (a poller of an
     * ordered queue would otherwise keep starting deliveries for messages waiting behind their key).
     */
    final SqlTemplate peek;
    /**
     * :n (literal) → messages, unchanged and locking none: the first :n rows a consumer could take
     * now (ready and not expired, by the database's clock) in the dequeue order, not waiting for
     * rows other transactions hold where the database can skip them ({@link Dialect#firstRows}).
     * A browser's first page ({@link Browse}).
     */
    final SqlTemplate browse;
    /** As browse, after :afterPriority :afterId in the dequeue order: the next page. */
    final SqlTemplate browseAfter;
    /** :n (literal) → update count: hidden rows whose time has passed, made claimable */
    final SqlTemplate reveal;
    /** :table → the count of the table's columns with planner statistics; null where the database gathers them itself */
    final SqlTemplate columnStatistics;
    /** Gathers the planner's statistics of the table, where columnStatistics is not null. */
    final String gatherStatistics;
    /** → ready, delayed, leased, oldest ready age in ms (null when none), expired */
    final SqlTemplate stats;
    /** → dead-letter count */
    final SqlTemplate deadLetterCount;
    /** Dead letters moved back into the queue, oldest failure first ({@link Dialect#requeueStatement}). */
    final Dialect.Requeue requeue;
    /** :n (literal) :cutoff → update count: dead letters that failed before :cutoff, deleted */
    final SqlTemplate purgeDeadLetters;
    /**
     * :n (literal) :error :errorClass (null) → update count: expired messages moved to the dead-letter table, through
     * the index on expires_at. Left behind: rows under a lease that has not run out (their delivery
     * is in flight: an acknowledgement after the sweep would find nothing, and the message would
     * end twice), and rows other transactions hold where the database can skip them.
     */
    final SqlTemplate sweepExpired;
    /** :n (literal) → update count: expired messages deleted */
    final SqlTemplate discardExpired;
    /** :id :newAttempts → update count: a held row deleted (an expired one, discarded) */
    final SqlTemplate deleteHeldRow;
    /**
     * :id → deleted count (0 or 1): the message cancelled, unless it is in delivery: under a lease
     * that has not run out, or held by another transaction (passed over, not waited for, where the
     * database can).
     */
    final Dialect.UnheldDelete cancelById;
    /** :dedupKey → as cancelById, the message with this dedup key */
    final Dialect.UnheldDelete cancelByKey;
    /**
     * :id → id, leased (1 when under a lease that has not run out, else 0), as last committed
     * ({@link Dialect#lastCommitted}); no row when the message is not in the queue. Read after a
     * cancel deleted nothing.
     */
    final SqlTemplate queuedById;
    /** :dedupKey → as queuedById, the message with this dedup key */
    final SqlTemplate queuedByKey;

    /** The statements of a queue whose consumers take every message. */
    QueueSql(Dialect d, TableName queue, TableName deadLetters, boolean keyOrder) {
        this(d, queue, deadLetters, keyOrder, null);
    }

    /**
     * With {@code keyOrder}, claims, leases, holds and the peek take only the first message of
     * each ordering key ({@link Dialect#headOfKey}). With a {@code selection}, claims, leases and
     * holds take only the ready rows it selects ({@link Dialect#selectingPick}); the peek still
     * answers for every ready row (a consumer finding none of them its own backs off as when the
     * messages are held by others).
     */
    QueueSql(Dialect d, TableName queue, TableName deadLetters, boolean keyOrder,
            Predicate<SelectingPick.Candidate> selection) {
        String q = d.qualified(queue);
        String dlq = d.qualified(deadLetters);
        String order = keyOrder ? d.headOfKey(q) : "";
        String picked = selection == null ? "" : d.pickedIds();
        String after = Dialect.AND_AFTER + order;
        String byId = " WHERE " + d.byId(q);
        tableName = q;
        deadLetterTableName = dlq;
        insert = new SqlTemplate(d.insertReturningId(q, Dialect.insertColumns(), "VALUES (" + d.insertValues() + ")"));
        insertIfAbsent = new SqlTemplate(d.insertReturningId(q, Dialect.insertColumns(), d.ifKeyAbsent(q, d.insertValues())));
        insertForBatch = template(d.insertForBatch(q));
        // the redundant IS NOT NULL lets SQL Server use its filtered index on dedup_key
        String byKey = "dedup_key IS NOT NULL AND " + d.sameKey("dedup_key", d.keyParameter("dedupKey"));
        idByDedupKey = new SqlTemplate("SELECT id FROM " + q + " WHERE " + byKey);
        pick = selection == null ? d.pick(q, order) : d.selectingPick(q, order, selection);
        claim = new SqlTemplate(d.returningMessages(d.nextReady(Dml.Change.delete(q), q, order + picked)));
        lease = new SqlTemplate(d.returningMessages(d.nextReady(Dml.Change.update(q, leased(d)), q, order + picked)));
        // attempts is not in the ready index: each ready row the pick passes over is read with its lock
        // hint. Should SQL Server keep its update lock on a passed-over (already attempted) row until the
        // transaction ends, other consumers READPAST it meanwhile: a delay of that message, never a loss.
        // Only a real SQL Server shows which it does; Babelfish checks the statement, not its locks.
        String unattempted = order + " AND m.attempts <= 0";
        pickUnattempted = selection == null ? d.pick(q, unattempted) : d.selectingPick(q, unattempted, selection);
        leaseUnattempted = new SqlTemplate(d.returningMessages(d.nextReady(Dml.Change.update(q, leased(d)), q,
                unattempted + picked)));
        hold = hold(d, q, order + picked);
        holdAfter = hold(d, q, after + picked);
        ack = new SqlTemplate("DELETE FROM " + q + byId + " AND lease_token = :token");
        deleteHeld = template(d.deleteHeld(q));
        String retryLater = " " + visibleAfter(d, "delay") + ", lease_token = NULL, leased_by = NULL";
        retryClaimed = new SqlTemplate("UPDATE " + q + " SET attempts = :newAttempts, last_error = :error," + retryLater
                + byId + " AND attempts < :newAttempts");
        retryLeased = new SqlTemplate("UPDATE " + q + " SET last_error = :error," + retryLater + byId
                + " AND lease_token = :token");
        deadLetterClaimed = moveToDeadLetters(d, Dml.where(Dml.Change.delete(q), d.byId(q) + " AND attempts < :newAttempts"),
                dlq, "CAST(:newAttempts AS INTEGER)");
        deadLetterLeased = moveToDeadLetters(d, Dml.where(Dml.Change.delete(q), d.byId(q) + " AND lease_token = :token"),
                dlq, null);
        deadLetterRow = new SqlTemplate("INSERT INTO " + dlq + " (" + Dialect.DEAD_LETTER_COLUMNS + ") VALUES (:id,"
                + " :priority, :visibleAt, :enqueuedAt, :attempts, :dedupKey, :headers, :body, :error, " + d.now()
                + ", :orderingKey, " + d.errorClassValue() + ")");
        releaseLeased = new SqlTemplate("UPDATE " + q + " SET attempts = attempts - 1, visible_at = " + d.now()
                + ", hidden = NULL, lease_token = NULL, leased_by = NULL" + byId + " AND lease_token = :token");
        // On SQL Server the row is found as the ack finds it (byId: a clustered seek, the claims' lock order), and
        // it moves within the index of hidden rows as the lease moved it there. Which index the optimiser seeks, and
        // that a JDBC batch of these is one round trip with a count per statement, only a real SQL Server shows:
        // Babelfish runs the batch with the right counts, but plans and locks as PostgreSQL.
        renewLeased = new SqlTemplate("UPDATE " + q + " SET " + visibleAfter(d, "lease") + byId
                + " AND lease_token = :token");
        postponeLeased = new SqlTemplate("UPDATE " + q + " SET attempts = attempts - 1, last_error = :error,"
                + retryLater + byId + " AND lease_token = :token");
        postponeClaimed = new SqlTemplate("UPDATE " + q + " SET last_error = :error," + retryLater + byId
                + " AND attempts < :newAttempts");
        peek = new SqlTemplate(d.skippingIsolation() + d.anyRow("1", q + " AS m", d.ready() + order, Dialect.DEQUEUE_ORDER));
        // Expired rows are left out here rather than after reading: a claim would dead-letter them, not deliver them.
        // The browse is firstRows, the selecting pick's unlocked read. On SQL Server that is READ COMMITTED with
        // READPAST and READCOMMITTEDLOCK: a row under an exclusive lock (a claim's delete, a lease's update not yet
        // committed, another sender's insert) is passed over, not waited for, and not shown, which is right: no
        // consumer could take it now. Its own shared lock on a row lasts only while the row is read (READ COMMITTED
        // keeps none), so a consumer waits at most that instant, never for the browser's transaction; READCOMMITTEDLOCK
        // keeps it so under READ_COMMITTED_SNAPSHOT, where READPAST would otherwise be refused. A row held only with an
        // update lock (a hold, UPDLOCK) is compatible with a shared one and is shown. PostgreSQL and H2 read the last
        // committed version and never wait. Only a real SQL Server shows the locking: Babelfish ignores the hints and
        // reads row versions, as PostgreSQL.
        String browsable = d.ready() + " AND (expires_at IS NULL OR expires_at > " + d.now() + ")";
        browse = new SqlTemplate(d.firstRows(d.messageColumns(""), q + " AS m", browsable, Dialect.DEQUEUE_ORDER));
        browseAfter = new SqlTemplate(d.firstRows(d.messageColumns(""), q + " AS m", browsable + Dialect.AND_AFTER,
                Dialect.DEQUEUE_ORDER));
        reveal = new SqlTemplate(d.someRows(Dml.Change.update(q, "hidden = NULL"), d.hiddenAndDue(), "visible_at", "id")
                .statement());
        stats = new SqlTemplate(d.stats(q));
        columnStatistics = d.columnStatistics() == null ? null : new SqlTemplate(d.columnStatistics());
        gatherStatistics = columnStatistics == null ? null : d.gatherStatistics(q);
        deadLetterCount = new SqlTemplate("SELECT COUNT(*) FROM " + dlq + d.readUncommitted());
        requeue = d.requeue(q, dlq);
        purgeDeadLetters = new SqlTemplate(d.deleteBefore(dlq, "failed_at"));
        Dml expired = d.someRows(Dml.Change.delete(q), expiredAndFree(d), "expires_at", "id");
        sweepExpired = moveToDeadLetters(d, expired, dlq, null);
        discardExpired = new SqlTemplate(expired.statement());
        deleteHeldRow = new SqlTemplate("DELETE FROM " + q + byId + " AND attempts < :newAttempts");
        // SQL Server: DELETE TOP (1) … WITH (ROWLOCK, READPAST, READCOMMITTEDLOCK) by the plain id (not byId), through
        // the primary key or the dedup index, then the clustered row: every read passes over held rows, so the cancel
        // waits for no consumer there. Microsoft documents that READPAST does not cover the upkeep of the other
        // indexes once the row is the cancel's: should a claim read the same row's ready-index entry in that instant,
        // its update lock lasts until the claim's transaction ends and the cancel waits that long, while the claim
        // passes over the row (its own READPAST): no cycle, no deadlock. A delayed message is not in the ready index.
        // Only a real SQL Server shows this locking; Babelfish ignores READPAST and its cancel waits for a holder.
        cancelById = d.unheldDelete(q, "id = :id AND " + notLeased(d));
        cancelByKey = d.unheldDelete(q, byKey + " AND " + notLeased(d));
        String state = "id, CASE WHEN " + notLeased(d) + " THEN 0 ELSE 1 END";
        queuedById = new SqlTemplate(d.lastCommitted(state, q, "id = :id"));
        queuedByKey = new SqlTemplate(d.lastCommitted(state, q, byKey));
    }

    /**
     * What a lease sets: the rows hidden for :lease ms, their attempts counted
     * ({@link Dialect#nextAttempts}), :token, and :holder put before the holders whose leases ran
     * out (a row's failure, give-back or acknowledgement clears them), except on a row whose
     * attempts are spent: it goes to the dead-letter table with their names instead.
     */
    private static String leased(Dialect d) {
        return visibleAfter(d, "lease") + ", attempts = " + Dialect.nextAttempts("attempts") + ", lease_token = :token,"
                + " leased_by = CASE WHEN attempts >= :maxAttempts THEN leased_by WHEN leased_by IS NULL THEN :holder ELSE"
                + " LEFT(CONCAT(CAST(:holder AS VARCHAR(" + Dialect.MAX_LEASED_BY_LENGTH + ")), ', ', leased_by), "
                + Dialect.MAX_LEASED_BY_LENGTH + ") END";
    }

    /**
     * The assignments that make a row visible after the milliseconds of the named parameter: its
     * {@code visible_at}, and {@code hidden} when that is a second or more ahead ({@link Dialect#hiddenFor}).
     */
    private static String visibleAfter(Dialect d, String parameter) {
        return "visible_at = " + d.nowPlus(parameter) + ", hidden = " + Dialect.hiddenFor(parameter);
    }

    /** The first :n ready rows meeting {@code and}, locked and returned unchanged. */
    private static SqlTemplate hold(Dialect d, String q, String and) {
        return new SqlTemplate(d.skippingIsolation()
                + d.lockedRead(d.messageColumns(""), q + " AS m", d.ready() + and, Dialect.DEQUEUE_ORDER));
    }

    /**
     * The rows an expiry sweep may take, by the database's clock: expired, and not under a lease
     * that has not run out. The redundant {@code IS NOT NULL} lets SQL Server use its filtered
     * index on {@code expires_at}.
     */
    private static String expiredAndFree(Dialect d) {
        return "expires_at IS NOT NULL AND expires_at <= " + d.now() + " AND " + notLeased(d);
    }

    /**
     * A row under no lease that has not run out: never leased, given back, or its lease run out
     * (its consumer's acknowledgement would no longer take it).
     */
    private static String notLeased(Dialect d) {
        return "(lease_token IS NULL OR visible_at <= " + d.now() + ")";
    }

    /**
     * Moves the rows {@code delete} takes into the dead-letter table with :error, in one statement;
     * {@code attempts} is the count to record, an expression, or null for the row's own.
     */
    private static SqlTemplate moveToDeadLetters(Dialect d, Dml delete, String dlq, String attempts) {
        return new SqlTemplate(d.moveRows(delete, dlq + " (" + Dialect.DEAD_LETTER_COLUMNS + ")",
                prefix -> deadLetterValues(d, prefix, attempts), null));
    }

    /**
     * The values of a dead-letter row, in the order of {@link Dialect#DEAD_LETTER_COLUMNS}, from a
     * queue row whose columns are read with {@code prefix}: its own values, then :error, the clock and
     * :errorClass.
     */
    private static String deadLetterValues(Dialect d, String prefix, String attempts) {
        return prefix + "id, " + prefix + "priority, " + prefix + "visible_at, " + prefix + "enqueued_at, "
                + (attempts == null ? prefix + "attempts" : attempts) + ", " + prefix + "dedup_key, " + prefix
                + "headers, " + prefix + "body, " + d.errorValue() + ", " + d.now() + ", " + prefix + "ordering_key, "
                + d.errorClassValue();
    }

    private static SqlTemplate template(String sql) {
        return sql == null ? null : new SqlTemplate(sql);
    }
}
