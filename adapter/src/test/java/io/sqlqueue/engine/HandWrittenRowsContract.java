package io.sqlqueue.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sqlqueue.api.QueueMessage;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Rows written into a queue table by hand or by another program, of every shape the schema
 * allows: after claims, leases and failures each row is exactly once delivered, dead-lettered with
 * a reason, or still queued, counted in SQL. Each subclass names a database.
 */
abstract class HandWrittenRowsContract {

    protected abstract TestDatabase database();

    /** The largest body this database's table takes (H2: 1 MiB). */
    protected int largestBody() {
        return 4 * 1024 * 1024;
    }

    /** Statements that take the clock defaults off the queue table {@code q}, as a release before them made it. */
    protected abstract List<String> dropClockDefaults(String q);

    private Connection connection;
    private QueueTable queue;
    private String q;
    private String dlq;

    /** Headers as written by hand: the value, and whether the adapter can read it. */
    private static final Map<String, Boolean> HEADERS = new HashMap<>();

    static {
        HEADERS.put("{}", true);
        HEADERS.put("", true);
        HEADERS.put("  ", true);
        HEADERS.put("{\"a\":\"b\"}", true);
        HEADERS.put(" { \"a\" : \"b\" , \"c\" : \"\\u00e9\\n\" } ", true);
        HEADERS.put("{\"a\":\"1\",\"a\":\"2\"}", true); // a repeated key: the last wins
        HEADERS.put("not json", false);
        HEADERS.put("{\"a\":1}", false);
        HEADERS.put("[\"x\"]", false);
        HEADERS.put("{\"k\":null}", false);
        HEADERS.put("{\"a\":{\"b\":\"c\"}}", false);
        HEADERS.put("{\"a\":\"b\"", false);
        HEADERS.put("{\"a\":\"b\"} trailing", false);
        HEADERS.put("{\"a\":\"\\q\"}", false);
        HEADERS.put("{\"a\":\"\\u12\"}", false);
        HEADERS.put("\"just a string\"", false);
    }

    @BeforeEach
    void createQueue() throws SQLException {
        assumeTrue(database().available(), database().missingReason());
        connection = database().connect();
        String name = "hand_" + Long.toHexString(System.nanoTime());
        queue = new QueueTable(Dialect.of(connection), name, null, new RetryPolicy(3, Duration.ZERO, Duration.ZERO));
        queue.createIfMissing(connection);
        q = queue.dialect().qualified(queue.name());
        dlq = queue.dialect().qualified(queue.deadLetterName());
    }

    @AfterEach
    void dropQueue() throws SQLException {
        if (connection == null) {
            return;
        }
        if (!connection.getAutoCommit()) {
            connection.rollback();
            connection.setAutoCommit(true);
        }
        try (Statement s = connection.createStatement()) {
            s.execute("DROP TABLE " + q);
            s.execute("DROP TABLE " + dlq);
        }
        connection.close();
    }

    /** Inserts a row by hand, naming only some columns, and returns its id. */
    private long insert(String columns, Object... values) throws SQLException {
        String marks = "?" + ", ?".repeat(values.length - 1);
        try (PreparedStatement ps = connection.prepareStatement("INSERT INTO " + q + " (" + columns + ") VALUES ("
                + marks + ")", new String[] {queue.dialect().generatedKeyColumn()})) {
            for (int i = 0; i < values.length; i++) {
                ps.setObject(i + 1, values[i]);
            }
            ps.executeUpdate();
            try (ResultSet keys = ps.getGeneratedKeys()) {
                if (keys.next()) {
                    return keys.getLong(1);
                }
            }
        }
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery("SELECT MAX(id) FROM " + q)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static byte[] body(String text) {
        return text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    private Set<Long> ids(String sql) throws SQLException {
        Set<Long> ids = new HashSet<>();
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                ids.add(rs.getLong(1));
            }
        }
        return ids;
    }

    @Test
    void aRowWithOnlyABodyIsDelivered() throws SQLException {
        Instant before = Instant.now().minusSeconds(5);
        long id = insert("body", (Object) body("by hand"));
        List<QueueMessage> claimed = queue.claim(connection, 10);
        assertEquals(1, claimed.size());
        QueueMessage m = claimed.get(0);
        assertEquals(id, m.id());
        assertEquals("by hand", m.text());
        assertEquals(1, m.attempt());
        assertTrue(m.headers().isEmpty());
        assertTrue(m.enqueuedAt().isAfter(before), "enqueued_at from the database clock: " + m.enqueuedAt());
    }

    @Test
    void aTableMadeWithoutClockDefaultsGainsThemWhenTheAdapterStarts() throws SQLException {
        List<String> drop = dropClockDefaults(q);
        assumeTrue(drop != null, "this database's subclass does not take the defaults off");
        try (Statement s = connection.createStatement()) {
            for (String sql : drop) {
                s.execute(sql);
            }
        }
        assertTrue(failsToInsertABodyAlone(), "the defaults were taken off");
        queue.createIfMissing(connection);
        queue.createIfMissing(connection); // and again: nothing left to do
        long id = insert("body", (Object) body("after the upgrade"));
        assertEquals(List.of(id), queue.claim(connection, 10).stream().map(QueueMessage::id).toList());
    }

    @Test
    void aQueueTableMadeByHandWithoutAColumnTheAdapterNeedsIsRefusedNamingItAndNothingIsCreated() throws SQLException {
        Dialect dialect = queue.dialect();
        QueueTable bare = new QueueTable(dialect, queue.name().table() + "_bare", null, RetryPolicy.DEFAULT);
        String table = dialect.qualified(bare.name());
        try (Statement s = connection.createStatement()) {
            s.execute("CREATE TABLE " + table + " (id BIGINT NOT NULL, body "
                    + dialect.typeOf(TableDefinition.Column.of("body", TableDefinition.Type.BYTES)) + " NOT NULL)");
        }
        try {
            SQLException e = assertThrows(SQLException.class, () -> bare.createIfMissing(connection));
            assertTrue(e.getMessage().startsWith("the queue table " + bare.name() + " has no column priority, which the"
                    + " adapter needs"), e.getMessage());
            assertFalse(TableCatalog.read(connection, dialect, bare.deadLetterName()).exists(),
                    "nothing created: its dead-letter table neither");
            assertFalse(TableCatalog.read(connection, dialect, bare.name()).hasColumn("expires_at"), "nor changed");
        } finally {
            try (Statement s = connection.createStatement()) {
                s.execute("DROP TABLE " + table);
            }
        }
    }

    private boolean failsToInsertABodyAlone() {
        try {
            insert("body", (Object) body("x"));
            return false;
        } catch (SQLException expected) {
            return true;
        }
    }

    /** Every row of {@link #HEADERS} and edge values of the other columns, by hand; returns the unreadable ids. */
    private Set<Long> writeEveryShape(Set<Long> all) throws SQLException {
        Set<Long> unreadable = new HashSet<>();
        for (Map.Entry<String, Boolean> h : HEADERS.entrySet()) {
            long id = insert("headers, body", h.getKey(), body("headers " + h.getKey()));
            all.add(id);
            if (!h.getValue()) {
                unreadable.add(id);
            }
        }
        all.add(insert("headers, body", null, body("null headers")));
        for (int attempts : new int[] {-5, Integer.MIN_VALUE, 0, 2, Integer.MAX_VALUE}) {
            all.add(insert("attempts, body", attempts, body("attempts " + attempts)));
        }
        for (int priority : new int[] {Short.MIN_VALUE, -1, Short.MAX_VALUE}) {
            all.add(insert("priority, body", priority, body("priority " + priority)));
        }
        all.add(insert("body", (Object) new byte[0]));
        all.add(insert("body", (Object) new byte[largestBody()]));
        all.add(insert("dedup_key, body", "k".repeat(200), body("longest dedup key")));
        all.add(insert("last_error, lease_token, body", "e".repeat(2000), Long.MIN_VALUE, body("an old lease")));
        all.add(insert("enqueued_at, body", queue.dialect().timestampParameter(Instant.parse("1900-01-01T00:00:00Z")),
                body("enqueued long ago")));
        all.add(insert("enqueued_at, body", queue.dialect().timestampParameter(Instant.parse("9999-12-31T00:00:00Z")),
                body("enqueued in the future")));
        return unreadable;
    }

    @Test
    void everyShapeOfRowIsClaimedOrDeadLetteredWithItsReasonExactlyOnce() throws SQLException {
        Set<Long> all = new HashSet<>();
        Set<Long> unreadable = writeEveryShape(all);
        List<Long> delivered = new ArrayList<>();
        List<UndeliverableMessage> reported = new ArrayList<>();
        connection.setAutoCommit(false);
        for (int round = 0; round < 100; round++) {
            List<QueueMessage> claimed = queue.claim(connection, 3, reported::add);
            connection.commit();
            claimed.forEach(m -> delivered.add(m.id()));
            if (ids("SELECT id FROM " + q).isEmpty()) {
                break;
            }
        }
        connection.setAutoCommit(true);
        assertExactlyOnce(all, new HashSet<>(delivered), delivered.size());
        assertEquals(unreadable, ids("SELECT id FROM " + dlq));
        assertEquals(unreadable, new HashSet<>(reported.stream().map(UndeliverableMessage::id).toList()));
        try (Statement s = connection.createStatement();
                ResultSet rs = s.executeQuery("SELECT last_error FROM " + dlq)) {
            while (rs.next()) {
                assertTrue(rs.getString(1).startsWith("undeliverable: the headers column is not a flat JSON object"
                        + " of strings"), rs.getString(1));
            }
        }
    }

    @Test
    void everyShapeOfRowIsLeasedOrDeadLetteredWithItsReasonExactlyOnce() throws SQLException {
        Set<Long> all = new HashSet<>();
        Set<Long> unreadable = writeEveryShape(all);
        long exhausted = insert("attempts, body", 3, body("no attempt left"));
        all.add(exhausted);
        List<Long> delivered = new ArrayList<>();
        for (int round = 0; round < 100; round++) {
            List<LeasedMessage> leased = queue.lease(connection, 3, Duration.ofMinutes(1));
            for (LeasedMessage m : leased) {
                assertTrue(m.message().attempt() >= 1, "an attempt counts from 1: " + m.message());
                assertTrue(queue.ack(connection, m));
                delivered.add(m.message().id());
            }
            if (ids("SELECT id FROM " + q).isEmpty()) {
                break;
            }
        }
        assertExactlyOnce(all, new HashSet<>(delivered), delivered.size());
        Set<Long> deadLettered = new HashSet<>(unreadable);
        deadLettered.add(exhausted);
        deadLettered.add(idOf("attempts " + Integer.MAX_VALUE));
        assertEquals(deadLettered, ids("SELECT id FROM " + dlq));
    }

    private long idOf(String text) throws SQLException {
        for (long id : ids("SELECT id FROM " + dlq)) {
            try (PreparedStatement ps = connection.prepareStatement("SELECT body FROM " + dlq + " WHERE id = ?")) {
                ps.setLong(1, id);
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next() && new String(rs.getBytes(1), java.nio.charset.StandardCharsets.UTF_8).equals(text)) {
                        return id;
                    }
                }
            }
        }
        throw new AssertionError("no dead letter with body '" + text + "'");
    }

    /** Each of {@code all} is exactly once delivered, dead-lettered or queued. */
    private void assertExactlyOnce(Set<Long> all, Set<Long> delivered, int deliveries) throws SQLException {
        assertEquals(delivered.size(), deliveries, "a row was delivered twice");
        Set<Long> deadLettered = ids("SELECT id FROM " + dlq);
        Set<Long> queued = ids("SELECT id FROM " + q);
        Set<Long> everywhere = new HashSet<>(delivered);
        everywhere.addAll(deadLettered);
        everywhere.addAll(queued);
        assertEquals(all, everywhere, "every row is somewhere");
        assertEquals(all.size(), delivered.size() + deadLettered.size() + queued.size(), "and in one place only");
        assertTrue(queued.isEmpty(), "nothing left behind: " + queued);
    }

    @Test
    void anUndeliverableRowGoesBackToTheQueueWhenItsClaimRollsBack() throws SQLException {
        long bad = insert("headers, body", "not json", body("bad"));
        long good = insert("body", (Object) body("good"));
        connection.setAutoCommit(false);
        List<UndeliverableMessage> reported = new ArrayList<>();
        List<QueueMessage> claimed = queue.claim(connection, 10, reported::add);
        assertEquals(List.of(good), claimed.stream().map(QueueMessage::id).toList());
        assertEquals(List.of(bad), reported.stream().map(UndeliverableMessage::id).toList());
        connection.rollback();
        connection.setAutoCommit(true);
        assertEquals(Set.of(bad, good), ids("SELECT id FROM " + q));
        assertTrue(ids("SELECT id FROM " + dlq).isEmpty());
    }

    @Test
    void aFailureOfARowWithANegativeAttemptCountIsCountedOnce() throws SQLException {
        long id = insert("attempts, body", -5, body("negative"));
        connection.setAutoCommit(false);
        QueueMessage m = queue.claim(connection, 1).get(0);
        connection.rollback();
        connection.setAutoCommit(true);
        assertEquals(1, m.attempt());
        assertEquals(FailureOutcome.RETRY_SCHEDULED, queue.recordFailure(connection, m, "first"));
        assertEquals(FailureOutcome.STALE, queue.recordFailure(connection, m, "first, reported twice"));
        assertEquals(Set.of(1L), ids("SELECT attempts FROM " + q + " WHERE id = " + id));
    }
}
