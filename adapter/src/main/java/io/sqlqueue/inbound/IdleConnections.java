package io.sqlqueue.inbound;

import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import java.util.logging.Level;

/**
 * Idle physical connections of the adapter's own data source ({@code jdbcUrl} mode; see
 * {@link ConnectionPool}), so that a poll, a delivery run, an acknowledgement, a failure record or
 * a management read takes one that is open already rather than opening a database session each
 * time (on PostgreSQL a session is a server process, forked and authenticated). A server's JDBC
 * resource ({@code dataSourceJndiName}) is pooled by the server instead.
 *
 * <p>Borrowed last-returned first, so quiet activations keep using a few connections and the rest
 * age out: a connection idle for {@link #IDLE_TIMEOUT} is closed at the next borrow or return, or
 * by {@link #closeExpired()}. Connections are not validated when borrowed (that would double an
 * idle poller's statements); one given back unusable ({@link io.sqlqueue.engine.ConnectionHealth})
 * is closed, and every idle one is validated before it is lent again, since they were most likely
 * idle through the same outage. Thread-safe.
 *
 * @param <C> the pooled thing: a {@link java.sql.Connection}, or an XA connection with its handle
 */
final class IdleConnections<C> {

    static final Duration IDLE_TIMEOUT = Duration.ofSeconds(60);

    /** Opens a physical connection. */
    @FunctionalInterface
    interface Opener<C> {
        C open() throws SQLException;
    }

    /** An idle connection: since when, and whether it is to be validated before its next loan. */
    private record Idle<C>(C connection, long since, boolean suspect) {
    }

    private final Opener<C> opener;
    private final Predicate<C> answers;
    private final Consumer<C> closer;
    private int capacity;
    /** System.nanoTime, or a test's clock. */
    private final LongSupplier nanoClock;
    /** Most recently returned first. */
    private final Deque<Idle<C>> idle = new ArrayDeque<>();
    private boolean closed;

    /**
     * @param capacity how many idle connections are kept at most; one returned beyond it is closed
     * @param answers whether a connection answers ({@link io.sqlqueue.engine.ConnectionHealth#answers})
     * @param closer closes a physical connection, never throwing
     */
    IdleConnections(int capacity, Opener<C> opener, Predicate<C> answers, Consumer<C> closer) {
        this(capacity, System::nanoTime, opener, answers, closer);
    }

    IdleConnections(int capacity, LongSupplier nanoClock, Opener<C> opener, Predicate<C> answers, Consumer<C> closer) {
        this.capacity = capacity;
        this.nanoClock = nanoClock;
        this.opener = opener;
        this.answers = answers;
        this.closer = closer;
    }

    /** An idle connection, or a new one when none is idle (or none that was suspect answers). */
    C borrow() throws SQLException {
        while (true) {
            Idle<C> top;
            Deque<Idle<C>> toClose = new ArrayDeque<>();
            synchronized (this) {
                takeExpired(toClose);
                top = idle.pollFirst();
            }
            toClose.forEach(i -> closer.accept(i.connection()));
            if (top == null) {
                return opener.open();
            }
            if (!top.suspect() || answers.test(top.connection())) {
                return top.connection();
            }
            closer.accept(top.connection());
        }
    }

    /**
     * Takes back a borrowed connection: kept while it is {@code usable} and there is room, closed
     * otherwise. After an unusable one, every idle connection is validated before its next loan.
     */
    void giveBack(C connection, boolean usable) {
        Deque<Idle<C>> toClose = new ArrayDeque<>();
        synchronized (this) {
            if (usable && !closed && idle.size() < capacity) {
                idle.addFirst(new Idle<>(connection, nanoClock.getAsLong(), false));
                connection = null;
            } else if (!usable) {
                for (int n = idle.size(); n > 0; n--) { // in order, each marked
                    Idle<C> i = idle.pollFirst();
                    idle.addLast(new Idle<>(i.connection(), i.since(), true));
                }
            }
            takeExpired(toClose);
        }
        if (connection != null) {
            closer.accept(connection);
        }
        toClose.forEach(i -> closer.accept(i.connection()));
    }

    /** Closes the connections idle longer than the timeout (an idle activation's poller calls it). */
    void closeExpired() {
        Deque<Idle<C>> toClose = new ArrayDeque<>();
        synchronized (this) {
            takeExpired(toClose);
        }
        toClose.forEach(i -> closer.accept(i.connection()));
    }

    /** Closes the idle connections; connections given back later are closed then. */
    void close() {
        Deque<Idle<C>> toClose;
        synchronized (this) {
            closed = true;
            toClose = new ArrayDeque<>(idle);
            idle.clear();
        }
        toClose.forEach(i -> closer.accept(i.connection()));
    }

    /** Keeps {@code delta} more idle connections at most (fewer when negative); closes what no longer fits. */
    void resize(int delta) {
        Deque<Idle<C>> toClose = new ArrayDeque<>();
        synchronized (this) {
            capacity = Math.max(0, capacity + delta);
            while (idle.size() > capacity) {
                toClose.add(idle.pollLast());
            }
        }
        toClose.forEach(i -> closer.accept(i.connection()));
    }

    /** How many connections are idle now (for tests). */
    synchronized int idleCount() {
        return idle.size();
    }

    /** Moves those idle too long into {@code toClose}, to be closed outside the lock. */
    private void takeExpired(Deque<Idle<C>> toClose) {
        long now = nanoClock.getAsLong();
        for (Iterator<Idle<C>> oldestFirst = idle.descendingIterator(); oldestFirst.hasNext(); ) {
            Idle<C> i = oldestFirst.next();
            if (now - i.since() < IDLE_TIMEOUT.toNanos()) {
                break;
            }
            oldestFirst.remove();
            toClose.add(i);
        }
    }

    /** A {@link #closer} for anything {@link AutoCloseable}: a failure to close is logged, not thrown. */
    static <C extends AutoCloseable> Consumer<C> quietly(String what) {
        return c -> {
            try {
                c.close();
            } catch (Exception e) {
                QueueActivation.log(Level.FINE, "closing " + what + " failed (it was broken already)", e);
            }
        };
    }
}
