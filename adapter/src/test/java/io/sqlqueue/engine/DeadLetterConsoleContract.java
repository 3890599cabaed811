package io.sqlqueue.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sqlqueue.api.OutgoingMessage;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What the dead-letter console asks of the engine, the same on every database: dead letters
 * grouped and paged, one read in full with its journal history, requeued and deleted one by one,
 * as a selection or as a group, each change with its audit row written in the same transaction.
 * The tables are checked in SQL. Each subclass names a database; one not configured is skipped, visibly.
 */
abstract class DeadLetterConsoleContract {

    private static final DeadLetterReason BOOM = new DeadLetterReason("boom", "java.lang.IllegalStateException");
    private static final DeadLetterReason BAD_INPUT = new DeadLetterReason("bad input", "com.example.BadInput");
    private static final DeadLetterReason NO_EXCEPTION = new DeadLetterReason("timed out", null);

    protected abstract TestDatabase database();

    private Connection connection;
    private QueueTable queue;
    private CompletionJournal journal;
    private String dlq;

    @BeforeEach
    void createQueue() throws SQLException {
        assumeTrue(database().available(), database().missingReason());
        connection = database().connect();
        queue = new QueueTable(Dialect.of(connection), "c_" + Long.toHexString(System.nanoTime()), null,
                new RetryPolicy(1, Duration.ZERO, Duration.ZERO));
        queue.createIfMissing(connection);
        dlq = queue.dialect().qualified(queue.deadLetterName());
    }

    @AfterEach
    void dropQueue() throws SQLException {
        if (connection == null) {
            return;
        }
        if (!connection.getAutoCommit()) {
            connection.rollback();
        }
        connection.close();
        try (Connection c = database().connect(); Statement s = c.createStatement()) {
            s.execute("DROP TABLE " + queue.dialect().qualified(queue.name()));
            s.execute("DROP TABLE " + dlq);
            if (journal != null) {
                s.execute("DROP TABLE " + queue.dialect().qualified(journal.name()));
            }
            // The audit table is the schema's, shared with other queues: only this queue's rows go.
            AuditTrail audit = queue.deadLetters().auditTrail();
            if (TableCatalog.read(c, queue.dialect(), audit.name()).exists()) {
                s.execute("DELETE FROM " + queue.dialect().qualified(audit.name()) + " WHERE queue_name = '"
                        + queue.name() + "'");
            }
        }
    }

    /** Sends each body and dead-letters it on its only attempt with {@code reason}; returns the ids in order. */
    private List<Long> deadLetter(DeadLetterReason reason, String... bodies) throws SQLException {
        List<Long> ids = new ArrayList<>();
        for (String body : bodies) {
            ids.add(deadLetter(reason, OutgoingMessage.text(body).build()));
        }
        return ids;
    }

    private long deadLetter(DeadLetterReason reason, OutgoingMessage message) throws SQLException {
        long id = queue.send(connection, message);
        LeasedMessage leased = queue.lease(connection, 1, Duration.ofMinutes(5)).get(0);
        assertEquals(id, leased.message().id());
        assertEquals(FailureOutcome.DEAD_LETTERED,
                queue.nack(connection, leased, new DeliveryFailure(reason.reason(), reason.errorClass(), false)));
        return id;
    }

    private Set<String> bodies(TableName table) throws SQLException {
        Set<String> bodies = new HashSet<>();
        try (Statement s = connection.createStatement();
                ResultSet rs = s.executeQuery("SELECT body FROM " + queue.dialect().qualified(table))) {
            while (rs.next()) {
                bodies.add(new String(rs.getBytes(1), StandardCharsets.UTF_8));
            }
        }
        return bodies;
    }

    /** This queue's audit rows, in SQL, oldest first: operation, actor, count, ids, reason, error class. */
    private List<List<Object>> auditRows() throws SQLException {
        List<List<Object>> rows = new ArrayList<>();
        try (PreparedStatement ps = connection.prepareStatement("SELECT operation, actor, message_count, message_ids,"
                + " last_error, error_class FROM " + queue.dialect().qualified(queue.deadLetters().auditTrail().name())
                + " WHERE queue_name = ? ORDER BY id")) {
            ps.setString(1, queue.name().toString());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows.add(java.util.Arrays.asList(rs.getString(1), rs.getString(2), rs.getInt(3), rs.getString(4),
                            rs.getString(5), rs.getString(6)));
                }
            }
        }
        return rows;
    }

    @Test
    void deadLettersAreGroupedByReasonAndExceptionClassLargestGroupFirst() throws SQLException {
        deadLetter(BAD_INPUT, "b1", "b2");
        deadLetter(BOOM, "x1", "x2", "x3");
        deadLetter(NO_EXCEPTION, "t1");
        long handWritten = deadLetter(BOOM, "no reason").get(0);
        try (Statement s = connection.createStatement()) {
            assertEquals(1, s.executeUpdate("UPDATE " + dlq + " SET last_error = NULL, error_class = NULL WHERE id = "
                    + handWritten));
        }

        List<DeadLetterGroup> groups = queue.deadLetters().groups(connection);

        assertEquals(List.of(BOOM, BAD_INPUT), groups.subList(0, 2).stream().map(DeadLetterGroup::reason).toList());
        assertEquals(List.of(3L, 2L, 1L, 1L), groups.stream().map(DeadLetterGroup::count).toList());
        assertEquals(Set.of(NO_EXCEPTION, new DeadLetterReason(null, null)),
                Set.of(groups.get(2).reason(), groups.get(3).reason()));
        for (DeadLetterGroup g : groups) {
            assertTrue(!g.firstFailedAt().isAfter(g.lastFailedAt()), g.toString());
            assertEquals(g.count(), queue.deadLetters().list(connection, g.reason(), 0, 100).size(),
                    "the group's list holds its count: " + g.reason());
        }
        assertEquals(List.of(handWritten), queue.deadLetters().list(connection, new DeadLetterReason(null, null), 0, 10)
                .stream().map(DeadLetter::id).toList(), "a reason of NULLs is a group too");
    }

    @Test
    void theListPagesNewestFailureFirstWithoutOverlap() throws SQLException {
        List<Long> ids = deadLetter(BOOM, "m0", "m1", "m2", "m3", "m4", "m5", "m6");
        List<DeadLetter> all = new ArrayList<>();
        for (int offset = 0; offset < 9; offset += 3) {
            List<DeadLetter> page = queue.deadLetters().list(connection, null, offset, 3);
            assertEquals(Math.min(3, 7 - offset), page.size(), "page at " + offset);
            all.addAll(page);
        }
        assertEquals(new HashSet<>(ids), new HashSet<>(all.stream().map(DeadLetter::id).toList()));
        for (int i = 1; i < all.size(); i++) {
            DeadLetter before = all.get(i - 1);
            DeadLetter after = all.get(i);
            assertTrue(before.failedAt().isAfter(after.failedAt())
                    || before.failedAt().equals(after.failedAt()) && before.id() > after.id(), before + " then " + after);
        }
        DeadLetter first = all.get(all.size() - 1);
        assertEquals(BOOM, first.reason());
        assertEquals(1, first.attempts());
        assertTrue(queue.deadLetters().list(connection, null, 7, 3).isEmpty());
    }

    @Test
    void aDeadLetterIsReadWithItsHeadersBodyAndJournalHistory() throws SQLException {
        byte[] body = {0, 1, 2, (byte) 0xff};
        long id = deadLetter(BOOM, OutgoingMessage.bytes(body).header("type", "order").priority(3).dedupKey("o-7").build());

        DeadLetterMessage withoutJournal = queue.deadLetters().read(connection, id).orElseThrow();
        assertEquals(List.of(), withoutJournal.history(), "no journal, no history");

        journal = new CompletionJournal(queue);
        journal.createIfMissing(connection);
        Instant claimed = Instant.parse("2026-01-02T03:04:05Z");
        journal.record(connection, new JournalEntry(id, claimed.minusSeconds(1), claimed, claimed.plusSeconds(2), 1,
                JournalEntry.Outcome.DEAD_LETTERED, "consumer-1"));
        journal.record(connection, new JournalEntry(id + 1000, claimed, claimed, claimed, 1,
                JournalEntry.Outcome.COMPLETED, "consumer-1"));

        DeadLetterMessage m = queue.deadLetters().read(connection, id).orElseThrow();

        assertEquals(id, m.row().id());
        assertEquals(3, m.row().priority());
        assertEquals("o-7", m.row().dedupKey());
        assertEquals(BOOM, m.row().reason());
        assertEquals(Map.of("type", "order"), m.headerMap());
        assertArrayEquals(body, m.body());
        assertEquals(1, m.history().size(), "the journal's row of this id only");
        assertEquals(JournalEntry.Outcome.DEAD_LETTERED, m.history().get(0).outcome());
        assertEquals(claimed.plusSeconds(2), m.history().get(0).completedAt());
        assertTrue(queue.deadLetters().read(connection, id + 1000).isEmpty(), "no such dead letter");
    }

    @Test
    void aRequeuedSelectionMovesOnlyItsMessagesAndItsAuditRowNamesActorAndIds() throws SQLException {
        List<Long> ids = deadLetter(BOOM, "a", "b", "c", "d");

        assertEquals(2, queue.deadLetters().requeue(connection, List.of(ids.get(0), ids.get(2)), "alice"));

        assertEquals(Set.of("a", "c"), bodies(queue.name()));
        assertEquals(Set.of("b", "d"), bodies(queue.deadLetterName()));
        assertEquals(List.of(List.of("requeue", "alice", 2, ids.get(0) + ", " + ids.get(2))),
                auditRows().stream().map(r -> r.subList(0, 4)).toList());
        assertEquals(1, queue.deadLetters().requeue(connection, List.of(ids.get(3)), "bob"), "one");
        assertEquals(Set.of("b"), bodies(queue.deadLetterName()));
        List<AuditEntry> recent = queue.deadLetters().auditTrail().recent(connection, queue.name().toString(), 10);
        assertEquals(List.of("bob", "alice"), recent.stream().map(AuditEntry::actor).toList(), "newest first");
        assertEquals(String.valueOf(ids.get(3)), recent.get(0).messageIds());
        assertNull(recent.get(0).group());
        assertTrue(connection.getAutoCommit(), "auto-commit restored");
    }

    @Test
    void aRequeuedGroupMovesItsMessagesInBatchesEachWithItsAuditRow() throws SQLException {
        deadLetter(BOOM, "x1", "x2", "x3");
        deadLetter(BAD_INPUT, "b1");
        DeadLetters inPairs = queue.deadLetters().withBatchSizes(2, 2);

        assertEquals(3, inPairs.requeue(connection, BOOM, "alice"));

        assertEquals(Set.of("x1", "x2", "x3"), bodies(queue.name()));
        assertEquals(Set.of("b1"), bodies(queue.deadLetterName()), "the other group stays");
        assertEquals(List.of(
                java.util.Arrays.asList("requeue", "alice", 2, null, BOOM.reason(), BOOM.errorClass()),
                java.util.Arrays.asList("requeue", "alice", 1, null, BOOM.reason(), BOOM.errorClass())), auditRows());
        AuditEntry latest = queue.deadLetters().auditTrail().recent(connection, queue.name().toString(), 1).get(0);
        assertEquals(BOOM, latest.group());
        assertEquals(0, queue.deadLetters().requeue(connection, BOOM, "alice"), "nothing left");
        assertEquals(2, auditRows().size(), "a change of nothing is not audited");
    }

    @Test
    void oneMessageAndAGroupAreDeletedAndAudited() throws SQLException {
        List<Long> boom = deadLetter(BOOM, "x1", "x2", "x3");
        deadLetter(NO_EXCEPTION, "t1", "t2");

        assertEquals(1, queue.deadLetters().delete(connection, List.of(boom.get(1)), "carol"));
        assertEquals(2, queue.deadLetters().withBatchSizes(2, 1).delete(connection, NO_EXCEPTION, "dave"));

        assertEquals(Set.of("x1", "x3"), bodies(queue.deadLetterName()));
        assertEquals(Set.of(), bodies(queue.name()), "nothing was requeued");
        assertEquals(List.of(
                java.util.Arrays.asList("delete", "carol", 1, String.valueOf(boom.get(1)), null, null),
                java.util.Arrays.asList("delete", "dave", 1, null, NO_EXCEPTION.reason(), null),
                java.util.Arrays.asList("delete", "dave", 1, null, NO_EXCEPTION.reason(), null)), auditRows());
    }

    @Test
    void aChangeWhoseTransactionFailsLeavesNeitherTheChangeNorItsAuditRow() throws SQLException {
        List<Long> ids = deadLetter(BOOM, "a", "b");
        // the first commit is the audit table's creation (it exists: nothing to do), the second the delete's
        CommitSpy spy = CommitSpy.failingCommit(connection, 2);

        SQLException e = assertThrows(SQLException.class,
                () -> queue.deadLetters().delete(spy.connection(), ids, "eve"));

        assertTrue(e.getMessage().contains("simulated"), e.getMessage());
        assertEquals(Set.of("a", "b"), bodies(queue.deadLetterName()), "rolled back");
        assertEquals(List.of(), auditRows(), "the audit row went with the change");
        assertTrue(connection.getAutoCommit(), "auto-commit restored");
    }

    @Test
    void anEditedDeadLetterIsRequeuedAsANewMessageAndAudited() throws SQLException {
        journal = new CompletionJournal(queue);
        journal.createIfMissing(connection);
        long id = deadLetter(BOOM, OutgoingMessage.text("old").header("type", "order").priority(4).dedupKey("k-1")
                .orderingKey("customer-9").build());
        Instant at = Instant.parse("2026-01-02T03:04:05Z");
        journal.record(connection, new JournalEntry(id, at, at, at, 1, JournalEntry.Outcome.DEAD_LETTERED, "c-1"));

        long newId = queue.deadLetters().requeueEdited(connection, id, "new ✓", Map.of("type", "order-v2", "fixed", "yes"),
                "alice").orElseThrow();

        assertTrue(newId != id, "a new message");
        assertEquals(Set.of(), bodies(queue.deadLetterName()), "the dead letter is gone");
        try (PreparedStatement ps = connection.prepareStatement("SELECT id, body, headers, priority, dedup_key,"
                + " ordering_key, attempts FROM " + queue.dialect().qualified(queue.name()))) {
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next());
                assertEquals(newId, rs.getLong(1));
                assertEquals("new ✓", new String(rs.getBytes(2), StandardCharsets.UTF_8));
                assertEquals(Map.of("type", "order-v2", "fixed", "yes"), HeadersJson.read(rs.getString(3)));
                assertEquals(4, rs.getInt(4), "priority kept");
                assertNull(rs.getString(5), "dedup key dropped");
                assertEquals("customer-9", rs.getString(6), "ordering key kept");
                assertEquals(0, rs.getInt(7));
                assertTrue(!rs.next(), "one message");
            }
        }
        assertEquals(List.of(java.util.Arrays.asList("edit", "alice", 1, id + " -> " + newId, null, null)), auditRows());
        assertOriginalKept(id, "old", Map.of("type", "order"));
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM "
                + queue.dialect().qualified(journal.name()) + " WHERE message_id = " + id + " AND outcome = 'dead_lettered'")) {
            assertTrue(rs.next());
            assertEquals(1, rs.getInt(1), "the original's journal row stays");
        }
        EditedDeadLetter original = queue.deadLetters().readEdited(connection, id).orElseThrow();
        assertEquals("old", new String(original.body(), StandardCharsets.UTF_8));
        assertEquals(Map.of("type", "order"), original.headerMap());
        assertEquals("alice", original.edit().actor());
        assertEquals(AuditTrail.EDIT, original.edit().operation());
        assertEquals(id + " -> " + newId, original.edit().messageIds());
        assertEquals(List.of(JournalEntry.Outcome.DEAD_LETTERED),
                original.history().stream().map(JournalEntry::outcome).toList(), "its journal rows");
        assertTrue(queue.deadLetters().readEdited(connection, newId).isEmpty(), "the new message was not edited");
        assertTrue(queue.deadLetters().requeueEdited(connection, id, "again", null, "alice").isEmpty(), "gone");
        assertEquals(1, auditRows().size(), "nothing edited, nothing audited");
        assertTrue(connection.getAutoCommit(), "auto-commit restored");
    }

    /** The edit's audit row of dead letter {@code id}, in SQL, holds its original body and headers. */
    private void assertOriginalKept(long id, String body, Map<String, String> headers) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement("SELECT original_body, original_headers FROM "
                + queue.dialect().qualified(queue.deadLetters().auditTrail().name())
                + " WHERE queue_name = ? AND operation = 'edit' AND message_ids LIKE ?")) {
            ps.setString(1, queue.name().toString());
            ps.setString(2, id + " -> %");
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next(), "the edit's audit row");
                assertEquals(body, new String(rs.getBytes(1), StandardCharsets.UTF_8), "the original's body");
                assertEquals(headers, HeadersJson.read(rs.getString(2)), "the original's headers");
                assertTrue(!rs.next(), "one edit");
            }
        }
    }

    /**
     * An audit table of the release before edits kept their original (and the JMX operations were
     * audited) gains the nullable columns at the next change, keeping its rows, and an edit then
     * keeps its original there.
     */
    @Test
    void anAuditTableOfTheEarlierShapeGainsTheNewColumnsKeepingItsRows() throws SQLException {
        AuditTrail audit = queue.deadLetters().auditTrail();
        audit.createIfMissing(connection);
        String t = queue.dialect().qualified(audit.name());
        try (Statement s = connection.createStatement()) {
            for (String column : new String[] {"criterion", "original_headers", "original_body"}) {
                s.execute("ALTER TABLE " + t + " DROP COLUMN " + column);
            }
            s.execute("INSERT INTO " + t + " (actor, operation, queue_name, message_count, message_ids) VALUES"
                    + " ('earlier', 'delete', '" + queue.name() + "', 1, '7')");
        }
        long id = deadLetter(BOOM, OutgoingMessage.text("original").header("v", "1").build());

        long newId = queue.deadLetters().requeueEdited(connection, id, "edited", null, "alice").orElseThrow();
        audit.createIfMissing(connection); // again, as every later start does: nothing left to change

        assertOriginalKept(id, "original", Map.of("v", "1"));
        List<AuditEntry> recent = audit.recent(connection, queue.name().toString(), 10);
        assertEquals(List.of(id + " -> " + newId, "7"), recent.stream().map(AuditEntry::messageIds).toList(),
                "the earlier row kept");
        assertNull(recent.get(1).criterion());
        assertNull(recent.get(1).group(), "a selection's row");
    }

    /**
     * The JMX operations (the oldest requeued, those failed before a time purged) write an audit row
     * per batch naming the actor and their criterion, and none for a batch that changed nothing.
     */
    @Test
    void theRequeueOfTheOldestAndThePurgeAreAuditedPerBatchWithTheirCriterion() throws SQLException {
        deadLetter(BOOM, "a", "b", "c");
        DeadLetters inPairs = queue.deadLetters().withBatchSizes(2, 2);

        assertEquals(3, inPairs.requeue(connection, 10, "jmx"));
        assertEquals(Set.of("a", "b", "c"), bodies(queue.name()));
        assertEquals(3, queue.claim(connection, 10).size());
        deadLetter(BAD_INPUT, "p1", "p2", "p3");
        Instant cutoff = Instant.now().plus(Duration.ofHours(1));
        assertEquals(3, inPairs.purgeFailedBefore(connection, cutoff, "carol"));
        assertEquals(0, inPairs.purgeFailedBefore(connection, cutoff, "carol"), "nothing left");
        assertEquals(0, inPairs.requeue(connection, 10, "jmx"), "nothing left");

        assertEquals(Set.of(), bodies(queue.deadLetterName()));
        assertEquals(List.of(
                java.util.Arrays.asList("requeue", "jmx", 2, null, null, null),
                java.util.Arrays.asList("requeue", "jmx", 1, null, null, null),
                java.util.Arrays.asList("delete", "carol", 2, null, null, null),
                java.util.Arrays.asList("delete", "carol", 1, null, null, null)), auditRows(), "one row per batch");
        List<AuditEntry> recent = queue.deadLetters().auditTrail().recent(connection, queue.name().toString(), 10);
        String failedBefore = "failed before " + cutoff;
        assertEquals(List.of(failedBefore, failedBefore, AuditTrail.OLDEST_FIRST, AuditTrail.OLDEST_FIRST),
                recent.stream().map(AuditEntry::criterion).toList());
        assertTrue(recent.stream().allMatch(e -> e.group() == null), "neither a group's");
        assertThrows(IllegalArgumentException.class, () -> inPairs.requeue(connection, 10, " "));
        assertThrows(IllegalArgumentException.class, () -> inPairs.purgeFailedBefore(connection, cutoff, ""));
        assertTrue(connection.getAutoCommit(), "auto-commit restored");
    }

    @Test
    void aHeadersOnlyEditKeepsTheBodyBytes() throws SQLException {
        byte[] body = {0, (byte) 0xfe, 7};
        long id = deadLetter(BOOM, OutgoingMessage.bytes(body).header("a", "1").build());

        long newId = queue.deadLetters().requeueEdited(connection, id, null, Map.of("a", "2"), "bob").orElseThrow();

        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery("SELECT body, headers FROM "
                + queue.dialect().qualified(queue.name()) + " WHERE id = " + newId)) {
            assertTrue(rs.next());
            assertArrayEquals(body, rs.getBytes(1));
            assertEquals(Map.of("a", "2"), HeadersJson.read(rs.getString(2)));
        }
    }

    @Test
    void anEditWhoseTransactionFailsLeavesTheDeadLetterAndWritesNothing() throws SQLException {
        long id = deadLetter(BOOM, "a").get(0);
        queue.deadLetters().auditTrail().createIfMissing(connection);
        // the first commit is the audit table's creation (it exists: nothing to do), the second the edit's
        CommitSpy spy = CommitSpy.failingCommit(connection, 2);

        SQLException e = assertThrows(SQLException.class,
                () -> queue.deadLetters().requeueEdited(spy.connection(), id, "b", null, "eve"));

        assertTrue(e.getMessage().contains("simulated"), e.getMessage());
        assertEquals(Set.of("a"), bodies(queue.deadLetterName()), "rolled back");
        assertEquals(Set.of(), bodies(queue.name()), "no new message");
        assertEquals(List.of(), auditRows());
        assertTrue(connection.getAutoCommit(), "auto-commit restored");
    }

    @Test
    void aBadEditIsRefusedBeforeAnySqlRunsAndWritesNothing() throws SQLException {
        long id = deadLetter(BOOM, "a").get(0);
        DeadLetters d = queue.deadLetters();
        d.auditTrail().createIfMissing(connection);
        String tooLong = "x".repeat(DeadLetters.MAX_EDITED_BODY_BYTES + 1);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> d.requeueEdited(connection, id, tooLong, null, "alice"));
        assertTrue(e.getMessage().contains("body"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> d.requeueEdited(connection, id, "b", Map.of("", "v"), "alice"));
        assertTrue(e.getMessage().contains("header name"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> d.requeueEdited(connection, id, "b", null, " "));

        assertEquals(Set.of("a"), bodies(queue.deadLetterName()));
        assertEquals(Set.of(), bodies(queue.name()));
        assertEquals(List.of(), auditRows());
    }

    @Test
    void badArgumentsAreRefusedBeforeAnySqlRuns() {
        DeadLetters d = queue.deadLetters();
        List<Long> tooMany = LongStream.rangeClosed(1, DeadLetters.MAX_SELECTION + 1).boxed().toList();
        assertThrows(IllegalArgumentException.class, () -> d.requeue(connection, List.of(), "alice"));
        assertThrows(IllegalArgumentException.class, () -> d.delete(connection, tooMany, "alice"));
        assertThrows(IllegalArgumentException.class, () -> d.delete(connection, Collections.singletonList(null), "a"));
        assertThrows(IllegalArgumentException.class, () -> d.requeue(connection, List.of(1L), " "));
        assertThrows(IllegalArgumentException.class, () -> d.delete(connection, BOOM, "x".repeat(201)));
        assertThrows(IllegalArgumentException.class, () -> d.list(connection, null, -1, 10));
        assertThrows(IllegalArgumentException.class, () -> d.list(connection, null, 0, DeadLetters.MAX_PAGE + 1));
    }
}
