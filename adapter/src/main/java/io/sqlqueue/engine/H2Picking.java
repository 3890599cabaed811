package io.sqlqueue.engine;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * H2's steps before a statement that takes rows: H2 cannot pick rows and skip or lock them in the
 * statement that takes them, so these pick and lock them first, and the statement (written by
 * {@link H2Dialect}'s primitives) takes the rows picked, by id.
 */
final class H2Picking {

    /** How far past rows other consumers hold one claim looks for free ones. */
    private static final int MAX_SCAN = 10_000;

    /**
     * The rows picked and still ready: re-checked by the lock and by the statement itself, against
     * the latest committed rows. Not {@code hidden}: with it H2 took the rows through the ready
     * index, and its FOR UPDATE locked every ready row (20 claims/s at 4 threads); a row hidden
     * since the candidates were read has its {@code visible_at} ahead.
     */
    static final String PICKED = "id = ANY(:ids) AND visible_at <= CURRENT_TIMESTAMP";

    /** The dead letters a requeue picked, by their hidden {@code _ROWID_} (the dead-letter table has no key). */
    static final String PICKED_ROWS = "_ROWID_ = ANY(:rows)";

    private H2Picking() {
    }

    /**
     * The pick of a claim, lease or hold. H2 locks every row that matches a {@code FOR UPDATE}
     * query's WHERE before it applies ORDER BY and FETCH FIRST, so the one-statement claim would
     * hold the whole ready set and starve every other consumer. Instead: read the next ids without
     * locking, lock those no one else holds (by primary key, so nothing more), and page on until
     * {@code n} are ours; then the claim, lease or hold takes exactly those. The lock step is what
     * makes it safe. The statement does not check the key order ({@link Dialect#headOfKey}) again: a
     * row stops being the first of its key only if an earlier row of the key appears, which a send
     * cannot make (ids grow), and an earlier row that another transaction deletes stays visible to
     * this one until it commits.
     */
    static final class NextRows implements Dialect.Pick {
        private final SqlTemplate candidates;
        private final SqlTemplate candidatesAfter;
        /** Locks the rows of :ids that no other transaction holds and that are still ready, and returns them. */
        private final SqlTemplate lock;

        NextRows(Dialect d, String q, String and) {
            candidates = candidates(d, q, and);
            candidatesAfter = candidates(d, q, Dialect.AND_AFTER + and);
            lock = new SqlTemplate("SELECT id FROM " + q + " WHERE " + PICKED + " FOR UPDATE SKIP LOCKED");
        }

        /** The next :n ready ids after :offset, without locks. */
        private static SqlTemplate candidates(Dialect d, String q, String and) {
            return new SqlTemplate("SELECT id FROM " + q + " AS m WHERE " + d.ready() + and + " ORDER BY "
                    + Dialect.DEQUEUE_ORDER + " OFFSET :offset ROWS FETCH FIRST :n ROWS ONLY");
        }

        @Override
        public SqlTemplate.Bound prepare(Connection c, SqlTemplate take, int n, Dialect.Place after) throws SQLException {
            Set<Long> ours = new LinkedHashSet<>();
            for (int offset = 0; ours.size() < n && offset < MAX_SCAN; ) {
                int want = n - ours.size();
                List<Long> found = new ArrayList<>(want);
                try (SqlTemplate.Bound b = (after == null ? candidates.prepare(c)
                        : Dialect.bindAfter(candidatesAfter.prepare(c), after)).setInt("offset", offset).setInt("n", want);
                        ResultSet rs = b.executeQuery()) {
                    while (rs.next()) {
                        found.add(rs.getLong(1));
                    }
                }
                if (!found.isEmpty()) {
                    try (SqlTemplate.Bound b = lock.prepare(c).setLongs("ids", found.toArray(Long[]::new));
                            ResultSet rs = b.executeQuery()) {
                        while (rs.next()) {
                            ours.add(rs.getLong(1));
                        }
                    }
                }
                if (found.size() < want) {
                    break; // no more ready rows
                }
                offset += want;
            }
            return take.prepare(c).setLongs("ids", ours.toArray(Long[]::new));
        }
    }

    /** Locks the rows of a list of ids that no other transaction holds and that are still ready. */
    static final class LockPicked implements SelectingPick.Lock {
        private final SqlTemplate lock;

        LockPicked(String q) {
            lock = new SqlTemplate("SELECT id FROM " + q + " WHERE " + PICKED + " FOR UPDATE SKIP LOCKED");
        }

        @Override
        public List<Long> lock(Connection c, List<Long> ids) throws SQLException {
            List<Long> locked = new ArrayList<>(ids.size());
            if (ids.isEmpty()) {
                return locked;
            }
            try (SqlTemplate.Bound b = lock.prepare(c).setLongs("ids", ids.toArray(Long[]::new));
                    ResultSet rs = b.executeQuery()) {
                while (rs.next()) {
                    locked.add(rs.getLong(1));
                }
            }
            return locked;
        }
    }

    /**
     * The delete of {@link Dialect#unheldDelete} in two statements: lock the row, passing over it
     * when another transaction holds it ({@code FOR UPDATE SKIP LOCKED} locks no more than the one
     * row, found by a unique key), then delete it by id. In auto-commit both run in one transaction,
     * so the lock lasts until the delete.
     */
    static final class UnheldRow implements Dialect.UnheldDelete {
        private final Dialect dialect;
        private final SqlTemplate lock;
        private final SqlTemplate delete;

        UnheldRow(Dialect d, String q, String where) {
            dialect = d;
            lock = new SqlTemplate("SELECT id FROM " + q + " WHERE " + where + " FOR UPDATE SKIP LOCKED");
            delete = new SqlTemplate("DELETE FROM " + q + " WHERE id = :picked");
        }

        @Override
        public int delete(Connection c, Dialect.Binding parameters) throws SQLException {
            return dialect.withClaimIsolation(c, () -> {
                long picked;
                try (SqlTemplate.Bound b = lock.prepare(c)) {
                    parameters.bind(b);
                    try (ResultSet rs = b.executeQuery()) {
                        if (!rs.next()) {
                            return 0;
                        }
                        picked = rs.getLong(1);
                    }
                }
                try (SqlTemplate.Bound b = delete.prepare(c).setLong("picked", picked)) {
                    return b.executeUpdate();
                }
            });
        }
    }

    /**
     * A requeue in three statements in the caller's transaction instead of one: pick and lock,
     * copy into the queue, delete. The one-statement form, {@code INSERT … SELECT … FROM OLD TABLE
     * (DELETE …)}, is not atomic in H2 2.3: when an inserted row's dedup key collides with another
     * transaction's uncommitted enqueue, it reports 0 rows and no error, and the deleted dead
     * letters are gone. Here the plain INSERT waits for that transaction and fails with a unique
     * violation if it commits, and the transaction, not the statement, keeps the batch whole.
     * Concurrent requeues wait for each other's locks (H2 cannot skip them here).
     */
    static final class Requeue implements Dialect.Requeue {
        private final SqlTemplate pick;
        private final SqlTemplate copy;
        private final SqlTemplate delete;

        /** {@code and}: a further condition on the dead letters (aliased {@code d}), bound by the mover's caller. */
        Requeue(Dialect d, String q, String dlq, String and) {
            String requeueable = d.requeueable(q, dlq);
            pick = new SqlTemplate("SELECT d._ROWID_ FROM " + dlq + " AS d WHERE " + requeueable + and + " ORDER BY "
                    + Dialect.OLDEST_FAILURE_FIRST + " FETCH FIRST :n ROWS ONLY FOR UPDATE");
            copy = new SqlTemplate("INSERT INTO " + q + " (" + Dialect.REQUEUE_COLUMNS + ") SELECT " + d.requeuedValues("")
                    + " FROM " + dlq + " WHERE " + PICKED_ROWS + " ORDER BY failed_at, id");
            delete = new SqlTemplate(d.oldestRows(Dml.Change.delete(dlq), "d", requeueable, Dialect.OLDEST_FAILURE_FIRST)
                    .statement());
        }

        @Override
        public int move(Connection c, int n, Dialect.Binding parameters) throws SQLException {
            List<Long> picked = new ArrayList<>(n);
            try (SqlTemplate.Bound b = pick.withLiteral("n", n).prepare(c)) {
                parameters.bind(b);
                try (ResultSet rs = b.executeQuery()) {
                    while (rs.next()) {
                        picked.add(rs.getLong(1));
                    }
                }
            }
            if (picked.isEmpty()) {
                return 0;
            }
            Long[] rows = picked.toArray(Long[]::new);
            int copied;
            try (SqlTemplate.Bound b = copy.prepare(c)) {
                copied = b.setLongs("rows", rows).executeUpdate();
            }
            int deleted;
            try (SqlTemplate.Bound b = delete.prepare(c)) {
                deleted = b.setLongs("rows", rows).executeUpdate();
            }
            if (copied != rows.length || deleted != rows.length) {
                // Cannot happen while the rows are locked; if it does, the caller's rollback undoes the batch.
                throw new SQLException("requeue picked " + rows.length + " dead letters but copied " + copied
                        + " and deleted " + deleted);
            }
            return copied;
        }
    }
}
