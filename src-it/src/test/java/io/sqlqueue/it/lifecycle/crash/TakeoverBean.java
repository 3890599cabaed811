package io.sqlqueue.it.lifecycle.crash;

import io.sqlqueue.api.QueueListener;
import io.sqlqueue.api.QueueMessage;
import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;
import javax.sql.DataSource;

/**
 * For {@link io.sqlqueue.it.lifecycle.ServerCrashIT}'s takeover: the bean of two servers consuming
 * one queue. It records each message in {@link #PROCESSED} (id, attempt, this JVM as a lease names
 * its holder, the database's clock) inside the delivery transaction, after {@link #WORK} of work,
 * so that a backlog stays. One delivery thread leasing {@link CrashDatabase#LEASE_AHEAD} messages
 * at a time, for {@link #LEASE_TIME_MILLIS}.
 *
 * <p>In the server whose environment names a file in {@code SQLQUEUE_TAKEOVER_STALL_FILE}, once it
 * has processed {@link #STALL_AFTER} messages, the first delivery that finds messages leased ahead
 * by this JVM (in the queue table {@code SQLQUEUE_TAKEOVER_QUEUE_TABLE}) stops in the bean: it
 * writes this JVM's holder name, the message in delivery and those leased ahead to that file and
 * waits for the test to kill the server. So the kill lands in a delivery with messages leased
 * ahead, never between a lease and its commit, whatever the timing.
 */
@MessageDriven(activationConfig = {
    @ActivationConfigProperty(propertyName = "queue", propertyValue = CrashDatabase.QUEUE),
    @ActivationConfigProperty(propertyName = "dataSourceJndiName", propertyValue = CrashDatabase.JNDI_NAME),
    @ActivationConfigProperty(propertyName = "maxConcurrency", propertyValue = "1"),
    @ActivationConfigProperty(propertyName = "maxAttempts", propertyValue = "3"),
    @ActivationConfigProperty(propertyName = "leaseTime", propertyValue = "" + TakeoverBean.LEASE_TIME_MILLIS),
    @ActivationConfigProperty(propertyName = "leaseAhead", propertyValue = "" + CrashDatabase.LEASE_AHEAD),
    @ActivationConfigProperty(propertyName = "pollInterval", propertyValue = "50"),
    @ActivationConfigProperty(propertyName = "maxPollInterval", propertyValue = "500")
})
public class TakeoverBean implements QueueListener {

    /** Long enough that the test reads the dead server's leases well before they run out; short for a quick test. */
    public static final long LEASE_TIME_MILLIS = 10_000;
    /**
     * Messages the stalling server processes before it stalls: it took part in the consumption, and
     * (its first lease of a backlog taking 8) it stalls with 6 leased ahead.
     */
    public static final int STALL_AFTER = 1;
    /** The table of processed messages: message_id, attempt, server (the lease holder's name), processed_at. */
    public static final String PROCESSED = "takeover_processed";
    private static final Duration WORK = Duration.ofMillis(20);
    /** A stalled delivery gives up after this long: the test has failed by then. */
    private static final Duration STALL_LIMIT = Duration.ofMinutes(5);
    /** This JVM as a lease names its holder ({@code leased_by}): pid@host. */
    private static final String HOLDER = ManagementFactory.getRuntimeMXBean().getName();
    private static final AtomicInteger PROCESSED_HERE = new AtomicInteger();

    @Resource(lookup = CrashDatabase.JNDI_NAME)
    private DataSource dataSource;

    @Override
    public void onMessage(QueueMessage message) {
        LockSupport.parkNanos(WORK.toNanos());
        String stallFile = System.getenv("SQLQUEUE_TAKEOVER_STALL_FILE");
        try (Connection c = dataSource.getConnection()) {
            if (stallFile != null && PROCESSED_HERE.get() >= STALL_AFTER) {
                List<Long> ahead = leasedAhead(c, message.id());
                if (!ahead.isEmpty()) {
                    stall(Path.of(stallFile), message.id(), ahead);
                }
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + PROCESSED
                    + " (message_id, attempt, server, processed_at) VALUES (?, ?, ?, CURRENT_TIMESTAMP)")) {
                ps.setLong(1, message.id());
                ps.setInt(2, message.attempt());
                ps.setString(3, HOLDER);
                ps.executeUpdate();
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot record message " + message.id() + ": " + e.getMessage(), e);
        }
        PROCESSED_HERE.incrementAndGet();
    }

    /** The other messages this JVM holds under a lease that has not run out, as committed. */
    private static List<Long> leasedAhead(Connection c, long inDelivery) throws SQLException {
        List<Long> ids = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT id FROM " + System.getenv("SQLQUEUE_TAKEOVER_QUEUE_TABLE")
                + " WHERE leased_by = ? AND id <> ? AND visible_at > CURRENT_TIMESTAMP ORDER BY id")) {
            ps.setString(1, HOLDER);
            ps.setLong(2, inDelivery);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    ids.add(rs.getLong(1));
                }
            }
        }
        return ids;
    }

    /** Writes {@code <holder> <in delivery> <ahead…>} (whole: written aside, then moved) and waits to be killed. */
    private static void stall(Path file, long inDelivery, List<Long> ahead) {
        String line = HOLDER + " " + inDelivery + " " + ahead.stream().map(String::valueOf).collect(Collectors.joining(" "));
        try {
            Path written = Files.writeString(file.resolveSibling(file.getFileName() + ".part"), line, StandardCharsets.UTF_8);
            Files.move(written, file, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new IllegalStateException("cannot write " + file + ": " + e.getMessage(), e);
        }
        long until = System.nanoTime() + STALL_LIMIT.toNanos();
        while (System.nanoTime() - until < 0) {
            LockSupport.parkNanos(until - System.nanoTime());
        }
        throw new IllegalStateException("not killed within " + STALL_LIMIT + " of stalling in message " + inDelivery);
    }
}
