package io.sqlqueue.batch;

import io.sqlqueue.api.QueueMessage;
import io.sqlqueue.engine.Dialect;
import io.sqlqueue.engine.HeldMessage;
import io.sqlqueue.engine.QueueTable;
import io.sqlqueue.engine.RetryPolicy;
import jakarta.batch.api.BatchProperty;
import jakarta.batch.api.chunk.AbstractItemReader;
import jakarta.batch.runtime.BatchStatus;
import jakarta.batch.runtime.context.JobContext;
import jakarta.inject.Inject;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.io.Serializable;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;
import javax.naming.InitialContext;
import javax.sql.DataSource;

/**
 * A Jakarta Batch {@code ItemReader} that reads a queue table, exactly once per committed chunk.
 * Use it from job XML by class name, {@code <reader ref="io.sqlqueue.batch.QueueItemReader">},
 * with the batch properties below; each item is a {@link QueueMessage}.
 *
 * <p><b>Transactions.</b> Everything happens in the chunk's own transaction, on connections of the
 * JDBC resource {@code dataSource} (a transactional resource, so they join it). The reader locks
 * up to {@code claimSize} ready messages at a time in the chunk's transaction (other consumers
 * skip them; the rows stay as they are), hands them out one by one, and at the chunk's checkpoint,
 * just before the commit, deletes those it handed out. The commit frees the others as they were.
 * A committed chunk has consumed exactly its items and holds nothing else; a chunk that rolls
 * back, or a server that dies in one, leaves the queue as it was: its messages are read again and
 * no attempt is counted (the batch runtime's retry and skip limits decide what happens to an item
 * that keeps failing). So a restart needs no checkpoint data: consumed rows are gone, the others
 * are still in the queue. For the fewest statements, make {@code claimSize} the chunk's
 * {@code item-count} or a divisor of it. Within a chunk the reader goes on in the dequeue order
 * after the last message it read (a transaction does not skip its own locks); a message that
 * becomes ready ahead of that place meanwhile (a higher priority, one another consumer gave back)
 * is read when none is left after it. Messages hidden until their time (delayed, backing off,
 * leased: {@link QueueTable#revealDue}) the reader reveals when it finds nothing to read and once
 * a second, in the chunk's transaction: until it commits, other consumers skip them.
 *
 * <p><b>End of the step.</b> When the queue has no ready message, the reader waits, polling, up to
 * {@code idleTimeout} milliseconds (0, the default: the step ends at the first empty read; -1:
 * until the job is stopped). The wait is inside the chunk's transaction: keep it shorter than the
 * transaction timeout ({@code jakarta.transaction.global.timeout}, 180 s by default).
 *
 * <p>Batch properties: {@code queue} (required), {@code dataSource} (required: the JNDI name of the
 * JDBC resource holding the queue), {@code claimSize} (1–1000, default 10), {@code idleTimeout}
 * (ms, -1 or more, default 0), {@code maxAttempts} (1–1000, default 5: as the queue's consumers
 * do, a message whose deliveries never completed that often is dead-lettered instead of read),
 * {@code createQueue} (default true: create the tables when missing). A bad value fails the step
 * when the reader opens, naming the property. Not thread-safe: the runtime gives each partition
 * its own reader.
 */
public class QueueItemReader extends AbstractItemReader {

    private static final Duration LONGEST_POLL = Duration.ofSeconds(1);

    @Inject
    @BatchProperty
    String queue;
    @Inject
    @BatchProperty
    String dataSource;
    @Inject
    @BatchProperty
    String claimSize;
    @Inject
    @BatchProperty
    String idleTimeout;
    @Inject
    @BatchProperty
    String maxAttempts;
    @Inject
    @BatchProperty
    String createQueue;
    @Inject
    JobContext jobContext;

    private DataSource resource;
    private TransactionSynchronizationRegistry transactions;
    private QueueTable table;
    private int claim;
    private long idleMillis;
    /** Held by the current chunk's transaction, not yet handed out. */
    private final Deque<HeldMessage> buffer = new ArrayDeque<>();
    /** Handed out in the current chunk: deleted at its checkpoint. */
    private final List<HeldMessage> handedOut = new ArrayList<>();
    /** The last message held in the current chunk: the next hold in it goes on after it. */
    private HeldMessage lastHeld;
    /** The transaction the two lists belong to. */
    private Object chunk;
    /** When this reader last revealed due hidden messages: it does when it finds none to read, and once a second. */
    private long lastReveal = System.nanoTime();

    @Override
    public void open(Serializable checkpoint) throws Exception {
        BatchProperties p = new BatchProperties("QueueItemReader");
        String name = p.required("queue", queue);
        claim = (int) p.number("claimSize", claimSize, 10, 1, QueueTable.MAX_CLAIM);
        idleMillis = p.number("idleTimeout", idleTimeout, 0, -1, Long.MAX_VALUE / 1_000_000);
        int attempts = (int) p.number("maxAttempts", maxAttempts, RetryPolicy.DEFAULT.maxAttempts(), 1, 1000);
        boolean create = p.flag("createQueue", createQueue, true);
        resource = p.lookup("dataSource", p.required("dataSource", dataSource), DataSource.class);
        transactions = InitialContext.doLookup("java:comp/TransactionSynchronizationRegistry");
        try (Connection c = resource.getConnection()) {
            table = new QueueTable(Dialect.of(c), name, null, new RetryPolicy(attempts,
                    RetryPolicy.DEFAULT.backoff(), RetryPolicy.DEFAULT.maxBackoff()));
            if (!create) {
                table.checkExisting(c); // tables a DBA made: refused here if the database cannot use them
            }
        } catch (IllegalArgumentException e) {
            throw p.invalid("queue", name, e.getMessage());
        }
        if (create) {
            TableCreation.createIfMissing(resource, table);
        }
    }

    @Override
    public Object readItem() throws Exception {
        Object current = transactions.getTransactionKey();
        if (!Objects.equals(current, chunk)) {
            // A new chunk: whatever the lists hold belonged to one that rolled back, and went with it.
            buffer.clear();
            handedOut.clear();
            lastHeld = null;
            chunk = current;
        }
        if (current == null) {
            throw new IllegalStateException("QueueItemReader: readItem runs outside a transaction; a chunk step"
                    + " always has one, so the reader cannot be used here");
        }
        if (buffer.isEmpty() && !fill()) {
            return null;
        }
        HeldMessage m = buffer.poll();
        handedOut.add(m);
        return m.message();
    }

    /** Holds the next messages, waiting up to idleTimeout for some; false when the step should end. */
    private boolean fill() throws SQLException {
        long deadline = System.nanoTime() + Math.max(0, idleMillis) * 1_000_000;
        Duration pause = Duration.ofMillis(20);
        while (true) {
            try (Connection c = resource.getConnection()) {
                boolean revealedFirst = System.nanoTime() - lastReveal >= QueueTable.HIDDEN_FROM.toNanos();
                if (revealedFirst) {
                    revealDue(c);
                }
                buffer.addAll(holdNext(c));
                // Nothing to read: reveal, unless that just ran (the hold has seen what it revealed).
                if (buffer.isEmpty() && !revealedFirst && revealDue(c) > 0) {
                    buffer.addAll(holdNext(c));
                }
            }
            if (!buffer.isEmpty()) {
                for (HeldMessage m : buffer) {
                    lastHeld = lastHeld == null || isAfter(m, lastHeld) ? m : lastHeld;
                }
                return true;
            }
            if (idleMillis == 0 || (idleMillis > 0 && System.nanoTime() - deadline >= 0) || stopping()) {
                return false;
            }
            LockSupport.parkNanos(pause.toNanos());
            pause = pause.multipliedBy(2).compareTo(LONGEST_POLL) > 0 ? LONGEST_POLL : pause.multipliedBy(2);
        }
    }

    private List<HeldMessage> holdNext(Connection c) throws SQLException {
        List<HeldMessage> held = table.hold(c, claim, lastHeld);
        return held.isEmpty() && lastHeld != null ? aheadOfLastHeld(c) : held;
    }

    /**
     * Reveals hidden messages whose time has come (delayed, backing off, leased by a consumer that
     * never finished: {@link QueueTable#revealDue}), in the chunk's transaction: until it commits,
     * other consumers skip them, and this chunk may read them.
     */
    private int revealDue(Connection c) throws SQLException {
        lastReveal = System.nanoTime();
        return table.revealDue(c);
    }

    /**
     * Messages that became ready ahead of the last one held in this chunk (a higher priority, one
     * another consumer gave back), once none is left after it: a hold from the start, without the
     * messages this chunk holds already (its own locks do not hide them from it).
     */
    private List<HeldMessage> aheadOfLastHeld(Connection c) throws SQLException {
        Set<Long> own = new HashSet<>();
        handedOut.forEach(m -> own.add(m.message().id()));
        List<HeldMessage> ahead = new ArrayList<>();
        for (HeldMessage m : table.hold(c, Math.min(QueueTable.MAX_CLAIM, claim + own.size()), null)) {
            if (!own.contains(m.message().id())) {
                ahead.add(m);
            }
        }
        return ahead;
    }

    /** Whether {@code m} comes after {@code other} in the dequeue order (priority DESC, id). */
    private static boolean isAfter(HeldMessage m, HeldMessage other) {
        return m.priority() < other.priority() || (m.priority() == other.priority() && m.message().id() > other.message().id());
    }

    private boolean stopping() {
        BatchStatus status = jobContext == null ? null : jobContext.getBatchStatus();
        return status == BatchStatus.STOPPING || status == BatchStatus.STOPPED;
    }

    /**
     * The chunk's last step before its commit: deletes the messages handed out in it, in its
     * transaction. Those held and not handed out are freed by the commit.
     */
    @Override
    public Serializable checkpointInfo() throws Exception {
        if (!handedOut.isEmpty()) {
            int deleted;
            try (Connection c = resource.getConnection()) {
                deleted = table.deleteHeld(c, handedOut);
            }
            if (deleted != handedOut.size()) {
                // The rows are locked by this transaction since it read them: nothing else can have deleted them.
                throw new IllegalStateException("QueueItemReader: " + (handedOut.size() - deleted) + " of the "
                        + handedOut.size() + " messages read in this chunk from " + table.name() + " were gone at"
                        + " its checkpoint; the chunk rolls back");
            }
        }
        handedOut.clear();
        buffer.clear();
        lastHeld = null;
        return null;
    }
}
