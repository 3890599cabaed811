package io.sqlqueue.inbound;

import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.logging.Level;

/**
 * Idle physical connections of the adapter's own data source ({@code jdbcUrl} mode; see
 * {@link OwnConnections}), so that a poll, a delivery run, an acknowledgement, a failure record or
 * a management read takes one that is open already rather than opening a database session each
 * time (on PostgreSQL a session is a server process, forked and authenticated). A server's JDBC
 * resource ({@code dataSourceJndiName}) is pooled by the server instead.
 *
 * <p>Borrowed last-returned first, so quiet activations keep using a few connections and the rest
 * age out: a connection idle for {@link #IDLE_TIMEOUT} is closed at the next borrow or return, or
 * by {@link #closeExpired()}. Connections are not validated when borrowed (that would double an
 * idle poller's statements); instead one that failed is closed when it comes back, and every idle
 * one with it, since they were most likely idle through the same outage. Thread-safe.
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

    private record Idle<C>(C connection, long since) {
    }

    private final Opener<C> opener;
    private final Consumer<C> closer;
    private int capacity;
    /** System.nanoTime, or a test's clock. */
    private final LongSupplier nanoClock;
    /** Most recently returned first. */
    private final Deque<Idle<C>> idle = new ArrayDeque<>();
    private boolean closed;

    /**
     * @param capacity how many idle connections are kept at most; one returned beyond it is closed
     * @param closer closes a physical connection, never throwing
     */
    IdleConnections(int capacity, Opener<C> opener, Consumer<C> closer) {
        this(capacity, System::nanoTime, opener, closer);
    }

    IdleConnections(int capacity, LongSupplier nanoClock, Opener<C> opener, Consumer<C> closer) {
        this.capacity = capacity;
        this.nanoClock = nanoClock;
        this.opener = opener;
        this.closer = closer;
    }

    /** An idle connection, or a new one when none is idle. */
    C borrow() throws SQLException {
        C reused = null;
        Deque<Idle<C>> toClose = new ArrayDeque<>();
        synchronized (this) {
            takeExpired(toClose);
            Idle<C> top = idle.pollFirst();
            if (top != null) {
                reused = top.connection();
            }
        }
        toClose.forEach(i -> closer.accept(i.connection()));
        return reused != null ? reused : opener.open();
    }

    /**
     * Takes back a borrowed connection: kept while it is {@code healthy} and there is room, closed
     * otherwise. An unhealthy one also closes every idle connection.
     */
    void giveBack(C connection, boolean healthy) {
        Deque<Idle<C>> toClose = new ArrayDeque<>();
        synchronized (this) {
            if (healthy && !closed && idle.size() < capacity) {
                idle.addFirst(new Idle<>(connection, nanoClock.getAsLong()));
                connection = null;
            } else if (!healthy) {
                toClose.addAll(idle);
                idle.clear();
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
