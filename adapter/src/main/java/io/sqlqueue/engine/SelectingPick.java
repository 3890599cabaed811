package io.sqlqueue.engine;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Predicate;

/**
 * The pick of a claim, lease or hold that takes only the ready rows a test in Java selects (a
 * consumer's message selector): it reads the ready rows in the dequeue order, page after page,
 * without locking them, keeps the first ones the test selects, and the statement then takes those
 * by id, skipping any that another consumer has taken meanwhile. Rows not selected are not
 * locked, changed or counted: other consumers take them as if this one did not exist.
 *
 * <p><b>Cost.</b> Reading is the price of deciding in Java: a take behind N ready rows that are
 * not selected reads those N rows (their headers too) before it finds its own, every time; pages
 * double from the take's size up to {@value #MAX_PAGE} rows, so it is a few round trips, not N.
 * Nothing bounds N: a row the test selects is found however deep it waits.
 *
 * <p>Where the database cannot skip locked rows in the statement that takes them (H2), a
 * {@link Lock} takes them first, as {@link H2Picking.NextRows} does, and the statement takes the
 * ids locked, bound as the array {@code :ids}; elsewhere the statement's own skip-locked read
 * takes them, given as the list {@code :picked} ({@link Dialect#pickedIds}). Thread-safe.
 */
final class SelectingPick implements Dialect.Pick {

    /** The most rows one page of candidates reads. */
    static final int MAX_PAGE = 1000;
    /** The columns a candidate is read with, in {@link Candidate}'s order. */
    static final String COLUMNS = "id, priority, headers, enqueued_at, attempts, ordering_key";

    /** A ready row as the test sees it; {@code enqueuedAt} null when Java cannot represent it. */
    record Candidate(long id, int priority, String headers, Instant enqueuedAt, int attempts, String orderingKey) {
    }

    /** Locks the rows of {@code ids} that no other transaction holds and that are still ready, and returns them. */
    @FunctionalInterface
    interface Lock {
        List<Long> lock(Connection c, List<Long> ids) throws SQLException;
    }

    private final Dialect dialect;
    private final SqlTemplate first;
    private final SqlTemplate after;
    private final Predicate<Candidate> selection;
    private final Lock lock;
    private final ConcurrentMap<Integer, SqlTemplate> firstPages = new ConcurrentHashMap<>();
    private final ConcurrentMap<Integer, SqlTemplate> afterPages = new ConcurrentHashMap<>();
    /** The statements a pick prepared, with :picked made a list of their size (few sizes are used). */
    private final ConcurrentMap<SqlTemplate, SqlTemplate> listed = new ConcurrentHashMap<>();

    /**
     * @param and       the conditions the rows must meet besides being ready, as in {@link Dialect#nextReady}
     * @param selection which candidates to take
     * @param lock      null where the statement locks what it takes
     */
    SelectingPick(Dialect d, String q, String and, Predicate<Candidate> selection, Lock lock) {
        this.dialect = d;
        this.first = new SqlTemplate(d.firstRows(COLUMNS, q + " AS m", d.ready() + and, Dialect.DEQUEUE_ORDER));
        this.after = new SqlTemplate(d.firstRows(COLUMNS, q + " AS m", d.ready() + and + Dialect.AND_AFTER,
                Dialect.DEQUEUE_ORDER));
        this.selection = selection;
        this.lock = lock;
    }

    @Override
    public SqlTemplate.Bound prepare(Connection c, SqlTemplate take, int n, Dialect.Place from) throws SQLException {
        List<Long> picked = pick(c, n, from);
        SqlTemplate.Bound b;
        if (lock != null) {
            b = take.prepare(c).setLongs("ids", picked.toArray(Long[]::new));
        } else {
            b = listed.computeIfAbsent(take, t -> t.withList("picked", n)).prepare(c).setLongList("picked", picked, n);
        }
        return from == null ? b : Dialect.bindAfter(b, from);
    }

    /** The ids of the first {@code n} ready rows after {@code from} (null: from the start) the selection takes. */
    private List<Long> pick(Connection c, int n, Dialect.Place from) throws SQLException {
        List<Long> ours = new ArrayList<>(n);
        Dialect.Place place = from;
        for (int page = Math.min(n, MAX_PAGE); ours.size() < n; page = Math.min(page * 2, MAX_PAGE)) {
            List<Candidate> read = read(c, page, place);
            List<Long> selected = new ArrayList<>();
            for (Candidate candidate : read) {
                if (selection.test(candidate)) {
                    selected.add(candidate.id());
                }
            }
            take(c, selected, ours, n);
            if (read.size() < page) {
                break; // no more ready rows
            }
            Candidate last = read.get(read.size() - 1);
            place = new Dialect.Place(last.priority(), last.id());
        }
        return ours;
    }

    /** Adds to {@code ours} the first of {@code selected} up to {@code n} in all, locked first where there is a lock. */
    private void take(Connection c, List<Long> selected, List<Long> ours, int n) throws SQLException {
        for (int at = 0; at < selected.size() && ours.size() < n; ) {
            int want = n - ours.size();
            List<Long> next = selected.subList(at, Math.min(selected.size(), at + want));
            ours.addAll(lock == null ? next : lock.lock(c, next));
            at += next.size();
        }
    }

    private List<Candidate> read(Connection c, int page, Dialect.Place place) throws SQLException {
        SqlTemplate query = place == null ? firstPages.computeIfAbsent(page, p -> first.withLiteral("n", p))
                : afterPages.computeIfAbsent(page, p -> after.withLiteral("n", p));
        List<Candidate> read = new ArrayList<>(page);
        try (SqlTemplate.Bound b = place == null ? query.prepare(c) : Dialect.bindAfter(query.prepare(c), place);
                ResultSet rs = b.executeQuery()) {
            while (rs.next()) {
                read.add(new Candidate(rs.getLong(1), rs.getInt(2), rs.getString(3), instant(rs, 4), rs.getInt(5),
                        rs.getString(6)));
            }
        }
        return read;
    }

    /** A timestamp Java cannot represent reads as null: the take's decoding dead-letters such a row. */
    private Instant instant(ResultSet rs, int column) throws SQLException {
        try {
            return dialect.readInstant(rs, column);
        } catch (SQLException | RuntimeException e) {
            if (rs.getStatement().getConnection().isClosed()) {
                throw e;
            }
            return null;
        }
    }
}
