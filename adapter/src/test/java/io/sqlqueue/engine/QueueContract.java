package io.sqlqueue.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sqlqueue.api.OutgoingMessage;
import io.sqlqueue.api.QueueMessage;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The engine's contract, the same on every database: each subclass names one. A database that is
 * not configured skips the whole class visibly.
 */
abstract class QueueContract {

    protected abstract TestDatabase database();

    protected Connection connection;
    protected QueueTable queue;
    private final List<QueueTable> created = new ArrayList<>();
    private final List<CompletionJournal> journals = new ArrayList<>();
    /** Topics made by {@link #newTopic}: their subscriptions' rows go after the test, with the queues. */
    private final List<Topic> topics = new ArrayList<>();

    @BeforeEach
    void createQueue() throws SQLException {
        // Per test, so that each one is reported as skipped (a class-level skip reports nothing).
        assumeTrue(database().available(), database().missingReason());
        connection = database().connect();
        queue = newQueue(RetryPolicy.DEFAULT);
    }

    @AfterEach
    void dropQueues() throws SQLException {
        if (connection == null) {
            return; // skipped
        }
        if (!connection.getAutoCommit()) {
            connection.rollback(); // a test may end inside a transaction; its locks would block the DROP
        }
        connection.close();
        try (Connection c = database().connect(); Statement s = c.createStatement()) {
            for (CompletionJournal j : journals) {
                s.execute("DROP TABLE " + queue.dialect().qualified(j.name()));
            }
            for (QueueTable q : created) {
                s.execute("DROP TABLE " + q.dialect().qualified(q.name()));
                s.execute("DROP TABLE " + q.dialect().qualified(q.deadLetterName()));
            }
            // The subscriptions table is shared (the adapter's own, on a DBA's server too): only these rows go.
            for (Topic topic : topics) {
                for (Topic.Subscription subscription : topic.subscriptions(c)) {
                    topic.unsubscribe(c, subscription.name());
                }
            }
        }
    }

    /** A new queue with a unique name, created, dropped after the test. */
    protected QueueTable newQueue(RetryPolicy retry) throws SQLException {
        String name = "t_" + Long.toHexString(System.nanoTime()) + "_" + created.size();
        QueueTable q = new QueueTable(Dialect.of(connection), name, null, retry);
        q.createIfMissing(connection);
        created.add(q);
        return q;
    }

    private static OutgoingMessage text(String body) {
        return OutgoingMessage.text(body).build();
    }

    private List<String> heldTexts(List<HeldMessage> held) {
        return texts(held.stream().map(HeldMessage::message).toList());
    }

    private List<String> texts(List<QueueMessage> messages) {
        return messages.stream().map(QueueMessage::text).toList();
    }

    private long count(String table) throws SQLException {
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + table)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private long queueRows() throws SQLException {
        return count(queue.dialect().qualified(queue.name()));
    }

    private long deadLetterRows() throws SQLException {
        return count(queue.dialect().qualified(queue.deadLetterName()));
    }

    // ---- tables -------------------------------------------------------------------------------

    @Test
    void createIfMissingIsIdempotentAndSafeWhenServersStartTogether() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(16);
        // The race is timing-dependent: run it a few times. Babelfish takes about 12 s a round (its
        // DDL and logins are slow) and cannot show SQL Server's locking anyway: two rounds there
        // prove the statements; H2 and PostgreSQL race five times.
        int rounds = Babelfish.isBabelfish(connection) ? 2 : 5;
        try {
            for (int round = 0; round < rounds; round++) {
                QueueTable fresh = new QueueTable(Dialect.of(connection), "t_race_" + Long.toHexString(System.nanoTime()),
                        null, RetryPolicy.DEFAULT);
                created.add(fresh);
                List<Future<?>> starts = new ArrayList<>();
                for (int i = 0; i < 16; i++) {
                    starts.add(pool.submit(() -> {
                        try (Connection c = database().connect()) {
                            fresh.createIfMissing(c);
                        }
                        return null;
                    }));
                }
                for (Future<?> f : starts) {
                    f.get(60, TimeUnit.SECONDS);
                }
                fresh.createIfMissing(connection);
                long id = fresh.send(connection, text("after the race"));
                assertEquals(List.of(id), fresh.claim(connection, 10).stream().map(QueueMessage::id).toList());
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Queue names are identifiers, quoted: two that differ only in case are two tables where the
     * database compares names with case (PostgreSQL, H2, a case-sensitive SQL Server database), and
     * one table where it does not (SQL Server's default collations, Babelfish): the second is refused
     * there, naming both, rather than sharing the first one's messages.
     */
    @Test
    void queuesWhoseNamesDifferOnlyInCaseAreTwoQueuesOrTheSecondIsRefused() throws SQLException {
        QueueTable upper = new QueueTable(queue.dialect(), queue.name().table().toUpperCase(Locale.ROOT), null,
                RetryPolicy.DEFAULT);
        queue.send(connection, text("lower"));
        if (namesIgnoreCase(upper.name())) {
            SQLException e = assertThrows(SQLException.class, () -> upper.createIfMissing(connection));
            assertTrue(e.getMessage().contains("the configured name " + upper.name() + " finds the table "
                    + queue.name().table()), e.getMessage());
            assertThrows(SQLException.class, () -> upper.checkExisting(connection));
            assertEquals(1, queueRows(), "the first queue's message stays its own");
        } else {
            upper.createIfMissing(connection);
            created.add(upper);
            upper.send(connection, text("upper"));
            assertEquals(List.of("lower"), texts(queue.claim(connection, 10)));
            assertEquals(List.of("upper"), texts(upper.claim(connection, 10)));
        }
    }

    /** Whether the database resolves {@code name} to the existing table of {@link #queue} (SQL Server's OBJECT_ID). */
    private boolean namesIgnoreCase(TableName name) throws SQLException {
        if (!queue.dialect().name().equals("sqlserver")) {
            return false;
        }
        try (PreparedStatement ps = connection.prepareStatement("SELECT CASE WHEN OBJECT_ID(?) = OBJECT_ID(?) THEN 1"
                + " ELSE 0 END")) {
            ps.setString(1, queue.dialect().qualified(name));
            ps.setString(2, queue.dialect().qualified(queue.name()));
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1) == 1;
            }
        }
    }

    // ---- enqueue and transacted claim ---------------------------------------------------------

    @Test
    void sendThenClaimReturnsBodyHeadersAndMetadata() throws SQLException {
        Instant before = Instant.now().minusSeconds(60);
        byte[] body = {0, 1, 2, (byte) 0xff, 127};
        long id = queue.send(connection, OutgoingMessage.bytes(body)
                .header("type", "order").header("quote\"and\\slash", "line\nbreak ünïcode ✓").build());

        List<QueueMessage> claimed = queue.claim(connection, 10);

        assertEquals(1, claimed.size());
        QueueMessage m = claimed.get(0);
        assertEquals(id, m.id());
        assertEquals(queue.name().toString(), m.queue());
        assertArrayEquals(body, m.body());
        assertEquals(Map.of("type", "order", "quote\"and\\slash", "line\nbreak ünïcode ✓"), m.headers());
        assertEquals(1, m.attempt());
        assertTrue(m.enqueuedAt().isAfter(before) && m.enqueuedAt().isBefore(Instant.now().plusSeconds(60)),
                "enqueued_at comes from the database clock in UTC: " + m.enqueuedAt());
        assertEquals(0, queueRows(), "a claim in auto-commit consumes the message");
        assertTrue(queue.claim(connection, 10).isEmpty());
    }

    @Test
    void textBodiesRoundTripAsUtf8() throws SQLException {
        queue.send(connection, text("grüße, 注文 #42"));
        assertEquals("grüße, 注文 #42", queue.claim(connection, 1).get(0).text());
    }

    @Test
    void rollbackReturnsTheClaimUntouchedAndCommitConsumesIt() throws SQLException {
        long id = queue.send(connection, text("once"));
        connection.setAutoCommit(false);

        assertEquals(List.of(id), queue.claim(connection, 5).stream().map(QueueMessage::id).toList());
        connection.rollback();
        List<QueueMessage> again = queue.claim(connection, 5);
        assertEquals(List.of(id), again.stream().map(QueueMessage::id).toList());
        assertEquals(1, again.get(0).attempt(), "a rollback alone does not count as an attempt");
        connection.commit();

        assertEquals(0, queueRows());
    }

    @Test
    void aClaimSkipsRowsAnotherTransactionHolds() throws SQLException {
        Babelfish.assumeNotBabelfish(connection, Babelfish.IGNORES_READPAST);
        queue.sendAll(connection, List.of(text("a"), text("b")));
        try (Connection other = database().connect()) {
            other.setAutoCommit(false);
            assertEquals(List.of("a"), texts(queue.claim(other, 1)));
            assertEquals(List.of("b"), texts(queue.claim(connection, 5)), "the held row is skipped, not waited for");
            other.rollback();
        }
        assertEquals(List.of("a"), texts(queue.claim(connection, 5)));
    }

    @Test
    void aHoldLocksWithoutChangingTheRowsAndDeletesOnlyThoseConsumed() throws SQLException {
        queue.sendAll(connection, List.of(text("a"), text("b"), text("c")));
        connection.setAutoCommit(false);

        List<HeldMessage> held = queue.hold(connection, 3, null);
        assertEquals(List.of("a", "b", "c"), heldTexts(held));
        assertEquals(3, queue.deleteHeld(connection, held));
        connection.rollback();
        assertEquals(3, queueRows(), "a rollback gives back all");

        held = queue.hold(connection, 3, null);
        assertEquals(1, held.get(0).message().attempt(), "a hold that rolled back counted no attempt");
        assertEquals(1, queue.deleteHeld(connection, held.subList(0, 1)));
        connection.commit();

        List<QueueMessage> left = queue.claim(connection, 5);
        assertEquals(List.of("b", "c"), texts(left));
        assertEquals(List.of(1, 1), left.stream().map(QueueMessage::attempt).toList(), "held, not changed");
    }

    @Test
    void aSecondHoldInOneTransactionGoesOnAfterTheFirst() throws SQLException {
        queue.send(connection, text("a"));
        queue.send(connection, OutgoingMessage.text("urgent").priority(5).build());
        queue.sendAll(connection, List.of(text("b"), text("c"), text("d")));
        connection.setAutoCommit(false);

        List<HeldMessage> first = queue.hold(connection, 2, null);
        assertEquals(List.of("urgent", "a"), heldTexts(first));
        // a transaction's own locks are not skipped: without "after" this would return urgent and a again
        List<HeldMessage> second = queue.hold(connection, 2, first.get(1));
        assertEquals(List.of("b", "c"), heldTexts(second));
        List<HeldMessage> third = queue.hold(connection, 2, second.get(1));
        assertEquals(List.of("d"), heldTexts(third));
        assertEquals(List.of(), heldTexts(queue.hold(connection, 2, third.get(0))));
        connection.rollback();
    }

    @Test
    void concurrentTransactionsHoldingSeveralTimesEachNeverShareAMessage() throws Exception {
        Babelfish.assumeNotBabelfish(connection, Babelfish.IGNORES_READPAST);
        int messages = 600;
        List<OutgoingMessage> batch = new ArrayList<>();
        for (int i = 0; i < messages; i++) {
            batch.add(text("m" + i));
        }
        queue.sendAll(connection, batch);
        Set<Long> consumed = ConcurrentHashMap.newKeySet();
        AtomicInteger twice = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> readers = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                readers.add(pool.submit(() -> {
                    try (Connection c = database().connect()) {
                        c.setAutoCommit(false);
                        while (true) { // as a chunk of 9 with a claim size of 4: three holds a transaction
                            List<HeldMessage> chunk = new ArrayList<>();
                            for (List<HeldMessage> got; chunk.size() < 9 && !(got = queue.hold(c, 4,
                                    chunk.isEmpty() ? null : chunk.get(chunk.size() - 1))).isEmpty(); ) {
                                chunk.addAll(got);
                            }
                            if (chunk.isEmpty()) {
                                c.commit();
                                return null;
                            }
                            assertEquals(chunk.size(), queue.deleteHeld(c, chunk), "each held row deleted once");
                            c.commit();
                            for (HeldMessage m : chunk) {
                                if (!consumed.add(m.message().id())) {
                                    twice.incrementAndGet();
                                }
                            }
                        }
                    }
                }));
            }
            for (Future<?> f : readers) {
                f.get(5, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(0, twice.get(), "messages consumed by two transactions");
        assertEquals(messages, consumed.size());
        assertEquals(0, queueRows());
    }

    @Test
    void heldRowsAreSkippedByOtherConsumers() throws SQLException {
        Babelfish.assumeNotBabelfish(connection, Babelfish.IGNORES_READPAST);
        queue.sendAll(connection, List.of(text("a"), text("b"), text("c")));
        try (Connection other = database().connect()) {
            other.setAutoCommit(false);
            assertEquals(List.of("a", "b"), heldTexts(queue.hold(other, 2, null)));
            assertEquals(List.of("c"), texts(queue.claim(connection, 5)), "held rows are skipped, not waited for");
            other.commit();
        }
        assertEquals(List.of("a", "b"), texts(queue.claim(connection, 5)), "the commit freed what was not deleted");
    }

    @Test
    void aHoldDeadLettersAMessageWhoseLeasesRanOutOnTheLastAttempt() throws Exception {
        QueueTable q = newQueue(new RetryPolicy(1, Duration.ZERO, Duration.ZERO));
        q.send(connection, text("crashes its consumer"));
        q.send(connection, text("fine"));
        assertEquals(1, q.lease(connection, 1, Duration.ofMillis(200)).size()); // never acked
        connection.setAutoCommit(false);

        List<String> held = new ArrayList<>();
        Await.until(Duration.ofSeconds(20), "the expired lease is dead-lettered", () -> {
            List<HeldMessage> got = q.hold(connection, 10, null);
            held.addAll(heldTexts(got));
            q.deleteHeld(connection, got);
            connection.commit();
            return q.stats(connection).deadLettered() == 1;
        });
        assertEquals(List.of("fine"), held);
        assertEquals(0, count(q.dialect().qualified(q.name())));
        assertTrue(deadLetterReason(q).startsWith("never completed: delivered 1 time, and the lease of the last ran out,"
                + " held by " + QueueTable.HOLDER), deadLetterReason(q));
    }

    // ---- ordering keys --------------------------------------------------------------------------

    private static OutgoingMessage keyed(String key, String body) {
        return OutgoingMessage.text(body).orderingKey(key).build();
    }

    @Test
    void anOrderedClaimTakesTheFirstMessageOfEachKeyAndTheNextOnlyOnceTheFirstIsCommitted() throws SQLException {
        Babelfish.assumeNotBabelfish(connection, Babelfish.IGNORES_READPAST);
        queue.sendAll(connection, List.of(keyed("a", "a1"), keyed("a", "a2"), keyed("b", "b1"), text("free"),
                keyed("b", "b2")));
        QueueTable ordered = queue.inKeyOrder();
        connection.setAutoCommit(false);
        List<QueueMessage> first = ordered.claim(connection, 10);
        assertEquals(List.of("a1", "b1", "free"), texts(first), "one message per key, and those without one");
        assertEquals(Arrays.asList("a", "b", null), first.stream().map(QueueMessage::orderingKey).toList());
        try (Connection other = database().connect()) {
            assertEquals(List.of(), texts(ordered.claim(other, 10)),
                    "a2 and b2 wait while a1 and b1 are in a transaction that may still roll back");
            connection.rollback();
            assertEquals(List.of("a1", "b1", "free"), texts(ordered.claim(connection, 10)), "the rollback put them back");
            connection.commit();
            assertEquals(List.of("a2", "b2"), texts(ordered.claim(other, 10)));
        }
        connection.setAutoCommit(true);
        assertEquals(0, queueRows());
    }

    @Test
    void anOrderingKeyIsOneTo200CharactersAndABadOneIsRefusedBeforeAnySql() {
        assertEquals("orderingKey must be 1 to 200 characters, was 0 characters", assertThrows(
                IllegalArgumentException.class, () -> OutgoingMessage.text("x").orderingKey("")).getMessage());
        assertEquals("orderingKey must be 1 to 200 characters, was null", assertThrows(
                IllegalArgumentException.class, () -> OutgoingMessage.text("x").orderingKey(null)).getMessage());
        assertEquals("dedupKey must be 1 to 200 characters, was 201 characters", assertThrows(
                IllegalArgumentException.class, () -> OutgoingMessage.text("x").dedupKey("k".repeat(201))).getMessage());
        assertEquals("k".repeat(200), OutgoingMessage.text("x").orderingKey("k".repeat(200)).build().orderingKey());
    }

    @Test
    void anUnorderedClaimIgnoresOrderingKeys() throws SQLException {
        queue.sendAll(connection, List.of(keyed("a", "a1"), keyed("a", "a2")));
        queue.send(connection, keyed("a", "a3"));
        assertEquals(List.of("a1", "a2", "a3"), texts(queue.claim(connection, 10)));
    }

    @Test
    void priorityDoesNotReorderTheMessagesOfOneKey() throws SQLException {
        queue.send(connection, keyed("a", "a1"));
        queue.send(connection, OutgoingMessage.text("a2 urgent").orderingKey("a").priority(9).build());
        queue.send(connection, OutgoingMessage.text("b1 urgent").orderingKey("b").priority(9).build());
        QueueTable ordered = queue.inKeyOrder();
        assertEquals(List.of("b1 urgent", "a1"), texts(ordered.claim(connection, 10)));
        assertEquals(List.of("a2 urgent"), texts(ordered.claim(connection, 10)));
    }

    @Test
    void aFailingMessageHoldsItsKeyThroughItsRetriesUntilItIsDeadLettered() throws Exception {
        QueueTable q = newQueue(new RetryPolicy(2, Duration.ofMillis(300), Duration.ofMillis(300)));
        QueueTable ordered = q.inKeyOrder();
        q.sendAll(connection, List.of(keyed("k", "poison"), keyed("k", "next"), keyed("other", "o1"),
                keyed("other", "o2")));
        connection.setAutoCommit(false);
        List<QueueMessage> taken = ordered.claim(connection, 10);
        assertEquals(List.of("poison", "o1"), texts(taken));
        connection.rollback();
        assertEquals(FailureOutcome.RETRY_SCHEDULED, q.recordFailure(connection, taken.get(0), "boom"));
        connection.commit();
        assertEquals(List.of("o1"), texts(ordered.claim(connection, 10)), "the retry back-off holds key k");
        connection.commit();
        assertEquals(List.of("o2"), texts(ordered.claim(connection, 10)), "other keys keep flowing");
        connection.commit();
        assertTrue(q.peek(connection), "a message is ready, ");
        assertFalse(ordered.peek(connection), "but it waits behind its key: an ordered poller starts no delivery");
        connection.commit();
        List<QueueMessage> again = new ArrayList<>();
        Await.until(Duration.ofSeconds(20), "the poison message is back after its back-off", () -> {
            again.addAll(ordered.claim(connection, 10));
            if (again.isEmpty()) {
                connection.commit(); // a new transaction: H2's clock stands still within one
            }
            return !again.isEmpty();
        });
        assertEquals(List.of("poison"), texts(again), "the poison message again, not the one behind it");
        connection.rollback();
        assertEquals(FailureOutcome.DEAD_LETTERED, q.recordFailure(connection, again.get(0), "boom"));
        connection.commit();
        assertEquals(List.of("next"), texts(ordered.claim(connection, 10)), "dead-lettered: the key flows again");
        connection.commit();
        connection.setAutoCommit(true);
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery("SELECT ordering_key FROM "
                + q.dialect().qualified(q.deadLetterName()))) {
            assertTrue(rs.next());
            assertEquals("k", rs.getString(1), "the dead letter keeps its ordering key");
        }
        assertEquals(1, q.deadLetters().requeue(connection, 10, "ops"));
        List<QueueMessage> requeued = ordered.claim(connection, 10);
        assertEquals(List.of("poison"), texts(requeued));
        assertEquals("k", requeued.get(0).orderingKey(), "and so does the requeued message");
    }

    @Test
    void aLeaseHoldsItsKeyUntilItIsAcknowledged() throws SQLException {
        queue.sendAll(connection, List.of(keyed("a", "a1"), keyed("a", "a2"), keyed("b", "b1")));
        QueueTable ordered = queue.inKeyOrder();
        List<LeasedMessage> leased = ordered.lease(connection, 10, Duration.ofMinutes(1));
        assertEquals(List.of("a1", "b1"), texts(leased.stream().map(LeasedMessage::message).toList()));
        assertEquals(List.of(), ordered.lease(connection, 10, Duration.ofMinutes(1)), "a2 waits for a1's lease");
        assertTrue(ordered.ack(connection, leased.get(0)));
        assertEquals(List.of("a2"), texts(ordered.lease(connection, 10, Duration.ofMinutes(1)).stream()
                .map(LeasedMessage::message).toList()));
    }

    @Test
    void anOrderedHoldTakesOneMessagePerKeyInATransaction() throws SQLException {
        queue.sendAll(connection, List.of(keyed("a", "a1"), keyed("a", "a2"), keyed("b", "b1"), keyed("b", "b2")));
        QueueTable ordered = queue.inKeyOrder();
        connection.setAutoCommit(false);
        List<HeldMessage> first = ordered.hold(connection, 1, null);
        assertEquals(List.of("a1"), heldTexts(first));
        assertEquals(List.of("b1"), heldTexts(ordered.hold(connection, 10, first.get(0))));
        assertEquals(List.of(), heldTexts(ordered.hold(connection, 10, null).stream()
                .filter(m -> !m.message().text().endsWith("1")).toList()), "a2 and b2 wait behind what it holds");
        connection.commit();
        connection.setAutoCommit(true);
    }

    @Test
    void aKeyWithAThousandWaitingMessagesDoesNotStarveTheOthers() throws SQLException {
        Babelfish.assumeNotBabelfish(connection, Babelfish.IGNORES_READPAST);
        List<OutgoingMessage> deep = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            deep.add(keyed("deep", "d" + i));
        }
        queue.sendAll(connection, deep);
        queue.send(connection, keyed("shallow", "s0"));
        QueueTable ordered = queue.inKeyOrder();
        connection.setAutoCommit(false);
        assertEquals(List.of("d0"), texts(ordered.claim(connection, 1)));
        try (Connection other = database().connect()) {
            assertEquals(List.of("s0"), texts(ordered.claim(other, 5)), "past the deep key's waiting messages");
        }
        connection.commit();
        connection.setAutoCommit(true);
    }

    /**
     * Competing transacted consumers with rollbacks: for every key the committed order is the send
     * order, no two messages of one key are in flight at once, and every message is delivered
     * exactly once (counted in SQL at the end).
     */
    @Test
    void competingConsumersWithRollbacksDeliverEachKeyInSendOrderOneAtATime() throws Exception {
        QueueTable q = newQueue(new RetryPolicy(1000, Duration.ofMillis(5), Duration.ofMillis(5)));
        QueueTable ordered = q.inKeyOrder();
        int keys = 20, perKey = 20, threads = 6;
        List<OutgoingMessage> batch = new ArrayList<>();
        for (int i = 0; i < perKey; i++) {
            for (int k = 0; k < keys; k++) {
                batch.add(keyed("k" + k, "k" + k + ":" + i));
            }
        }
        q.sendAll(connection, batch);
        Map<String, List<Integer>> committed = new ConcurrentHashMap<>();
        Map<String, String> inFlight = new ConcurrentHashMap<>();
        AtomicInteger overlaps = new AtomicInteger(), rollbacks = new AtomicInteger(), delivered = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> consumers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                consumers.add(pool.submit(() -> {
                    try (Connection c = database().connect()) {
                        c.setAutoCommit(false);
                        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
                        while (delivered.get() < keys * perKey && System.nanoTime() < deadline) {
                            List<QueueMessage> taken;
                            try {
                                taken = ordered.claim(c, 3);
                            } catch (SQLException e) {
                                if (!q.dialect().isLockConflict(e)) {
                                    throw e;
                                }
                                // A deadlock victim took nothing, as a delivery's rollback would (on
                                // Babelfish, whose claims wait for held rows instead of skipping them).
                                c.rollback();
                                continue;
                            }
                            if (taken.isEmpty()) {
                                c.commit();
                                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
                                continue;
                            }
                            for (QueueMessage m : taken) {
                                if (inFlight.putIfAbsent(m.orderingKey(), m.text()) != null) {
                                    overlaps.incrementAndGet();
                                }
                            }
                            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2)); // the work
                            boolean fail = ThreadLocalRandom.current().nextInt(10) == 0;
                            for (QueueMessage m : taken) {
                                if (!fail) { // before the commit: the next of the key is taken only after it
                                    committed.computeIfAbsent(m.orderingKey(), k -> Collections.synchronizedList(new ArrayList<>()))
                                            .add(Integer.parseInt(m.text().substring(m.text().indexOf(':') + 1)));
                                }
                                inFlight.remove(m.orderingKey());
                            }
                            if (fail) {
                                c.rollback();
                                rollbacks.incrementAndGet();
                                try {
                                    for (QueueMessage m : taken) {
                                        q.recordFailure(c, m, "rolled back on purpose");
                                    }
                                    c.commit();
                                } catch (SQLException e) {
                                    if (!q.dialect().isLockConflict(e)) {
                                        throw e;
                                    }
                                    c.rollback(); // the failures go uncounted; the messages are in the queue
                                }
                            } else {
                                c.commit();
                                delivered.addAndGet(taken.size());
                            }
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : consumers) {
                f.get(5, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(0, overlaps.get(), "times two messages of one key were in flight at once");
        assertTrue(rollbacks.get() > 0, "some deliveries rolled back");
        for (int k = 0; k < keys; k++) {
            List<Integer> expected = new ArrayList<>();
            for (int i = 0; i < perKey; i++) {
                expected.add(i);
            }
            assertEquals(expected, committed.get("k" + k), "committed order of key k" + k);
        }
        assertEquals(0, count(q.dialect().qualified(q.name())), "nothing left in the queue");
        assertEquals(0, count(q.dialect().qualified(q.deadLetterName())), "nothing dead-lettered");
    }

    // ---- topics ---------------------------------------------------------------------------------

    /** A topic with a unique name and its subscriptions table, made now. */
    private Topic newTopic() throws SQLException {
        Topic topic = new Topic(queue.dialect(), "tp_" + Long.toHexString(System.nanoTime()));
        topic.createIfMissing(connection);
        topics.add(topic);
        return topic;
    }

    /** A subscription to {@code topic}: its queue made first, dropped after the test. */
    private QueueTable subscribe(Topic topic, String name, String filter) throws SQLException {
        QueueTable q = new QueueTable(queue.dialect(), topic.queueOf(name).toString(), null, RetryPolicy.DEFAULT);
        q.createIfMissing(connection);
        created.add(q);
        topic.subscribe(connection, name, filter);
        return q;
    }

    /**
     * Topic names compare exactly: on a database whose collation ignores case, a publish to
     * {@code TP_X} read the subscriptions of {@code tp_x} and wrote into their queues.
     */
    @Test
    void topicsWhoseNamesDifferOnlyInCaseDoNotShareSubscriptions() throws SQLException {
        Topic topic = newTopic();
        QueueTable billing = subscribe(topic, "billing", null);
        Topic upper = new Topic(queue.dialect(), topic.name().table().toUpperCase(Locale.ROOT));

        assertEquals(List.of(), upper.subscriptions(connection));
        assertEquals(List.of(), upper.publish(connection, text("to the other topic")));
        assertFalse(upper.unsubscribe(connection, "billing"), "not its subscription");

        assertEquals(0, count(billing.dialect().qualified(billing.name())));
        assertEquals(List.of("billing"), topic.subscriptions(connection).stream().map(Topic.Subscription::name).toList());
    }

    @Test
    void aPublishedMessageReachesEverySubscriptionOnceAndARolledBackPublishReachesNone() throws SQLException {
        Topic topic = newTopic();
        QueueTable billing = subscribe(topic, "billing", null);
        QueueTable shipping = subscribe(topic, "shipping", "");
        connection.setAutoCommit(false);
        assertEquals(List.of(billing.name(), shipping.name()), topic.publish(connection, text("rolled back")));
        connection.rollback();
        assertEquals(List.of(billing.name(), shipping.name()), topic.publish(connection, keyed("k", "order 1")));
        topic.publish(connection, text("order 2"));
        connection.commit();
        connection.setAutoCommit(true);
        for (QueueTable q : List.of(billing, shipping)) {
            List<QueueMessage> got = q.claim(connection, 10);
            assertEquals(List.of("order 1", "order 2"), texts(got), "each subscription, every message once: " + q.name());
            assertEquals("k", got.get(0).orderingKey());
        }
        assertEquals(List.of("billing", "shipping"), topic.subscriptions(connection).stream()
                .map(Topic.Subscription::name).toList());
    }

    @Test
    void aPublishThatFailsHalfwayLeavesNoCopyAlsoInAutoCommit() throws SQLException {
        Topic topic = newTopic();
        QueueTable first = subscribe(topic, "a_first", null);
        QueueTable gone = subscribe(topic, "b_gone", null);
        try (Statement s = connection.createStatement()) {
            s.execute("DROP TABLE " + queue.dialect().qualified(gone.name())); // an admin's mistake
        }
        created.remove(gone);
        try (Statement s = connection.createStatement()) {
            s.execute("DROP TABLE " + queue.dialect().qualified(gone.deadLetterName()));
        }
        assertTrue(connection.getAutoCommit());
        SQLException failed = assertThrows(SQLException.class, () -> topic.publish(connection, text("all or none")));
        assertTrue(failed.getMessage().startsWith("topic " + topic.name() + ", subscription b_gone: cannot write to its"
                + " queue " + gone.name() + ": "), failed.getMessage());
        assertTrue(connection.getAutoCommit(), "auto-commit restored");
        assertEquals(0, count(queue.dialect().qualified(first.name())), "the first copy went with the failure");
        topic.unsubscribe(connection, "b_gone");
        assertEquals(List.of(first.name()), topic.publish(connection, text("after")));
    }

    @Test
    void aPublishBeforeAnySubscriptionTableExistsGoesNowhereAndLeavesTheTransactionUsable() throws SQLException {
        String schema = "tps_" + Long.toHexString(System.nanoTime());
        Dialect d = queue.dialect();
        try (Statement s = connection.createStatement()) {
            s.execute("CREATE SCHEMA " + d.quote(schema));
        }
        Topic topic = new Topic(d, schema + ".prices");
        try {
            connection.setAutoCommit(false);
            assertEquals(List.of(), topic.publish(connection, text("nobody listens")));
            queue.send(connection, text("same transaction")); // PostgreSQL: a failed statement would abort it
            connection.commit();
            connection.setAutoCommit(true);
            assertEquals(List.of("same transaction"), texts(queue.claim(connection, 10)));

            topic.createIfMissing(connection);
            QueueTable shop = subscribe(topic, "shop", null);
            assertEquals(List.of(shop.name()), topic.publish(connection, text("now somebody does")));
            assertEquals(List.of("now somebody does"), texts(shop.claim(connection, 10)));
        } finally {
            connection.setAutoCommit(true);
            try (Statement s = connection.createStatement()) {
                for (QueueTable q : List.copyOf(created)) {
                    if (schema.equals(q.name().schema())) {
                        s.execute("DROP TABLE " + d.qualified(q.name()));
                        s.execute("DROP TABLE " + d.qualified(q.deadLetterName()));
                        created.remove(q);
                    }
                }
                s.execute("DROP TABLE IF EXISTS " + d.qualified(TableName.parse(schema + "." + Topic.SUBSCRIPTIONS)));
                s.execute("DROP SCHEMA " + d.quote(schema));
            }
        }
    }

    @Test
    void aFilteredSubscriptionReceivesExactlyItsMatches() throws SQLException {
        Topic topic = newTopic();
        QueueTable all = subscribe(topic, "everything", null);
        QueueTable createdOnly = subscribe(topic, "created", "type = 'order-created'");
        QueueTable europe = subscribe(topic, "europe", "type = 'order-created' AND region IN ('eu', 'uk')");
        String[][] sent = {{"order-created", "eu"}, {"order-created", "us"}, {"order-paid", "eu"},
                {"order-created", "uk"}, {"order-created", null}};
        for (int i = 0; i < sent.length; i++) {
            OutgoingMessage.Builder m = OutgoingMessage.text("m" + i).header("type", sent[i][0]);
            topic.publish(connection, (sent[i][1] == null ? m : m.header("region", sent[i][1])).build());
        }
        assertEquals(List.of("m0", "m1", "m2", "m3", "m4"), texts(all.claim(connection, 10)));
        assertEquals(List.of("m0", "m1", "m3", "m4"), texts(createdOnly.claim(connection, 10)));
        assertEquals(List.of("m0", "m3"), texts(europe.claim(connection, 10)), "no region header: no match");
    }

    /**
     * A filter is a message selector on the headers (typed by JmsHeaders) and the JMS header fields
     * of the message published; one of the earlier form keeps its meaning, dashed names included.
     */
    @Test
    void aSubscriptionWithAMessageSelectorReceivesExactlyWhatItSelects() throws SQLException {
        Topic topic = newTopic();
        QueueTable big = subscribe(topic, "big", "JMSType = 'order' AND (amount > 1000 OR JMSPriority >= 7)");
        QueueTable grouped = subscribe(topic, "grouped", "JMSXGroupID LIKE 'cust-%' AND region NOT IN ('us')");
        QueueTable earlier = subscribe(topic, "earlier", "content-type = 'json' AND region IN ('eu', 'uk')");
        QueueTable untyped = subscribe(topic, "untyped", "quantity = '5'");
        String[] bodies = {"m0", "m1", "m2", "m3", "m4", "m5"};
        Object[][] sent = { // JMSType, amount (int), JMS priority, ordering key, region, content-type
            {"order", 5000, 4, "cust-1", "eu", "json"},
            {"order", 10, 8, null, "us", "json"},
            {"refund", 5000, 9, "cust-2", "us", "xml"},
            {"order", 10, 4, "cust-3", "uk", "json"},
            {null, null, 4, "other", "eu", null},
            {"order", 1000, 6, "cust-4", null, "json"},
        };
        for (int i = 0; i < sent.length; i++) {
            Map<String, Object> properties = new LinkedHashMap<>();
            if (sent[i][1] != null) {
                properties.put("amount", sent[i][1]);
            }
            properties.put("quantity", 5);
            if (sent[i][4] != null) {
                properties.put("region", sent[i][4]);
            }
            OutgoingMessage.Builder m = OutgoingMessage.text(bodies[i]).headers(JmsHeaders.encode(properties))
                    .priority(JmsHeaders.rowPriority((Integer) sent[i][2]));
            if (sent[i][0] != null) {
                m.header(JmsHeaders.TYPE, (String) sent[i][0]);
            }
            if (sent[i][3] != null) {
                m.orderingKey((String) sent[i][3]);
            }
            if (sent[i][5] != null) {
                m.header("content-type", (String) sent[i][5]);
            }
            topic.publish(connection, m.build());
        }
        assertEquals(List.of("m1", "m0"), texts(big.claim(connection, 10)), "m5: 1000 is not > 1000, priority 6 < 7");
        assertEquals(List.of("m0", "m3"), texts(grouped.claim(connection, 10)), "m5 has no region: NOT IN is unknown");
        assertEquals(List.of("m0", "m3"), texts(earlier.claim(connection, 10)));
        assertEquals(List.of(), texts(untyped.claim(connection, 10)), "quantity is an int property, never '5'");
        assertEquals(List.of("content-type = 'json' AND region IN ('eu', 'uk')", "quantity = '5'"),
                topic.subscriptions(connection).stream().filter(x -> x.name().startsWith("earlier")
                        || x.name().startsWith("untyped")).map(x -> x.filter().text()).toList());
    }

    // ---- consumers with a message selector ----

    private long count(QueueTable q, String where) throws SQLException {
        return count(q.dialect().qualified(q.name()) + " WHERE " + where);
    }

    private static OutgoingMessage regional(String body, String region) {
        return OutgoingMessage.text(body).header("region", region).build();
    }

    // ---- browsing (a JMS QueueBrowser's peek) ----

    /** Every message a browse shows, page after page, each page no longer than {@link Browse#PAGE}. */
    private List<QueueMessage> browseAll(QueueTable q, MessageSelector selector, Connection c) throws SQLException {
        Browse browse = q.browse(selector);
        List<QueueMessage> shown = new ArrayList<>();
        for (List<QueueMessage> page = browse.next(c); !page.isEmpty(); page = browse.next(c)) {
            assertTrue(page.size() <= Browse.PAGE, "a page of " + page.size());
            shown.addAll(page);
        }
        assertEquals(List.of(), browse.next(c), "an ended browse stays ended");
        return shown;
    }

    /**
     * A browse shows what a consumer could take now, in the order it would take it, as a delivery
     * shows it; not the message under a lease, the delayed one nor the expired one; and changes
     * nothing: the consumer then takes the same messages, as they were.
     */
    @Test
    void aBrowseShowsWhatAConsumerCouldTakeNowInDeliveryOrderAndChangesNothing() throws SQLException {
        queue.send(connection, text("leased"));
        assertEquals(1, queue.lease(connection, 1, Duration.ofMinutes(5)).size());
        queue.send(connection, OutgoingMessage.text("low 1").header("region", "eu").orderingKey("k").build());
        queue.send(connection, OutgoingMessage.text("delayed").delay(Duration.ofMinutes(5)).build());
        long expired = queue.send(connection, OutgoingMessage.text("expired").timeToLive(Duration.ofHours(1)).build());
        queue.send(connection, OutgoingMessage.text("urgent").priority(5).build());
        queue.send(connection, text("low 2"));
        try (Statement s = connection.createStatement()) { // its time to live ran out, by the database's clock
            s.executeUpdate("UPDATE " + queue.dialect().qualified(queue.name()) + " SET expires_at = enqueued_at"
                    + " WHERE id = " + expired);
        }

        List<QueueMessage> shown = browseAll(queue, null, connection);
        assertEquals(List.of("urgent", "low 1", "low 2"), texts(shown));
        QueueMessage low1 = shown.get(1);
        assertEquals(Map.of("region", "eu"), low1.headers());
        assertEquals("k", low1.orderingKey());
        assertEquals(1, low1.attempt(), "the delivery count a consumer would see");
        assertEquals(queue.name().toString(), low1.queue());
        assertEquals(5, shown.get(0).priority());

        assertEquals(3, count(queue, "attempts = 0 AND lease_token IS NULL AND hidden IS NULL"
                + " AND (expires_at IS NULL OR expires_at > enqueued_at)"), "nothing changed");
        assertEquals(List.of("urgent", "low 1", "low 2"), texts(queue.claim(connection, 10)), "the same, as they were");
        assertEquals(List.of(), browseAll(queue, null, connection));
    }

    /**
     * A browse of more than a page goes on after the last row of each (a keyset on the dequeue
     * order), showing every message once, in order; with a selector it shows exactly what a
     * consumer with that selector takes, however deep behind others its messages wait.
     */
    @Test
    void aBrowsePagesThroughTheQueueAndFiltersAsAConsumerWithItsSelectorTakes() throws SQLException {
        List<OutgoingMessage> batch = new ArrayList<>();
        for (int i = 0; i < 2 * Browse.PAGE + 50; i++) {
            batch.add(OutgoingMessage.text("m" + i).header("region", i % 60 == 59 ? "eu" : "us").priority(i % 3)
                    .build());
        }
        queue.sendAll(connection, batch);
        List<String> expected = new ArrayList<>();
        for (int priority = 2; priority >= 0; priority--) {
            for (int i = 0; i < batch.size(); i++) {
                if (i % 3 == priority) {
                    expected.add("m" + i);
                }
            }
        }
        assertEquals(expected, texts(browseAll(queue, null, connection)));

        MessageSelector eu = MessageSelector.parse("region = 'eu' AND JMSXDeliveryCount = 1");
        List<String> selected = texts(browseAll(queue, eu, connection));
        assertEquals(4, selected.size(), selected.toString());
        assertEquals(selected, texts(queue.selecting(eu).claim(connection, 10)), "what the consumer takes");
        assertEquals(List.of(), browseAll(queue, eu, connection));
        assertEquals(batch.size() - 4, queueRows(), "the others untouched");
    }

    /**
     * A browse does not wait for rows other transactions hold: not for a consumer's claim in
     * progress, nor for another sender's insert, which it does not show; its own transaction's
     * uncommitted send it shows. (Whether it shows the row a claim in progress has deleted
     * differs: SQL Server passes over it with READPAST, PostgreSQL and H2 show the last committed
     * row until the claim commits; Babelfish reads as PostgreSQL.)
     */
    @Test
    void aBrowseWaitsForNoTransactionAndShowsNoOtherTransactionsUncommittedSend() throws Exception {
        queue.send(connection, text("in delivery"));
        queue.send(connection, text("ready"));
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (Connection consumer = database().connect(); Connection sender = database().connect()) {
            consumer.setAutoCommit(false);
            sender.setAutoCommit(false);
            assertEquals(List.of("in delivery"), texts(queue.claim(consumer, 1)));
            queue.send(sender, text("not committed"));
            connection.setAutoCommit(false);
            queue.send(connection, text("own send"));
            List<String> shown = pool.submit(() -> texts(browseAll(queue, null, connection))).get(30, TimeUnit.SECONDS);
            assertEquals(List.of("ready", "own send"), shown.stream().filter(t -> !t.equals("in delivery")).toList(),
                    "all: " + shown);
            connection.rollback();
            sender.rollback();
            consumer.commit();
        } finally {
            pool.shutdownNow();
            connection.setAutoCommit(true);
        }
        assertEquals(List.of("ready"), texts(browseAll(queue, null, connection)));
    }

    /**
     * A consumer with a selector claims, leases and holds only the messages it selects; the others
     * stay as they were (never locked, changed nor counted) for a consumer that takes them.
     */
    @Test
    void aSelectingConsumerTakesOnlyItsMessagesAndLeavesTheOthersUntouched() throws SQLException {
        List<OutgoingMessage> batch = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            batch.add(regional("m" + i, i % 3 == 0 ? "eu" : "us"));
        }
        queue.sendAll(connection, batch);
        QueueTable eu = queue.selecting(MessageSelector.parse("region = 'eu'"));
        connection.setAutoCommit(false);
        assertEquals(List.of("m0", "m3"), texts(eu.claim(connection, 2)));
        assertEquals(List.of("m6", "m9"), texts(eu.lease(connection, 5, Duration.ofMinutes(1)).stream()
                .map(LeasedMessage::message).toList()));
        assertEquals(List.of(), eu.hold(connection, 5, null), "none of its own is left");
        connection.commit();
        assertEquals(8, count(queue, "attempts = 0 AND lease_token IS NULL AND hidden IS NULL"),
                "the 8 other messages untouched");
        assertEquals(2, count(queue, "lease_token IS NOT NULL"), "the two leased");
        assertEquals(List.of("m1", "m2", "m4", "m5", "m7", "m8", "m10", "m11"), texts(queue.claim(connection, 20)));
        connection.commit();
    }

    /**
     * A consumer that takes one message in a hundred reads the ready rows until it finds its own:
     * a take behind thousands of others still finds the first of its own, in the dequeue order.
     */
    @Test
    void aSelectingClaimFindsItsMessagesBehindThousandsOfOthers() throws SQLException {
        List<OutgoingMessage> batch = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            batch.add(regional("us " + i, "us"));
        }
        batch.add(regional("eu 1", "eu"));
        batch.add(OutgoingMessage.text("eu urgent").header("region", "eu").priority(5).build());
        batch.add(regional("eu 2", "eu"));
        queue.sendAll(connection, batch);
        QueueTable eu = queue.selecting(MessageSelector.parse("region = 'eu'"));
        assertEquals(List.of("eu urgent", "eu 1"), texts(eu.claim(connection, 2)));
        assertEquals(List.of("eu 2"), texts(eu.claim(connection, 8)));
        assertEquals(List.of(), eu.claim(connection, 1));
        assertEquals(3000, count(queue, "attempts = 0"), "the others untouched");
    }

    /**
     * Two consumers whose selectors take different messages, each in an open transaction, never
     * take or wait for each other's: the one's claim locks nothing the other selects.
     */
    @Test
    void consumersWithDisjointSelectorsShareAQueueWithoutTouchingEachOthersMessages() throws SQLException {
        List<Long> ids = new ArrayList<>();
        for (long id : queue.sendAll(connection, List.of(regional("eu 1", "eu"), regional("us 1", "us"),
                regional("eu 2", "eu"), regional("us 2", "us")))) {
            ids.add(id);
        }
        QueueTable eu = queue.selecting(MessageSelector.parse("region = 'eu'"));
        QueueTable us = queue.selecting(MessageSelector.parse("region <> 'eu'"));
        try (Connection other = database().connect()) {
            connection.setAutoCommit(false);
            other.setAutoCommit(false);
            assertEquals(List.of("eu 1", "eu 2"), texts(eu.claim(connection, 5)));
            assertEquals(List.of("us 1", "us 2"), texts(us.claim(other, 5)), "claimed while the eu claim is open");
            other.rollback();
            connection.commit();
        }
        assertEquals(2, queueRows(), "the us messages, back after the rollback");
        assertEquals(2, count(queue, "attempts = 0"));
        assertEquals(List.of("us 1", "us 2"), texts(us.claim(connection, 5)));
        connection.commit();
    }

    /** A second selecting hold in one transaction goes on after the first's last message, passing over the others. */
    @Test
    void aSecondSelectingHoldGoesOnAfterTheFirst() throws SQLException {
        queue.sendAll(connection, List.of(regional("eu 1", "eu"), regional("us 1", "us"), regional("eu 2", "eu"),
                regional("us 2", "us"), regional("eu 3", "eu")));
        QueueTable eu = queue.selecting(MessageSelector.parse("region = 'eu'"));
        connection.setAutoCommit(false);
        List<HeldMessage> first = eu.hold(connection, 2, null);
        assertEquals(List.of("eu 1", "eu 2"), heldTexts(first));
        List<HeldMessage> second = eu.hold(connection, 2, first.get(1));
        assertEquals(List.of("eu 3"), heldTexts(second));
        assertEquals(3, eu.deleteHeld(connection, List.of(first.get(0), first.get(1), second.get(0))));
        connection.commit();
        assertEquals(List.of("us 1", "us 2"), texts(queue.claim(connection, 5)));
        connection.commit();
    }

    /**
     * With ordered delivery, a selecting consumer may take only the first message of a key: one it
     * does not select holds the key until another consumer has taken it.
     */
    @Test
    void inKeyOrderASelectingConsumerWaitsForTheFirstMessageOfAKeyToBeTakenByAnother() throws SQLException {
        queue.sendAll(connection, List.of(OutgoingMessage.text("k eu").header("region", "eu").orderingKey("k").build(),
                OutgoingMessage.text("k us").header("region", "us").orderingKey("k").build(),
                OutgoingMessage.text("free us").header("region", "us").build()));
        QueueTable ordered = queue.inKeyOrder();
        QueueTable us = ordered.selecting(MessageSelector.parse("region = 'us'"));
        assertEquals(List.of("free us"), texts(us.claim(connection, 5)), "k us waits behind k eu");
        assertEquals(List.of("k eu"), texts(ordered.selecting(MessageSelector.parse("region = 'eu'"))
                .claim(connection, 5)));
        assertEquals(List.of("k us"), texts(us.claim(connection, 5)));
    }

    /** The JMS header fields a selector names come from the row: priority, id, delivery count, group. */
    @Test
    void aSelectorReadsTheRowsHeaderFields() throws Exception {
        RetryPolicy retry = new RetryPolicy(5, Duration.ZERO, Duration.ZERO);
        QueueTable q = newQueue(retry);
        long[] ids = q.sendAll(connection, List.of(OutgoingMessage.text("low").build(),
                OutgoingMessage.text("high").priority(7).build(), OutgoingMessage.text("keyed").orderingKey("g-1").build(),
                OutgoingMessage.text("typed").header(JmsHeaders.TYPE, "car").header(JmsHeaders.CORRELATION_ID, "c-9")
                        .build()));
        connection.setAutoCommit(false);
        assertEquals(List.of("low"), texts(q.selecting(MessageSelector.parse("JMSMessageID = 'ID:" + q.name() + ":"
                + ids[0] + "'")).claim(connection, 5)));
        connection.rollback();
        connection.setAutoCommit(true);
        assertEquals(List.of("high"), texts(q.selecting(MessageSelector.parse("JMSPriority > 4")).claim(connection, 5)));
        assertEquals(List.of("keyed"), texts(q.selecting(MessageSelector.parse("JMSXGroupID = 'g-1'"))
                .claim(connection, 5)));
        assertEquals(List.of("typed"), texts(q.selecting(MessageSelector.parse("JMSType = 'car' AND JMSCorrelationID"
                + " = 'c-9' AND JMSDeliveryMode = 'PERSISTENT' AND JMSTimestamp > 0")).claim(connection, 5)));
        QueueTable retried = q.selecting(MessageSelector.parse("JMSXDeliveryCount > 1"));
        assertEquals(List.of(), retried.claim(connection, 5), "\"low\" was never delivered");
        LeasedMessage low = q.lease(connection, 1, Duration.ofMinutes(1)).get(0);
        q.nack(connection, low, "failed once");
        List<String> taken = new ArrayList<>();
        Await.until(Duration.ofSeconds(30), "the failed message is ready again", () -> {
            q.revealDue(connection);
            taken.addAll(texts(retried.claim(connection, 5)));
            return !taken.isEmpty();
        });
        assertEquals(List.of("low"), taken, "delivered before: its next delivery is its second");
        assertEquals(0, count(q, "1 = 1"));
    }

    /** A row no consumer could decode is taken by a selecting claim too, to be dead-lettered with its reason. */
    @Test
    void aSelectingClaimDeadLettersARowWhoseHeadersCannotBeRead() throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement("INSERT INTO " + queue.dialect().qualified(queue.name())
                + " (headers, body) VALUES (?, ?)")) {
            ps.setString(1, "{not json");
            ps.setBytes(2, "broken".getBytes(StandardCharsets.UTF_8));
            ps.executeUpdate();
        }
        queue.send(connection, regional("mine", "eu"));
        assertEquals(List.of("mine"), texts(queue.selecting(MessageSelector.parse("region = 'eu'")).claim(connection, 5)));
        assertEquals(0, queueRows());
        assertEquals(1, deadLetterRows());
    }

    @Test
    void aSubscriptionGetsOnlyWhatIsPublishedWhileItExists() throws SQLException {
        Topic topic = newTopic();
        assertEquals(List.of(), topic.publish(connection, text("before")), "no subscription: it goes nowhere");
        QueueTable late = subscribe(topic, "late", null);
        topic.publish(connection, text("while subscribed"));
        topic.subscribe(connection, "late", "type = 'x'"); // subscribing again changes the filter
        topic.publish(connection, text("filtered out"));
        assertTrue(topic.unsubscribe(connection, "late"));
        assertFalse(topic.unsubscribe(connection, "late"), "gone already");
        topic.publish(connection, OutgoingMessage.text("after").header("type", "x").build());
        assertEquals(List.of("while subscribed"), texts(late.claim(connection, 10)));
        assertEquals(List.of(), topic.subscriptions(connection));
    }

    @Test
    void badTopicsSubscriptionsAndFiltersAreRefusedNamingTheProblem() {
        Dialect d = queue.dialect();
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new Topic(d, "prices; DROP TABLE x"))
                .getMessage().startsWith("topic name 'prices; DROP TABLE x' is not valid"));
        assertEquals("subscription name 'a-b' is not valid: use letters, digits and underscores",
                assertThrows(IllegalArgumentException.class, () -> new Topic(d, "prices").queueOf("a-b")).getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new Topic(d, "p".repeat(40)).queueOf("s".repeat(10)))
                .getMessage().contains("longer than 48 characters"));
        assertEquals("subscription filter: unexpected end (expected an identifier, a literal or '(') at 7 in: type =",
                assertThrows(IllegalArgumentException.class, () -> new Topic(d, "prices").subscribe(connection, "s",
                        "type =")).getMessage(), "refused before any SQL runs");
        assertTrue(SubscriptionFilter.parse("note = 'it''s' and r in ('a','b')").matches(Map.of("note", "it's", "r", "b")));
    }

    // ---- expiry ---------------------------------------------------------------------------------

    @Test
    void aMessageWhoseTimeToLiveRanOutIsNeverDeliveredAndEndsInTheDeadLetterTableAsExpired() throws Exception {
        Duration ttl = Duration.ofMillis(1500);
        Instant sent = Instant.now();
        for (String path : List.of("claimed", "leased", "held")) {
            queue.send(connection, OutgoingMessage.text("expires " + path).timeToLive(ttl).build());
        }
        queue.send(connection, OutgoingMessage.text("lives an hour").timeToLive(Duration.ofHours(1)).build());
        queue.send(connection, text("lives forever"));
        Await.until(Duration.ofSeconds(20), "the time to live has run out", // one clock here: the database's host
                () -> Instant.now().isAfter(sent.plus(ttl).plusMillis(200)));

        assertEquals(List.of(), texts(queue.claim(connection, 1)), "the claim took an expired message: not delivered");
        assertEquals(List.of(), queue.lease(connection, 1, Duration.ofMinutes(1)), "so did the lease");
        connection.setAutoCommit(false);
        assertEquals(List.of("lives an hour"), heldTexts(queue.hold(connection, 1, null)),
                "the hold went on past the expired one");
        connection.commit();
        connection.setAutoCommit(true);
        assertEquals(List.of("lives an hour", "lives forever"), texts(queue.claim(connection, 10)));
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT last_error, COUNT(*) FROM " + queue.dialect().qualified(queue.deadLetterName())
                        + " GROUP BY last_error")) {
            assertTrue(rs.next());
            assertEquals(QueueTable.EXPIRED, rs.getString(1));
            assertEquals(3, rs.getLong(2), "the three expired messages, dead-lettered once each");
            assertFalse(rs.next());
        }
        assertEquals(0, queueRows());
    }

    @Test
    void theExpirySweepMovesExpiredMessagesWhereverTheyWaitButLeavesLiveAndLeasedOnes() throws Exception {
        Duration ttl = Duration.ofMillis(1500);
        Instant sent = Instant.now();
        queue.send(connection, OutgoingMessage.text("leased, expiring").timeToLive(ttl).build());
        assertEquals(1, queue.lease(connection, 1, Duration.ofMinutes(5)).size());
        queue.send(connection, text("lives"));
        queue.send(connection, OutgoingMessage.text("expires").timeToLive(ttl).build());
        queue.send(connection, OutgoingMessage.text("expires while delayed").delay(Duration.ofMillis(1000))
                .timeToLive(ttl).build());
        queue.send(connection, OutgoingMessage.text("behind its key").orderingKey("k").timeToLive(ttl).build());
        Await.until(Duration.ofSeconds(20), "the time to live has run out",
                () -> Instant.now().isAfter(sent.plus(ttl).plusMillis(300)));
        assertEquals(4, queue.stats(connection).expired(), "the queue bean's figure: expired, still in the table");

        assertEquals(3, queue.sweepExpired(connection), "all but the leased one");
        assertEquals(0, queue.sweepExpired(connection), "nothing left to sweep");
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery("SELECT last_error, COUNT(*) FROM "
                + queue.dialect().qualified(queue.deadLetterName()) + " GROUP BY last_error")) {
            assertTrue(rs.next());
            assertEquals(QueueTable.EXPIRED, rs.getString(1));
            assertEquals(3, rs.getLong(2));
            assertFalse(rs.next());
        }
        assertEquals(2, queueRows(), "the live message, and the leased one whose delivery is in flight");
        assertEquals(1, queue.stats(connection).expired());
    }

    @Test
    void aQueueDiscardingExpiredMessagesDeletesThemOnEveryPath() throws Exception {
        QueueTable discarding = queue.discardingExpired();
        Duration ttl = Duration.ofMillis(1500);
        Instant sent = Instant.now();
        for (String path : List.of("claimed", "leased", "held")) {
            queue.send(connection, OutgoingMessage.text(path).timeToLive(ttl).build());
        }
        queue.send(connection, text("lives"));
        queue.send(connection, OutgoingMessage.text("swept").timeToLive(ttl).build());
        Await.until(Duration.ofSeconds(20), "the time to live has run out",
                () -> Instant.now().isAfter(sent.plus(ttl).plusMillis(300)));
        assertEquals(List.of(), texts(discarding.claim(connection, 1)));
        assertEquals(List.of(), discarding.lease(connection, 1, Duration.ofMinutes(1)));
        connection.setAutoCommit(false);
        assertEquals(List.of("lives"), heldTexts(discarding.hold(connection, 1, null)));
        connection.commit(); // the discard commits; "lives" stays, only held
        connection.setAutoCommit(true);
        assertEquals(1, discarding.sweepExpired(connection));
        assertEquals(0, deadLetterRows(), "discarded, not dead-lettered");
        assertEquals(List.of("lives"), texts(discarding.claim(connection, 10)));
        assertEquals(0, queueRows());
    }

    @Test
    void aQueueTableOfTheShapeBeforeExpiryOrderingAndHiddenRowsGainsTheirColumnsAndKeepsItsMessagesInOrder()
            throws Exception {
        String t = queue.dialect().qualified(queue.name());
        boolean sqlServer = queue.dialect().name().equals("sqlserver");
        try (Statement s = connection.createStatement()) { // the shapes of the releases before
            for (String suffix : List.of("_ordering", "_expiry", "_ready", "_hidden")) {
                String index = queue.dialect().quote(queue.name().table() + suffix);
                s.execute(sqlServer ? "DROP INDEX " + index + " ON " + t : "DROP INDEX " + index);
            }
            s.execute("ALTER TABLE " + t + " DROP COLUMN expires_at");
            s.execute("ALTER TABLE " + t + " DROP COLUMN ordering_key");
            s.execute("ALTER TABLE " + t + " DROP COLUMN hidden");
            s.execute("ALTER TABLE " + queue.dialect().qualified(queue.deadLetterName()) + " DROP COLUMN ordering_key");
            if (!sqlServer) { // SQL Server's is the clustered index, which stays
                s.execute("CREATE INDEX " + queue.dialect().quote(queue.name().table() + "_dequeue") + " ON " + t
                        + " (priority DESC, id)");
            }
        }
        assertFalse(hasIndexOn(queue, "ordering_key"));
        assertFalse(hasIndexOn(queue, "expires_at"));
        assertEquals(0, indexesLeadingWith(queue, "hidden") + indexesLeadingWith(queue, "visible_at"));
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO " + t + " (priority, body) VALUES (?, ?)")) {
            for (int i = 0; i < 100; i++) {
                insert.setInt(1, i % 3 == 0 ? 1 : 0);
                insert.setBytes(2, ("m" + i).getBytes(StandardCharsets.UTF_8));
                insert.executeUpdate();
            }
        }
        queue.createIfMissing(connection);
        queue.createIfMissing(connection); // again, as every later start does: nothing left to change
        assertTrue(hasIndexOn(queue, "ordering_key"), "the populated table got its ordering index");
        assertTrue(hasIndexOn(queue, "expires_at"), "and its expiry index");
        assertEquals(2, indexesLeadingWith(queue, "hidden") + indexesLeadingWith(queue, "visible_at"),
                "and the ready index and the index of hidden rows (on H2 both lead with hidden)");

        queue.send(connection, OutgoingMessage.text("m100").timeToLive(Duration.ofHours(1)).orderingKey("k").build());
        queue.send(connection, OutgoingMessage.text("tomorrow").delay(Duration.ofDays(1)).build());
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 100; i += 3) {
            expected.add("m" + i); // priority 1 first, each priority in send order
        }
        for (int i = 0; i < 100; i++) {
            if (i % 3 != 0) {
                expected.add("m" + i);
            }
        }
        expected.add("m100");
        assertEquals(expected, texts(queue.inKeyOrder().claim(connection, 200)), "none lost, none reordered");
    }

    private int indexesLeadingWith(QueueTable q, String firstColumn) throws SQLException {
        int n = 0;
        try (ResultSet rs = connection.getMetaData().getIndexInfo(null, q.name().schema(), q.name().table(), false, false)) {
            while (rs.next()) {
                if (firstColumn.equalsIgnoreCase(rs.getString("COLUMN_NAME")) && rs.getShort("ORDINAL_POSITION") == 1) {
                    n++;
                }
            }
        }
        return n;
    }

    private boolean hasIndexOn(QueueTable q, String firstColumn) throws SQLException {
        return indexesLeadingWith(q, firstColumn) > 0;
    }

    @Test
    void higherPriorityFirstThenFifo() throws SQLException {
        queue.send(connection, text("a"));
        queue.send(connection, OutgoingMessage.text("c").priority(5).build());
        queue.send(connection, text("b"));
        queue.send(connection, OutgoingMessage.text("d").priority(1).build());
        queue.send(connection, OutgoingMessage.text("z").priority(-3).build());

        assertEquals(List.of("c", "d"), texts(queue.claim(connection, 2)));
        assertEquals(List.of("a", "b", "z"), texts(queue.claim(connection, 10)));
    }

    /** A claim, a lease and a hold give each message its priority and, by the database's clock, its expiry. */
    @Test
    void aDeliveredMessageCarriesItsPriorityAndExpiry() throws Exception {
        Instant before = Instant.now().minusSeconds(3600); // the database's clock may differ a little from ours
        for (int i = 0; i < 3; i++) {
            queue.send(connection, OutgoingMessage.text("expiring " + i).priority(-2 - i)
                    .timeToLive(Duration.ofHours(2)).build());
            queue.send(connection, OutgoingMessage.text("lasting " + i).priority(7 - i).build());
        }
        List<QueueMessage> got = new ArrayList<>(queue.claim(connection, 2));
        got.addAll(queue.lease(connection, 2, Duration.ofMinutes(5)).stream().map(LeasedMessage::message).toList());
        connection.setAutoCommit(false);
        try {
            got.addAll(queue.hold(connection, 2, null).stream().map(HeldMessage::message).toList());
        } finally {
            connection.rollback();
            connection.setAutoCommit(true);
        }
        assertEquals(List.of("lasting 0", "lasting 1", "lasting 2", "expiring 0", "expiring 1", "expiring 2"),
                texts(got), "claimed, leased, held");
        assertEquals(List.of(7, 6, 5, -2, -3, -4), got.stream().map(QueueMessage::priority).toList());
        for (QueueMessage m : got) {
            if (m.text().startsWith("lasting")) {
                assertNull(m.expiresAt(), m.text());
            } else {
                long left = Duration.between(m.enqueuedAt(), m.expiresAt()).toMillis();
                assertTrue(Math.abs(left - Duration.ofHours(2).toMillis()) < 1000, "enqueued_at plus the time to live: "
                        + m.enqueuedAt() + " " + m.expiresAt());
                assertTrue(m.expiresAt().isAfter(before.plus(Duration.ofHours(2))), m.expiresAt().toString());
            }
        }
    }

    @Test
    void delayedMessagesStayInvisibleUntilTheirTime() throws Exception {
        queue.send(connection, OutgoingMessage.text("later").delay(Duration.ofSeconds(3)).build());
        queue.send(connection, text("now"));

        assertEquals(List.of("now"), texts(queue.claim(connection, 10)));
        assertFalse(queue.peek(connection));
        assertEquals(1, queue.stats(connection).delayed());

        List<QueueMessage> later = new ArrayList<>();
        Await.until(Duration.ofSeconds(20), "the delayed message is visible", () -> {
            queue.revealDue(connection); // as every poller does
            later.addAll(queue.claim(connection, 10));
            return !later.isEmpty();
        });
        assertEquals(List.of("later"), texts(later));
    }

    @Test
    void aMessageDelayedASecondOrMoreIsHiddenUntilARevealAfterItsTime() throws Exception {
        queue.send(connection, OutgoingMessage.text("later").delay(QueueTable.HIDDEN_FROM).priority(9).build());
        queue.send(connection, OutgoingMessage.text("soon").delay(QueueTable.HIDDEN_FROM.minusMillis(1)).build());
        assertEquals(Arrays.asList(1, null), hiddenColumn(), "only the delay of a second or more hides its message");

        Await.until(Duration.ofSeconds(20), "both messages' time has come", () -> queue.stats(connection).ready() == 2);
        assertEquals(List.of("soon"), texts(queue.claim(connection, 10)),
                "a hidden message is not claimed, though its time has come, until it is revealed");
        assertFalse(queue.peek(connection), "nor does a peek see it");
        assertEquals(1, queue.revealDue(connection));
        assertEquals(Collections.singletonList(null), hiddenColumn());
        assertTrue(queue.peek(connection));
        assertEquals(List.of("later"), texts(queue.claim(connection, 10)));
        assertEquals(0, queue.revealDue(connection), "nothing left to reveal");
    }

    @Test
    void aRevealLeavesHiddenMessagesWhoseTimeHasNotCome() throws SQLException {
        queue.send(connection, OutgoingMessage.text("tomorrow").delay(Duration.ofDays(1)).build());
        queue.send(connection, text("leased"));
        assertEquals(List.of("leased"), queue.lease(connection, 10, Duration.ofHours(1)).stream()
                .map(m -> m.message().text()).toList());
        assertEquals(0, queue.revealDue(connection));
        assertEquals(List.of(1, 1), hiddenColumn());
    }

    /** The queue's {@code hidden} column, in id order. */
    private List<Integer> hiddenColumn() throws SQLException {
        List<Integer> values = new ArrayList<>();
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT hidden FROM " + queue.dialect().qualified(queue.name()) + " ORDER BY id")) {
            while (rs.next()) {
                int v = rs.getInt(1);
                values.add(rs.wasNull() ? null : v);
            }
        }
        return values;
    }

    @Test
    void aLongDelayIsAccepted() throws SQLException {
        queue.send(connection, OutgoingMessage.text("next year").delay(Duration.ofDays(400)).build());
        assertEquals(1, queue.stats(connection).delayed());
        assertTrue(queue.claim(connection, 1).isEmpty());
    }

    // ---- dedup and batches --------------------------------------------------------------------

    @Test
    void aDuplicateDedupKeyReturnsTheExistingIdAndWritesNothing() throws SQLException {
        long first = queue.send(connection, OutgoingMessage.text("one").dedupKey("order-42").build());
        long second = queue.send(connection, OutgoingMessage.text("two").dedupKey("order-42").build());
        long other = queue.send(connection, OutgoingMessage.text("three").dedupKey("order-43").build());

        assertEquals(first, second);
        assertNotEquals(first, other);
        assertEquals(2, queueRows());
        assertEquals(List.of("one", "three"), texts(queue.claim(connection, 10)));

        long afterConsumed = queue.send(connection, OutgoingMessage.text("four").dedupKey("order-42").build());
        assertNotEquals(first, afterConsumed, "dedup covers messages still in the queue");
    }

    /**
     * Keys that Java tells apart but a database's collation may not: case (SQL Server's and Azure
     * SQL's default collations, and Babelfish's, ignore it), accents, and trailing spaces (which SQL
     * Server's = ignores under every collation).
     */
    private static final List<String> KEYS_THAT_DIFFER = List.of("order-42", "ORDER-42", "Order-42", "order-42 ",
            "order-42  ", "ordér-42", "order-4２");

    @Test
    void dedupKeysCompareExactlyAsJavaDoes() throws SQLException {
        Map<String, Long> ids = new LinkedHashMap<>();
        for (String key : KEYS_THAT_DIFFER) {
            ids.put(key, queue.send(connection, OutgoingMessage.text(key).dedupKey(key).build()));
        }
        assertEquals(KEYS_THAT_DIFFER.size(), new HashSet<>(ids.values()).size(), "each key its own message: " + ids);
        assertEquals(KEYS_THAT_DIFFER.size(), queueRows(), "each key stored");
        for (String key : KEYS_THAT_DIFFER) {
            assertEquals(ids.get(key), queue.send(connection, OutgoingMessage.text("again").dedupKey(key).build()),
                    "the same key again is deduplicated against itself alone: '" + key + "'");
        }
        assertEquals(KEYS_THAT_DIFFER.size(), queueRows(), "nothing more stored");
        List<QueueMessage> claimed = queue.claim(connection, 100);
        assertEquals(KEYS_THAT_DIFFER, texts(claimed), "each message with its own body, in send order");
        for (QueueMessage m : claimed) {
            assertEquals(ids.get(m.text()), m.id());
        }
    }

    @Test
    void orderingKeysCompareExactlyAsJavaDoes() throws SQLException {
        QueueTable ordered = queue.inKeyOrder();
        for (String key : KEYS_THAT_DIFFER) {
            ordered.send(connection, OutgoingMessage.text(key).orderingKey(key).build());
        }
        ordered.send(connection, OutgoingMessage.text("second of order-42").orderingKey("order-42").build());
        assertEquals(KEYS_THAT_DIFFER, texts(ordered.claim(connection, 100)), "the head of each key and no more: no"
                + " key waits behind another that only a collation calls the same, order-42's second behind its first");
        assertEquals(List.of("second of order-42"), texts(ordered.claim(connection, 100)));
    }

    @Test
    void aDeadLetterIsRequeuedPastQueuedMessagesWhoseDedupKeysDifferFromItsOnlyByCollation() throws SQLException {
        QueueTable q = oneAttemptQueue();
        deadLetter(q, List.of(OutgoingMessage.text("dead").dedupKey("k-1").build()));
        q.send(connection, OutgoingMessage.text("queued").dedupKey("K-1").build());
        q.send(connection, OutgoingMessage.text("queued too").dedupKey("k-1 ").build());

        assertEquals(1, q.deadLetters().requeue(connection, 10, "ops"), "no queued message has exactly its key");

        assertEquals(0, deadLetterRowsOf(q));
        assertEquals(Set.of("dead", "queued", "queued too"), new HashSet<>(texts(q.claim(connection, 10))));
    }

    @Test
    void aDuplicateInsideTheSameTransactionReturnsTheSameId() throws SQLException {
        connection.setAutoCommit(false);
        long first = queue.send(connection, OutgoingMessage.text("one").dedupKey("k").build());
        long again = queue.send(connection, OutgoingMessage.text("two").dedupKey("k").build());
        long plain = queue.send(connection, text("plain"));
        connection.commit();
        assertEquals(first, again);
        assertTrue(plain > first, "the transaction survived the duplicate");
        assertEquals(2, queueRows());
    }

    @Test
    void concurrentSendsOfOneDedupKeyWriteOneRow() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<Long>> ids = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                int n = i;
                ids.add(pool.submit(() -> {
                    try (Connection c = database().connect()) {
                        return queue.send(c, OutgoingMessage.text("copy " + n).dedupKey("same").build());
                    }
                }));
            }
            Set<Long> distinct = new HashSet<>();
            for (Future<Long> f : ids) {
                distinct.add(f.get(60, TimeUnit.SECONDS));
            }
            assertEquals(1, distinct.size(), "every sender got the one id: " + distinct);
        } finally {
            pool.shutdownNow();
        }
        assertEquals(1, queueRows());
    }

    @Test
    void sendAllReturnsIdsInOrderAndKeepsFifo() throws SQLException {
        List<OutgoingMessage> batch = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            batch.add(OutgoingMessage.text("m" + i).header("n", Integer.toString(i)).build());
        }
        long[] ids = queue.sendAll(connection, batch);

        assertEquals(1000, ids.length);
        for (int i = 1; i < ids.length; i++) {
            assertTrue(ids[i] > ids[i - 1], "ids increase in batch order");
        }
        List<QueueMessage> claimed = new ArrayList<>();
        for (List<QueueMessage> got; !(got = queue.claim(connection, 300)).isEmpty(); ) {
            claimed.addAll(got);
        }
        assertEquals(1000, claimed.size());
        for (int i = 0; i < 1000; i++) {
            assertEquals(ids[i], claimed.get(i).id());
            assertEquals("m" + i, claimed.get(i).text());
            assertEquals(Integer.toString(i), claimed.get(i).headers().get("n"));
        }
    }

    @Test
    void sendAllWithDedupKeysAndDelays() throws SQLException {
        long existing = queue.send(connection, OutgoingMessage.text("first").dedupKey("d1").build());
        long[] ids = queue.sendAll(connection, List.of(
                text("a"),
                OutgoingMessage.text("dup").dedupKey("d1").build(),
                OutgoingMessage.text("b").priority(2).build(),
                OutgoingMessage.text("delayed").delay(Duration.ofHours(1)).build(),
                OutgoingMessage.text("c").dedupKey("d2").build()));

        assertEquals(existing, ids[1], "the duplicate returns the existing id");
        assertEquals(5, Arrays.stream(ids).distinct().count());
        assertEquals(List.of("b", "first", "a", "c"), texts(queue.claim(connection, 10)));
        assertEquals(1, queue.stats(connection).delayed());
    }

    @Test
    void emptySendAllWritesNothing() throws SQLException {
        assertEquals(0, queue.sendAll(connection, List.of()).length);
        assertEquals(0, queueRows());
    }

    // ---- leases -------------------------------------------------------------------------------

    @Test
    void anUnacknowledgedLeaseIsRedeliveredAndItsLateAckIsRefused() throws Exception {
        long id = queue.send(connection, text("work"));

        // Long enough for the two checks below to run inside it on a loaded build machine.
        LeasedMessage first = queue.lease(connection, 1, Duration.ofSeconds(2)).get(0);
        assertEquals(id, first.message().id());
        assertEquals(1, first.message().attempt());
        assertTrue(queue.lease(connection, 1, Duration.ofSeconds(2)).isEmpty(), "invisible during the lease");
        assertEquals(1, queue.stats(connection).leased());

        List<LeasedMessage> second = new ArrayList<>();
        Await.until(Duration.ofSeconds(20), "the lease runs out", () -> {
            queue.revealDue(connection);
            second.addAll(queue.lease(connection, 1, Duration.ofMinutes(5)));
            return !second.isEmpty();
        });
        assertEquals(id, second.get(0).message().id());
        assertEquals(2, second.get(0).message().attempt());

        assertFalse(queue.ack(connection, first), "the stale holder's ack deletes nothing");
        assertEquals(1, queueRows());
        assertEquals(FailureOutcome.STALE, queue.nack(connection, first, "late"));
        assertTrue(queue.ack(connection, second.get(0)));
        assertEquals(0, queueRows());
        assertFalse(queue.ack(connection, second.get(0)), "acknowledging twice says so");
    }

    /**
     * A renewal extends the leases still held, in one batch, resuming one that ran out but that no
     * one took, and returns those taken over by another consumer or gone, changing nothing of theirs.
     */
    @Test
    void aRenewalExtendsTheLeasesStillHeldAndReturnsThoseTakenOver() throws Exception {
        for (int i = 0; i < 3; i++) {
            queue.send(connection, text("m" + i));
        }
        List<LeasedMessage> leased = queue.lease(connection, 3, Duration.ofMinutes(5));
        assertEquals(3, leased.size());
        LeasedMessage kept = leased.get(0), takenOver = leased.get(1), acknowledged = leased.get(2);
        String q = queue.dialect().qualified(queue.name());
        try (PreparedStatement ps = connection.prepareStatement("UPDATE " + q + " SET lease_token = ? WHERE id = ?")) {
            ps.setLong(1, takenOver.leaseToken() ^ 1); // another consumer's lease
            ps.setLong(2, takenOver.message().id());
            assertEquals(1, ps.executeUpdate());
        }
        assertTrue(queue.ack(connection, acknowledged));
        // kept's lease ran out an hour ago, and no one has taken the message yet
        setTime(queue, queue.name(), "visible_at", kept.message().id(), Instant.now().minus(Duration.ofHours(1)));

        assertEquals(List.of(takenOver, acknowledged), queue.renew(connection, leased, Duration.ofMinutes(5)));
        queue.revealDue(connection);
        assertEquals(List.of(), queue.lease(connection, 3, Duration.ofMinutes(1)),
                "the renewed lease hides its message again, the one taken over is still the other consumer's");
        assertEquals(List.of(1, 1), hiddenColumn());
        assertEquals(List.of(takenOver), queue.renew(connection, List.of(takenOver), Duration.ofMinutes(1)),
                "one alone, the same");
        assertEquals(FailureOutcome.STALE, queue.nack(connection, takenOver, "too late"));
        assertTrue(queue.ack(connection, kept), "the renewed lease is still its holder's");
        assertEquals(1, queueRows(), "the message taken over is the other consumer's");
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery("SELECT attempts FROM " + q)) {
            assertTrue(rs.next());
            assertEquals(1, rs.getInt(1), "a renewal counts no attempt");
        }
    }

    @Test
    void aCancelTakesAMessageWhoseLeaseRanOutAndTheLateAckFindsNothing() throws Exception {
        long id = queue.send(connection, OutgoingMessage.text("work").dedupKey("work-1").build());
        // Long enough for the check below to run inside it on a loaded build machine.
        LeasedMessage lease = queue.lease(connection, 1, Duration.ofSeconds(2)).get(0);
        assertEquals(new Cancellation(Cancellation.Outcome.LEASED, id), queue.cancelByDedupKey(connection, "work-1"));

        Await.until(Duration.ofSeconds(20), "the lease runs out and the cancel takes the message",
                () -> queue.cancel(connection, id).outcome() == Cancellation.Outcome.CANCELLED);
        assertFalse(queue.ack(connection, lease), "the consumer whose lease ran out finds nothing");
        assertEquals(0, queueRows());
        assertEquals(0, deadLetterRows());
    }

    /**
     * A cancel of a message another transaction holds (a batch reader's hold, a transacted
     * consumer's claim) passes over it without waiting and reports it held; once the holder
     * rolls back it is cancelled, once it commits it is gone. Run by the H2 and PostgreSQL
     * subclasses: Babelfish ignores READPAST, so its cancel waits for the holder, and only a real
     * SQL Server shows SQL Server's.
     */
    protected void aCancelPassesOverAMessageAnotherTransactionHolds() throws Exception {
        long held = queue.send(connection, OutgoingMessage.text("held").dedupKey("held-1").build());
        long claimed = queue.send(connection, text("claimed"));
        try (Connection reader = database().connect(); Connection consumer = database().connect()) {
            reader.setAutoCommit(false);
            consumer.setAutoCommit(false);
            assertEquals(List.of("held"), heldTexts(queue.hold(reader, 1, null)));
            assertEquals(List.of("claimed"), texts(queue.claim(consumer, 1)));

            assertEquals(new Cancellation(Cancellation.Outcome.HELD, held), queue.cancel(connection, held));
            assertEquals(new Cancellation(Cancellation.Outcome.HELD, held), queue.cancelByDedupKey(connection, "held-1"));
            assertEquals(new Cancellation(Cancellation.Outcome.HELD, claimed), queue.cancel(connection, claimed),
                    "deleted by a transaction that may still roll back: held, not gone");

            reader.rollback();
            consumer.commit();
        }
        assertEquals(Cancellation.Outcome.CANCELLED, queue.cancelByDedupKey(connection, "held-1").outcome());
        assertEquals(Cancellation.Outcome.NOT_QUEUED, queue.cancel(connection, claimed).outcome(), "delivered");
        assertEquals(0, queueRows());
        assertEquals(0, deadLetterRows());
    }

    @Test
    void aLeaseOfUnattemptedMessagesPassesOverThoseAlreadyAttempted() throws Exception {
        QueueTable q = newQueue(new RetryPolicy(3, Duration.ZERO, Duration.ZERO));
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            ids.add(q.send(connection, text("m" + i)));
        }
        LeasedMessage first = q.lease(connection, 1, Duration.ofMinutes(1)).get(0);
        assertEquals(ids.get(0), first.message().id());
        assertEquals(FailureOutcome.RETRY_SCHEDULED, q.nack(connection, first, "failed once"));

        List<LeasedMessage> unattempted = q.leaseUnattempted(connection, 10, Duration.ofMinutes(1), m -> { });
        assertEquals(ids.subList(1, 4), unattempted.stream().map(m -> m.message().id()).toList(),
                "the message already attempted is passed over, though it is first and ready");
        unattempted.forEach(m -> assertEquals(1, m.message().attempt()));
        assertTrue(q.leaseUnattempted(connection, 10, Duration.ofMinutes(1), m -> { }).isEmpty());

        List<LeasedMessage> again = q.lease(connection, 10, Duration.ofMinutes(1));
        assertEquals(List.of(ids.get(0)), again.stream().map(m -> m.message().id()).toList(), "a plain lease takes it");
        assertEquals(2, again.get(0).message().attempt());
    }

    @Test
    void aNackSchedulesARetryWithBackoffAndRecordsTheError() throws Exception {
        QueueTable q = newQueue(new RetryPolicy(3, Duration.ofSeconds(2), Duration.ofSeconds(10)));
        q.send(connection, text("flaky"));

        LeasedMessage m = q.lease(connection, 1, Duration.ofMinutes(1)).get(0);
        assertEquals(FailureOutcome.RETRY_SCHEDULED, q.nack(connection, m, "connection refused"));

        QueueStats stats = q.stats(connection);
        assertEquals(0, stats.ready());
        assertEquals(1, stats.delayed(), "waiting out its back-off, no longer leased");
        assertEquals(0, stats.leased());
        try (Statement s = connection.createStatement();
                ResultSet rs = s.executeQuery("SELECT last_error, attempts FROM " + q.dialect().qualified(q.name()))) {
            rs.next();
            assertEquals("connection refused", rs.getString(1));
            assertEquals(1, rs.getInt(2));
        }
        List<LeasedMessage> retried = new ArrayList<>();
        Await.until(Duration.ofSeconds(20), "the back-off ends", () -> {
            q.revealDue(connection);
            retried.addAll(q.lease(connection, 1, Duration.ofMinutes(1)));
            return !retried.isEmpty();
        });
        assertEquals(2, retried.get(0).message().attempt());
    }

    @Test
    void aPoisonMessageIsDeadLetteredAfterMaxAttemptsAndNeverBlocksTheOthers() throws SQLException {
        QueueTable q = newQueue(new RetryPolicy(3, Duration.ZERO, Duration.ZERO));
        q.send(connection, text("poison"));
        for (int i = 0; i < 5; i++) {
            q.send(connection, text("good " + i));
        }

        List<String> done = new ArrayList<>();
        List<FailureOutcome> poisonOutcomes = new ArrayList<>();
        for (int round = 0; round < 50 && done.size() < 5; round++) {
            for (LeasedMessage m : q.lease(connection, 1, Duration.ofMinutes(1))) {
                if (m.message().text().equals("poison")) {
                    poisonOutcomes.add(q.nack(connection, m, "cannot parse order (attempt " + m.message().attempt() + ")"));
                } else {
                    assertTrue(q.ack(connection, m));
                    done.add(m.message().text());
                }
            }
        }

        assertEquals(List.of("good 0", "good 1", "good 2", "good 3", "good 4"), done);
        assertEquals(List.of(FailureOutcome.RETRY_SCHEDULED, FailureOutcome.RETRY_SCHEDULED,
                FailureOutcome.DEAD_LETTERED), poisonOutcomes);
        assertEquals(0, count(q.dialect().qualified(q.name())));
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT body, attempts, last_error, failed_at FROM " + q.dialect().qualified(q.deadLetterName()))) {
            assertTrue(rs.next());
            assertEquals("poison", new String(rs.getBytes(1), java.nio.charset.StandardCharsets.UTF_8));
            assertEquals(3, rs.getInt(2));
            assertEquals("cannot parse order (attempt 3)", rs.getString(3));
            assertTrue(rs.getObject(4) != null);
            assertFalse(rs.next());
        }
        assertEquals(1, q.stats(connection).deadLettered());
    }

    @Test
    void aLeaseThatRunsOutOnTheLastAttemptEndsInTheDeadLetterTable() throws Exception {
        QueueTable q = newQueue(new RetryPolicy(1, Duration.ZERO, Duration.ZERO));
        q.send(connection, text("crashes its consumer"));
        q.send(connection, text("fine"));
        assertEquals(1, q.lease(connection, 1, Duration.ofMillis(200)).size()); // never acked

        List<String> later = new ArrayList<>();
        Await.until(Duration.ofSeconds(20), "the expired lease is dead-lettered", () -> {
            for (LeasedMessage m : q.lease(connection, 10, Duration.ofMinutes(1))) {
                later.add(m.message().text());
                q.ack(connection, m);
            }
            return q.stats(connection).deadLettered() == 1;
        });
        assertEquals(List.of("fine"), later);
        assertEquals(0, count(q.dialect().qualified(q.name())));
        assertEquals("never completed: delivered 1 time, and the lease of the last ran out, held by " + QueueTable.HOLDER
                + " (newest first): that server stopped, or the delivery outlived its lease", deadLetterReason(q));
    }

    /**
     * Each lease that runs out puts its holder before the ones before it; the dead-letter reason
     * names them all. A failure in between clears them: it is recorded as the last error instead.
     */
    @Test
    void theDeadLetterReasonNamesTheHoldersWhoseLeasesRanOut() throws Exception {
        QueueTable q = newQueue(new RetryPolicy(3, Duration.ZERO, Duration.ZERO));
        q.send(connection, text("crashes its consumers"));
        q.nack(connection, q.lease(connection, 1, Duration.ofMinutes(1)).get(0), "failed once");
        for (int lapse = 1; lapse <= 2; lapse++) {
            Await.until(Duration.ofSeconds(20), "the message comes back", () -> !q.lease(connection, 1, Duration.ofMillis(50))
                    .isEmpty()); // and its lease runs out
        }
        Await.until(Duration.ofSeconds(20), "the lapsed message is dead-lettered", () -> {
            q.lease(connection, 1, Duration.ofMinutes(1));
            return q.stats(connection).deadLettered() == 1;
        });
        assertEquals("never completed: delivered 3 times, and the leases of the last 2 ran out, held by " + QueueTable.HOLDER
                + ", " + QueueTable.HOLDER + " (newest first): that server stopped, or the delivery outlived its lease",
                deadLetterReason(q));
    }

    /** A row written with its attempts past maxAttempts is dead-lettered unread, saying so, not as leases run out. */
    @Test
    void aRowThatArrivesWithItsAttemptsSpentIsDeadLetteredSayingSo() throws Exception {
        QueueTable q = newQueue(new RetryPolicy(3, Duration.ZERO, Duration.ZERO));
        long id = q.send(connection, text("copied from another queue"));
        try (Statement s = connection.createStatement()) {
            s.executeUpdate("UPDATE " + q.dialect().qualified(q.name()) + " SET attempts = 7 WHERE id = " + id);
        }
        assertEquals(List.of(), q.lease(connection, 1, Duration.ofMinutes(1)));
        assertEquals("arrived with its attempts spent: its row said 7 attempts, and maxAttempts is 3 (written so by hand"
                + " or by another program, or maxAttempts was lowered); not delivered", deadLetterReason(q));
    }

    private String deadLetterReason(QueueTable q) throws SQLException {
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT last_error FROM " + q.dialect().qualified(q.deadLetterName()))) {
            assertTrue(rs.next(), "a dead letter");
            return rs.getString(1);
        }
    }

    @Test
    void concurrentLeasesInAutoCommitNeverShareAMessage() throws Exception {
        int messages = 2000;
        List<OutgoingMessage> batch = new ArrayList<>();
        for (int i = 0; i < messages; i++) {
            batch.add(text("m" + i));
        }
        queue.sendAll(connection, batch);
        Set<Long> leased = ConcurrentHashMap.newKeySet();
        AtomicInteger twice = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> consumers = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                consumers.add(pool.submit(() -> {
                    try (Connection c = database().connect()) { // auto-commit, as a non-transacted consumer
                        for (List<LeasedMessage> got; !(got = queue.lease(c, 3, Duration.ofMinutes(5))).isEmpty(); ) {
                            for (LeasedMessage m : got) {
                                if (!leased.add(m.message().id())) {
                                    twice.incrementAndGet();
                                }
                            }
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : consumers) {
                f.get(5, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(0, twice.get(), "messages leased by two consumers at once");
        assertEquals(messages, leased.size());
    }

    // ---- transacted failure accounting --------------------------------------------------------

    @Test
    void recordFailureAfterRollbackCountsTheAttemptThenDeadLetters() throws Exception {
        QueueTable q = newQueue(new RetryPolicy(2, Duration.ofSeconds(2), Duration.ofSeconds(5)));
        q.send(connection, text("fails twice"));
        q.send(connection, text("behind it"));
        connection.setAutoCommit(false);

        QueueMessage first = q.claim(connection, 1).get(0);
        connection.rollback();
        assertEquals(FailureOutcome.RETRY_SCHEDULED, q.recordFailure(connection, first, "boom 1"));
        connection.commit();
        assertEquals(FailureOutcome.STALE, q.recordFailure(connection, first, "counted twice?"),
                "a second record for the same delivery changes nothing");
        connection.commit();

        assertEquals(List.of("behind it"), texts(q.claim(connection, 5)), "the failed one waits out its back-off");
        connection.commit();

        List<QueueMessage> second = new ArrayList<>();
        Await.until(Duration.ofSeconds(20), "the back-off ends", () -> {
            q.revealDue(connection);
            second.addAll(q.claim(connection, 1));
            if (second.isEmpty()) {
                connection.commit(); // each poll its own transaction, as a poller's (H2's clock stands still in one)
            }
            return !second.isEmpty();
        });
        assertEquals(2, second.get(0).attempt());
        connection.rollback();
        assertEquals(FailureOutcome.DEAD_LETTERED, q.recordFailure(connection, second.get(0), "boom 2"));
        connection.commit();

        assertEquals(0, count(q.dialect().qualified(q.name())));
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT attempts, last_error FROM " + q.dialect().qualified(q.deadLetterName()))) {
            assertTrue(rs.next());
            assertEquals(2, rs.getInt(1));
            assertEquals("boom 2", rs.getString(2));
        }
        connection.commit();
    }

    /** A failure that is not the message's (its consumer's circuit breaker is open): back later, uncounted. */
    @Test
    void aPostponedLeaseKeepsItsAttemptCountAndComesBackAfterTheDelay() throws Exception {
        QueueTable q = newQueue(new RetryPolicy(2, Duration.ZERO, Duration.ZERO));
        long id = q.send(connection, text("its consumer's dependency is down"));
        q.send(connection, text("behind it"));
        LeasedMessage leased = q.lease(connection, 1, Duration.ofMinutes(1)).get(0);
        assertEquals(id, leased.message().id());

        assertTrue(q.postpone(connection, leased, Duration.ofSeconds(2), "the stock service is down"));
        assertFalse(q.postpone(connection, leased, Duration.ofSeconds(2), "twice?"), "the lease is no longer this one's");
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT attempts, last_error FROM " + q.dialect().qualified(q.name()) + " WHERE id = " + id)) {
            assertTrue(rs.next());
            assertEquals(0, rs.getInt(1), "the attempt of the lease taken back");
            assertEquals("the stock service is down", rs.getString(2));
        }
        List<LeasedMessage> next = q.lease(connection, 5, Duration.ofMinutes(1));
        assertEquals(List.of("behind it"), texts(next.stream().map(LeasedMessage::message).toList()),
                "the postponed one waits out its delay; the next lease takes the others");
        assertTrue(q.ack(connection, next.get(0)));
        List<LeasedMessage> again = new ArrayList<>();
        Await.until(Duration.ofSeconds(20), "the delay ends", () -> {
            q.revealDue(connection);
            again.addAll(q.lease(connection, 1, Duration.ofMinutes(1)));
            return !again.isEmpty();
        });
        assertEquals(id, again.get(0).message().id());
        assertEquals(1, again.get(0).message().attempt(), "still its first attempt: the postponement counted none");
        assertThrows(IllegalArgumentException.class, () -> q.postpone(connection, again.get(0), Duration.ofMillis(-1), "x"));
    }

    @Test
    void aPostponedClaimAfterItsRollbackKeepsItsAttemptCountUnlessAnotherDeliveryCountedIt() throws Exception {
        QueueTable q = newQueue(new RetryPolicy(2, Duration.ZERO, Duration.ZERO));
        long id = q.send(connection, text("its consumer's dependency is down"));
        q.send(connection, text("behind it"));
        connection.setAutoCommit(false);
        QueueMessage first = q.claim(connection, 1).get(0);
        assertEquals(id, first.id());
        connection.rollback();
        assertTrue(q.postpone(connection, first, Duration.ofSeconds(2), "the stock service is down"));
        connection.commit();

        assertEquals(List.of("behind it"), texts(q.claim(connection, 5)), "the postponed one waits out its delay");
        connection.commit();
        List<QueueMessage> second = new ArrayList<>();
        Await.until(Duration.ofSeconds(20), "the delay ends", () -> {
            q.revealDue(connection);
            second.addAll(q.claim(connection, 1));
            if (second.isEmpty()) {
                connection.commit(); // each poll its own transaction, as a poller's (H2's clock stands still in one)
            }
            return !second.isEmpty();
        });
        assertEquals(1, second.get(0).attempt(), "still its first attempt: the postponement counted none");
        connection.rollback();
        assertEquals(FailureOutcome.RETRY_SCHEDULED, q.recordFailure(connection, second.get(0), "counted"));
        connection.commit();
        assertFalse(q.postpone(connection, second.get(0), Duration.ofSeconds(2), "late"),
                "counted by another delivery since: left as that one set it");
        connection.commit();
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT attempts, last_error FROM " + q.dialect().qualified(q.name()) + " WHERE id = " + id)) {
            assertTrue(rs.next());
            assertEquals(1, rs.getInt(1));
            assertEquals("counted", rs.getString(2));
        }
        connection.commit();
        connection.setAutoCommit(true);
    }

    @Test
    void anErrorTextWithANulCharacterIsStillRecorded() throws SQLException {
        QueueTable q = newQueue(new RetryPolicy(1, Duration.ZERO, Duration.ZERO));
        q.send(connection, text("binary junk in its error"));
        connection.setAutoCommit(false);
        QueueMessage m = q.claim(connection, 1).get(0);
        connection.rollback();
        assertEquals(FailureOutcome.DEAD_LETTERED, q.recordFailure(connection, m, "bad byte \0 here"),
                "PostgreSQL rejects NUL in text: it is replaced, not a reason to lose the record");
        connection.commit();
        connection.setAutoCommit(true);
    }

    @Test
    void recordFailureOnAMessageSomeoneElseCompletedIsStale() throws SQLException {
        queue.send(connection, text("x"));
        QueueMessage m = queue.claim(connection, 1).get(0); // auto-commit: consumed
        assertEquals(FailureOutcome.STALE, queue.recordFailure(connection, m, "too late"));
        assertEquals(0, deadLetterRows());
    }

    @Test
    void errorTextIsTruncatedToTheColumn() throws SQLException {
        QueueTable q = newQueue(new RetryPolicy(1, Duration.ZERO, Duration.ZERO));
        q.send(connection, text("x"));
        LeasedMessage m = q.lease(connection, 1, Duration.ofMinutes(1)).get(0);
        assertEquals(FailureOutcome.DEAD_LETTERED, q.nack(connection, m, "e".repeat(5000)));
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT last_error FROM " + q.dialect().qualified(q.deadLetterName()))) {
            rs.next();
            assertEquals(2000, rs.getString(1).length());
        }
    }

    // ---- the concurrency contract ---------------------------------------------------------------

    @Test
    void manyProducersAndConsumersDeliverEveryCommittedMessageExactlyOnce() throws Exception {
        Babelfish.assumeNotBabelfish(connection, Babelfish.IGNORES_READPAST + " (here the claims wait for each other's"
                + " rows and deadlock, which Babelfish reports with its own error code, not 1205)");
        int producers = 16, consumers = 16, perProducer = 1250; // 20,000 committed messages
        QueueTable q = newQueue(new RetryPolicy(1000, Duration.ZERO, Duration.ZERO));
        Set<String> sent = ConcurrentHashMap.newKeySet();
        Set<String> delivered = ConcurrentHashMap.newKeySet();
        AtomicInteger duplicates = new AtomicInteger(), rolledBack = new AtomicInteger(), producing = new AtomicInteger(producers);
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);

        Callable<Void> producer = () -> {
            try (Connection c = database().connect()) {
                c.setAutoCommit(false);
                ThreadLocalRandom random = ThreadLocalRandom.current();
                String me = Thread.currentThread().getName();
                int committed = 0, tx = 0;
                while (committed < perProducer) {
                    int size = Math.min(random.nextInt(1, 40), perProducer - committed);
                    List<OutgoingMessage> batch = new ArrayList<>();
                    for (int i = 0; i < size; i++) {
                        batch.add(OutgoingMessage.text(me + "/" + tx + "/" + i).priority(random.nextInt(3)).build());
                    }
                    if (size == 1) {
                        q.send(c, batch.get(0));
                    } else {
                        q.sendAll(c, batch);
                    }
                    if (random.nextInt(20) == 0) {
                        c.rollback(); // these must never be delivered
                    } else {
                        c.commit();
                        batch.forEach(m -> sent.add(new String(m.body(), java.nio.charset.StandardCharsets.UTF_8)));
                        committed += size;
                    }
                    tx++;
                }
            } finally {
                producing.decrementAndGet();
            }
            return null;
        };
        Callable<Void> consumer = () -> {
            try (Connection c = database().connect()) {
                c.setAutoCommit(false);
                ThreadLocalRandom random = ThreadLocalRandom.current();
                while (producing.get() > 0 || delivered.size() < sent.size()) {
                    if (System.nanoTime() > deadline) {
                        throw new AssertionError("consumers did not finish: " + delivered.size() + " of " + sent.size());
                    }
                    List<QueueMessage> claimed;
                    try {
                        claimed = q.claim(c, random.nextInt(1, 6));
                    } catch (SQLException e) {
                        if (!q.dialect().isLockConflict(e)) {
                            throw e;
                        }
                        // Claims that wait for each other's rows (a database that cannot skip them)
                        // can deadlock: the victim rolls back and its claim counts no attempt.
                        c.rollback();
                        continue;
                    }
                    if (claimed.isEmpty()) {
                        c.commit();
                        LockSupport.parkNanos(1_000_000);
                        continue;
                    }
                    if (random.nextInt(10) == 0) {
                        c.rollback();
                        rolledBack.incrementAndGet();
                        for (QueueMessage m : claimed) {
                            q.recordFailure(c, m, "simulated failure");
                        }
                        c.commit();
                        continue;
                    }
                    c.commit();
                    for (QueueMessage m : claimed) {
                        if (!delivered.add(m.text())) {
                            duplicates.incrementAndGet();
                        }
                    }
                }
            }
            return null;
        };

        ExecutorService pool = Executors.newFixedThreadPool(producers + consumers);
        try {
            List<Future<Void>> all = new ArrayList<>();
            for (int i = 0; i < producers; i++) {
                all.add(pool.submit(producer));
            }
            for (int i = 0; i < consumers; i++) {
                all.add(pool.submit(consumer));
            }
            for (Future<Void> f : all) {
                f.get(11, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }

        assertEquals(producers * perProducer, sent.size(), "committed sends");
        assertEquals(0, duplicates.get(), "messages delivered twice");
        assertEquals(sent, delivered, "every committed message delivered, nothing else");
        assertTrue(rolledBack.get() > 0, "some claims rolled back");
        assertEquals(0, count(q.dialect().qualified(q.name())), "the queue is empty");
        assertEquals(0, count(q.dialect().qualified(q.deadLetterName())), "nothing dead-lettered");
    }

    // ---- peek and stats -----------------------------------------------------------------------

    @Test
    void peekSeesReadyMessagesOnly() throws SQLException {
        assertFalse(queue.peek(connection));
        queue.send(connection, OutgoingMessage.text("later").delay(Duration.ofHours(1)).build());
        assertFalse(queue.peek(connection));
        queue.send(connection, text("now"));
        assertTrue(queue.peek(connection));
    }

    @Test
    void statsCountEveryState() throws Exception {
        QueueTable q = newQueue(new RetryPolicy(1, Duration.ZERO, Duration.ZERO));
        assertEquals(new QueueStats(0, 0, 0, 0, Duration.ZERO, 0), q.stats(connection));

        q.sendAll(connection, List.of(text("leased"), text("dead"), text("ready 1"), text("ready 2")));
        q.send(connection, OutgoingMessage.text("delayed").delay(Duration.ofHours(1)).build());
        List<LeasedMessage> two = q.lease(connection, 2, Duration.ofHours(1));
        q.nack(connection, two.get(1), "dead on first try");

        QueueStats stats = q.stats(connection);
        assertEquals(2, stats.ready());
        assertEquals(1, stats.delayed());
        assertEquals(1, stats.leased());
        assertEquals(1, stats.deadLettered());
        assertTrue(stats.oldestReadyAge().toMillis() >= 0 && stats.oldestReadyAge().toMinutes() < 5,
                "oldest ready age by the database clock: " + stats.oldestReadyAge());
    }

    // ---- dead-letter operations ---------------------------------------------------------------

    /** A queue whose messages are dead-lettered on their first failure. */
    private QueueTable oneAttemptQueue() throws SQLException {
        return newQueue(new RetryPolicy(1, Duration.ZERO, Duration.ZERO));
    }

    /** Sends each message to {@code q} (one attempt allowed) and dead-letters it; returns the ids. */
    private List<Long> deadLetter(QueueTable q, List<OutgoingMessage> messages) throws SQLException {
        List<Long> ids = new ArrayList<>();
        for (OutgoingMessage m : messages) {
            long id = q.send(connection, m);
            LeasedMessage leased = q.lease(connection, 1, Duration.ofMinutes(5)).get(0);
            assertEquals(id, leased.message().id());
            assertEquals(FailureOutcome.DEAD_LETTERED, q.nack(connection, leased, "failed on its only attempt"));
            ids.add(id);
        }
        return ids;
    }

    private List<OutgoingMessage> texts(String... bodies) {
        return Arrays.stream(bodies).map(QueueContract::text).toList();
    }

    /** Sets a column of one row to an instant, bound the way the engine binds timestamps. */
    private void setTime(QueueTable q, TableName table, String column, long id, Instant at) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(
                "UPDATE " + q.dialect().qualified(table) + " SET " + column + " = ? WHERE id = ?")) {
            ps.setObject(1, q.dialect().timestampParameter(at));
            ps.setLong(2, id);
            assertEquals(1, ps.executeUpdate());
        }
    }

    /** The bodies in a table, as text, in no particular order. */
    private Set<String> bodies(QueueTable q, TableName table) throws SQLException {
        Set<String> bodies = new HashSet<>();
        try (Statement s = connection.createStatement();
                ResultSet rs = s.executeQuery("SELECT body FROM " + q.dialect().qualified(table))) {
            while (rs.next()) {
                bodies.add(new String(rs.getBytes(1), StandardCharsets.UTF_8));
            }
        }
        return bodies;
    }

    /** Claims every ready message of {@code q}, in auto-commit (consumed). */
    private List<QueueMessage> drain(QueueTable q) throws SQLException {
        List<QueueMessage> all = new ArrayList<>();
        for (List<QueueMessage> got; !(got = q.claim(connection, 100)).isEmpty(); ) {
            all.addAll(got);
        }
        return all;
    }

    @Test
    void requeueMovesDeadLettersBackAsFreshMessagesKeepingTheirContent() throws SQLException {
        QueueTable q = oneAttemptQueue();
        byte[] body = {0, 1, 2, (byte) 0xff};
        OutgoingMessage rich = OutgoingMessage.bytes(body).header("type", "order").priority(3).dedupKey("order-7").build();
        List<Long> oldIds = deadLetter(q, List.of(rich, text("plain")));
        Instant enqueuedAt;
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery("SELECT enqueued_at FROM "
                + q.dialect().qualified(q.deadLetterName()) + " WHERE dedup_key = 'order-7'")) {
            assertTrue(rs.next());
            enqueuedAt = q.dialect().readInstant(rs, 1);
        }
        assertEquals(new QueueStats(0, 0, 0, 2, Duration.ZERO, 0), q.stats(connection));

        assertEquals(2, q.deadLetters().requeue(connection, 10, "ops"));

        QueueStats stats = q.stats(connection);
        assertEquals(2, stats.ready(), "ready at once");
        assertEquals(0, stats.deadLettered());
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT attempts, lease_token, last_error, dedup_key FROM " + q.dialect().qualified(q.name())
                        + " ORDER BY id")) {
            assertTrue(rs.next());
            assertEquals(0, rs.getInt(1), "attempts start again");
            assertEquals(null, rs.getObject(2));
            assertEquals("failed on its only attempt", rs.getString(3),
                    "the reason it was dead-lettered stays until a new failure replaces it");
            assertEquals("order-7", rs.getString(4));
        }
        List<QueueMessage> back = q.claim(connection, 10);
        assertEquals(2, back.size());
        QueueMessage m = back.get(0);
        assertArrayEquals(body, m.body());
        assertEquals(Map.of("type", "order"), m.headers());
        assertEquals(enqueuedAt, m.enqueuedAt(), "enqueued_at is kept");
        assertEquals(1, m.attempt(), "the full maxAttempts again");
        assertEquals("plain", back.get(1).text());
        for (QueueMessage requeued : back) {
            assertTrue(requeued.id() > oldIds.get(1), "a requeued message gets a new id: " + requeued.id());
        }
    }

    @Test
    void requeueTakesTheOldestFailuresFirstAndStopsAtMax() throws SQLException {
        QueueTable q = oneAttemptQueue();
        List<Long> ids = deadLetter(q, texts("m0", "m1", "m2", "m3", "m4"));
        Instant now = Instant.now();
        int[] minutesAgo = {2, 4, 1, 5, 3}; // failure order: m3, m1, m4, m0, m2
        for (int i = 0; i < ids.size(); i++) {
            setTime(q, q.deadLetterName(), "failed_at", ids.get(i), now.minus(minutesAgo[i], ChronoUnit.MINUTES));
        }

        assertEquals(2, q.deadLetters().requeue(connection, 2, "ops"));

        assertEquals(Set.of("m3", "m1"), new HashSet<>(texts(drain(q))));
        assertEquals(Set.of("m0", "m2", "m4"), bodies(q, q.deadLetterName()));
        assertEquals(1, q.deadLetters().requeue(connection, 1, "ops"));
        assertEquals(List.of("m4"), texts(drain(q)));
    }

    @Test
    void requeueCommitsEachBatchAndRestoresAutoCommit() throws SQLException {
        QueueTable q = oneAttemptQueue();
        deadLetter(q, texts("a", "b", "c", "d", "e", "f", "g"));
        DeadLetters inPairs = q.deadLetters().withBatchSizes(2, 2);

        CommitSpy spy = CommitSpy.on(connection);
        assertEquals(5, inPairs.requeue(spy.connection(), 5, "ops"), "max larger than a batch, smaller than the table");
        assertEquals(4, spy.commits(), "the audit table's creation, then one transaction per batch: 2 + 2 + 1");
        assertTrue(connection.getAutoCommit(), "auto-commit restored");

        connection.setAutoCommit(false);
        spy = CommitSpy.on(connection);
        assertEquals(2, inPairs.requeue(spy.connection(), 100, "ops"));
        assertEquals(3, spy.commits(), "the audit table's creation, a full batch, then an empty one that ends the work");
        assertFalse(connection.getAutoCommit(), "manual commit restored");
        connection.setAutoCommit(true);

        assertEquals(0, deadLetterRowsOf(q));
        assertEquals(Set.of("a", "b", "c", "d", "e", "f", "g"), bodies(q, q.name()));
    }

    private long deadLetterRowsOf(QueueTable q) throws SQLException {
        return count(q.dialect().qualified(q.deadLetterName()));
    }

    @Test
    void aFailedRequeueBatchIsRolledBackAndTheCommittedOnesStay() throws SQLException {
        QueueTable q = oneAttemptQueue();
        deadLetter(q, texts("a", "b", "c", "d", "e", "f", "g"));
        // the first commit is the audit table's creation; at the fourth the third batch has moved its rows, uncommitted
        CommitSpy spy = CommitSpy.failingCommit(connection, 4);

        SQLException e = assertThrows(SQLException.class,
                () -> q.deadLetters().withBatchSizes(2, 2).requeue(spy.connection(), 100, "ops"));

        assertTrue(e.getMessage().contains("simulated"), e.getMessage());
        assertTrue(connection.getAutoCommit(), "auto-commit restored after the failure");
        assertEquals(4, count(q.dialect().qualified(q.name())), "the two committed batches stay moved");
        assertEquals(3, deadLetterRowsOf(q), "the failed batch is back in the dead-letter table");
        Set<String> everywhere = new HashSet<>(bodies(q, q.name()));
        everywhere.addAll(bodies(q, q.deadLetterName()));
        assertEquals(Set.of("a", "b", "c", "d", "e", "f", "g"), everywhere, "nothing lost, nothing in both tables");

        assertEquals(3, q.deadLetters().requeue(connection, 100, "ops"), "the rest moves on the next try");
    }

    @Test
    void aDeadLetterWhoseDedupKeyIsQueuedStaysUntilTheKeyIsFree() throws SQLException {
        QueueTable q = oneAttemptQueue();
        deadLetter(q, List.of(
                OutgoingMessage.text("a").dedupKey("k1").build(),
                OutgoingMessage.text("b").dedupKey("k2").build(),
                text("c"),
                OutgoingMessage.text("d").dedupKey("k3").build(),
                OutgoingMessage.text("e").dedupKey("k3").build())); // a younger twin of d
        q.send(connection, OutgoingMessage.text("live").dedupKey("k1").build());

        assertEquals(3, q.deadLetters().requeue(connection, 100, "ops"), "b, c and the older k3");

        assertEquals(Set.of("a", "e"), bodies(q, q.deadLetterName()), "kept, not lost");
        assertEquals(Set.of("live", "b", "c", "d"), new HashSet<>(texts(drain(q))));
        assertEquals(2, q.deadLetters().requeue(connection, 100, "ops"), "the keys are free once consumed");
        assertEquals(Set.of("a", "e"), new HashSet<>(texts(drain(q))));
        assertEquals(0, deadLetterRowsOf(q));
    }

    @Test
    void aConcurrentEnqueueOfTheSameDedupKeyNeitherLosesTheDeadLetterNorFailsTheRequeue() throws Exception {
        QueueTable q = oneAttemptQueue();
        deadLetter(q, List.of(OutgoingMessage.text("dead").dedupKey("k").build(), text("other")));
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (Connection sender = database().connect()) {
            sender.setAutoCommit(false);
            q.send(sender, OutgoingMessage.text("live").dedupKey("k").build()); // not yet committed
            Future<Integer> requeue = pool.submit(() -> {
                try (Connection c = database().connect()) {
                    return q.deadLetters().requeue(c, 10, "ops");
                }
            });
            // Give the requeue time to reach the key the sender holds (where the database makes it
            // wait); committed earlier or later, the outcome must be the same.
            long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(500);
            while (!requeue.isDone() && System.nanoTime() < until) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
            }
            sender.commit();
            assertEquals(1, requeue.get(60, TimeUnit.SECONDS), "only the message without a twin in the queue");
        } finally {
            pool.shutdownNow();
        }
        assertEquals(Set.of("dead"), bodies(q, q.deadLetterName()));
        assertEquals(Set.of("live", "other"), new HashSet<>(texts(drain(q))));
    }

    @Test
    void purgeDeletesDeadLettersThatFailedBeforeTheCutoffInBatches() throws SQLException {
        QueueTable q = oneAttemptQueue();
        List<Long> ids = deadLetter(q, texts("old 1", "old 2", "new 1", "old 3", "old 4", "new 2", "old 5"));
        Instant twoDaysAgo = Instant.now().minus(Duration.ofDays(2));
        for (int i : new int[] {0, 1, 3, 4, 6}) {
            setTime(q, q.deadLetterName(), "failed_at", ids.get(i), twoDaysAgo);
        }
        q.send(connection, text("queued")); // never touched by a purge

        CommitSpy spy = CommitSpy.on(connection);
        assertEquals(5, q.deadLetters().withBatchSizes(2, 2).purgeFailedBefore(spy.connection(),
                Instant.now().minus(Duration.ofDays(1)), "ops"));
        assertEquals(4, spy.commits(), "the audit table's creation, then one transaction per batch: 2 + 2 + 1");
        assertTrue(connection.getAutoCommit());
        assertEquals(Set.of("new 1", "new 2"), bodies(q, q.deadLetterName()));

        assertEquals(0, q.deadLetters().purgeFailedBefore(connection, Instant.now().minus(Duration.ofDays(1)), "ops"));
        assertEquals(2, q.deadLetters().purgeFailedBefore(connection, Instant.now().plus(Duration.ofHours(1)), "ops"));
        assertEquals(0, deadLetterRowsOf(q));
        assertEquals(1, count(q.dialect().qualified(q.name())));
    }

    // ---- completion journal ---------------------------------------------------------------------

    private CompletionJournal newJournal(QueueTable q) throws SQLException {
        CompletionJournal journal = new CompletionJournal(q);
        journal.createIfMissing(connection);
        journals.add(journal);
        return journal;
    }

    private long journalRows(CompletionJournal journal) throws SQLException {
        return count(queue.dialect().qualified(journal.name()));
    }

    /** An entry that waited {@code queueMillis} and took {@code processingMillis}, finished at {@code completedAt}. */
    private static JournalEntry entry(long id, Instant completedAt, long queueMillis, long processingMillis,
            JournalEntry.Outcome outcome) {
        Instant claimedAt = completedAt.minusMillis(processingMillis);
        return new JournalEntry(id, claimedAt.minusMillis(queueMillis), claimedAt, completedAt, 1, outcome, "test");
    }

    @Test
    void theJournalIsOffUntilCreatedAndCreatingItTwiceIsHarmless() throws SQLException {
        CompletionJournal journal = new CompletionJournal(queue);
        assertEquals(queue.name() + "_journal", journal.name().toString());
        assertThrows(SQLException.class, () -> journalRows(journal), "creating a queue does not create its journal");

        journal.createIfMissing(connection);
        journals.add(journal);
        journal.createIfMissing(connection);

        assertEquals(0, journalRows(journal));
        assertTrue(connection.getAutoCommit());
    }

    @Test
    void journalRowsAreWrittenInTheCallersTransaction() throws SQLException {
        CompletionJournal journal = newJournal(queue);
        queue.send(connection, text("work"));
        connection.setAutoCommit(false);
        QueueMessage m = queue.claim(connection, 1).get(0);
        Instant claimedAt = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        Instant completedAt = claimedAt.plusMillis(42);
        JournalEntry done = JournalEntry.of(m, JournalEntry.Outcome.COMPLETED, claimedAt, completedAt, "server-1/worker-3");

        journal.record(connection, done);
        connection.rollback();
        assertEquals(0, journalRows(journal), "rolled back with the delivery");
        assertEquals(1, queueRows(), "and the claim with it");

        m = queue.claim(connection, 1).get(0);
        journal.record(connection, done);
        journal.recordAll(connection, List.of(
                entry(7, completedAt, 5, 6, JournalEntry.Outcome.DEAD_LETTERED),
                new JournalEntry(8, claimedAt, claimedAt, completedAt, 3, JournalEntry.Outcome.COMPLETED, "x".repeat(300))));
        journal.recordAll(connection, List.of());
        connection.commit();

        assertEquals(3, journalRows(journal));
        assertEquals(0, queueRows(), "committed with the delivery");
        Map<Long, List<Object>> rows = new HashMap<>();
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT message_id, enqueued_at, claimed_at, completed_at, attempts, outcome, consumer FROM "
                        + queue.dialect().qualified(journal.name()))) {
            while (rs.next()) {
                rows.put(rs.getLong(1), List.of(queue.dialect().readInstant(rs, 2), queue.dialect().readInstant(rs, 3),
                        queue.dialect().readInstant(rs, 4), rs.getInt(5), rs.getString(6), rs.getString(7)));
            }
        }
        connection.commit();
        assertEquals(List.of(m.enqueuedAt(), claimedAt, completedAt, 1, "completed", "server-1/worker-3"),
                rows.get(m.id()));
        assertEquals("dead_lettered", rows.get(7L).get(4));
        assertEquals(3, rows.get(8L).get(3));
        assertEquals("x".repeat(200), rows.get(8L).get(5), "a long consumer name is cut, not a failure");
    }

    @Test
    void journalRetentionDeletesOldRowsInBatches() throws SQLException {
        CompletionJournal journal = newJournal(queue);
        Instant now = Instant.now();
        List<JournalEntry> entries = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            entries.add(entry(i, now.minus(Duration.ofHours(2)).plusSeconds(i), 10, 10, JournalEntry.Outcome.COMPLETED));
        }
        entries.add(entry(100, now.minus(Duration.ofMinutes(1)), 10, 10, JournalEntry.Outcome.COMPLETED));
        entries.add(entry(101, now, 10, 10, JournalEntry.Outcome.COMPLETED));
        journal.recordAll(connection, entries);

        CommitSpy spy = CommitSpy.on(connection);
        assertEquals(7, journal.withRetentionBatch(2).deleteOlderThan(spy.connection(), Duration.ofHours(1)));
        assertEquals(4, spy.commits(), "one short transaction per batch: 2 + 2 + 2 + 1");
        assertTrue(connection.getAutoCommit());
        assertEquals(2, journalRows(journal));

        spy = CommitSpy.on(connection);
        assertEquals(0, journal.deleteOlderThan(spy.connection(), Duration.ofHours(1)));
        assertEquals(1, spy.commits(), "nothing to do costs one statement");
        assertEquals(2, journalRows(journal));
    }

    @Test
    void perMinuteTimingsReportCountsAveragesAndP95() throws SQLException {
        Babelfish.assumeNotBabelfish(connection, "Babelfish refuses PERCENTILE_CONT … OVER (PARTITION BY …)"
                + " (\"OVER is not supported for ordered-set aggregate\"), SQL Server's only form of it");
        CompletionJournal journal = newJournal(queue);
        Instant minuteA = Instant.now().truncatedTo(ChronoUnit.MINUTES).minus(Duration.ofMinutes(10));
        Instant minuteB = minuteA.plus(Duration.ofMinutes(1));
        long[] queueMillis = {100, 200, 300, 400, 500};
        long[] processingMillis = {10, 20, 30, 40, 1000};
        List<JournalEntry> entries = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            entries.add(entry(i, minuteA.plusSeconds(5 + 10 * i), queueMillis[i], processingMillis[i],
                    i == 2 ? JournalEntry.Outcome.DEAD_LETTERED : JournalEntry.Outcome.COMPLETED));
        }
        entries.add(entry(10, minuteB.plusSeconds(10), 50, 5, JournalEntry.Outcome.COMPLETED));
        entries.add(entry(11, minuteA.minus(Duration.ofHours(3)), 99999, 99999, JournalEntry.Outcome.COMPLETED));
        journal.recordAll(connection, entries);

        List<List<Object>> report = new ArrayList<>();
        try (Statement s = connection.createStatement();
                ResultSet rs = s.executeQuery(journal.perMinuteTimingsSql(Duration.ofHours(1)))) {
            while (rs.next()) {
                report.add(List.of(queue.dialect().readInstant(rs, 1), rs.getLong(2), rs.getLong(3),
                        rs.getDouble(4), rs.getDouble(5), rs.getDouble(6), rs.getDouble(7)));
            }
        }

        assertEquals(2, report.size(), "two minutes in the window, the old row outside it: " + report);
        // 5 rows: averages 300 and 220; p95 interpolates between the 4th and 5th values at 0.8.
        assertMinute(report.get(0), minuteA, 5, 1, 300, 480, 220, 808);
        assertMinute(report.get(1), minuteB, 1, 0, 50, 50, 5, 5);
    }

    private static void assertMinute(List<Object> row, Instant minute, long messages, long deadLettered,
            double avgQueue, double p95Queue, double avgProcessing, double p95Processing) {
        assertEquals(minute, row.get(0), "minute_start");
        assertEquals(messages, row.get(1), "messages");
        assertEquals(deadLettered, row.get(2), "dead_lettered");
        assertEquals(avgQueue, (double) row.get(3), 1e-6, "avg_queue_ms");
        assertEquals(p95Queue, (double) row.get(4), 1e-6, "p95_queue_ms");
        assertEquals(avgProcessing, (double) row.get(5), 1e-6, "avg_processing_ms");
        assertEquals(p95Processing, (double) row.get(6), 1e-6, "p95_processing_ms");
    }

    @Test
    void unfinishedDeliveriesListFailedAndAbandonedClaimsOnly() throws SQLException {
        QueueTable q = newQueue(new RetryPolicy(5, Duration.ofHours(1), Duration.ofHours(1)));
        CompletionJournal journal = new CompletionJournal(q); // the report reads the queue table only
        q.sendAll(connection, texts("leased now", "lease ran out", "nacked", "failed, ready again", "never claimed"));
        Map<String, LeasedMessage> leased = new HashMap<>();
        for (LeasedMessage m : q.lease(connection, 4, Duration.ofHours(1))) {
            leased.put(m.message().text(), m);
        }
        Instant aMinuteAgo = Instant.now().minus(Duration.ofMinutes(1));
        setTime(q, q.name(), "visible_at", leased.get("lease ran out").message().id(), aMinuteAgo);
        assertEquals(FailureOutcome.RETRY_SCHEDULED, q.nack(connection, leased.get("nacked"), "timeout"));
        assertEquals(FailureOutcome.RETRY_SCHEDULED, q.nack(connection, leased.get("failed, ready again"), "refused"));
        setTime(q, q.name(), "visible_at", leased.get("failed, ready again").message().id(), aMinuteAgo);

        Map<Long, List<Object>> unfinished = new LinkedHashMap<>();
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(journal.unfinishedDeliveriesSql())) {
            while (rs.next()) {
                unfinished.put(rs.getLong("id"), List.of(rs.getInt("attempts"), String.valueOf(rs.getString("last_error")),
                        rs.getString("reason")));
            }
        }

        Map<Long, List<Object>> expected = new LinkedHashMap<>();
        expected.put(leased.get("lease ran out").message().id(), List.of(1, "null", "lease_expired"));
        expected.put(leased.get("nacked").message().id(), List.of(1, "timeout", "retry_scheduled"));
        expected.put(leased.get("failed, ready again").message().id(), List.of(1, "refused", "retry_ready"));
        assertEquals(expected, unfinished, "oldest first; the live lease and the unclaimed message are not listed");
    }

    @Test
    void operatorToolsRejectBadArgumentsBeforeAnySql() throws SQLException {
        CompletionJournal journal = newJournal(queue);
        assertThrows(IllegalArgumentException.class, () -> queue.deadLetters().requeue(connection, 0, "ops"));
        assertThrows(NullPointerException.class, () -> queue.deadLetters().purgeFailedBefore(connection, null, "ops"));
        assertThrows(IllegalArgumentException.class, () -> journal.deleteOlderThan(connection, Duration.ZERO));
        assertThrows(IllegalArgumentException.class, () -> journal.perMinuteTimingsSql(Duration.ofSeconds(59)));
        Instant t = Instant.now();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new JournalEntry(1, t, t, t, 0, JournalEntry.Outcome.COMPLETED, null));
        assertTrue(e.getMessage().contains("attempts"), e.getMessage());
        List<JournalEntry> withNull = new ArrayList<>(List.of(entry(1, t, 1, 1, JournalEntry.Outcome.COMPLETED)));
        withNull.add(null);
        e = assertThrows(IllegalArgumentException.class, () -> journal.recordAll(connection, withNull));
        assertTrue(e.getMessage().contains("entries[1]"), e.getMessage());
        assertEquals(0, journalRows(journal), "a bad batch writes none of its rows");
    }

    // ---- bad input ----------------------------------------------------------------------------

    @Test
    void badQueueNamesAreRejectedBeforeAnySql() {
        Dialect dialect = queue.dialect();
        for (String bad : new String[] {"orders; DROP TABLE x", "a]b", "\"x\"", "a b", "1st", "a.b.c", "", ".x",
                "x".repeat(49)}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> new QueueTable(dialect, bad, null, RetryPolicy.DEFAULT));
            assertTrue(e.getMessage().contains("queue name"), e.getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> new QueueTable(dialect, null, null, RetryPolicy.DEFAULT));
        assertThrows(IllegalArgumentException.class,
                () -> new QueueTable(dialect, "orders", "orders; DROP TABLE y", RetryPolicy.DEFAULT));
        assertThrows(IllegalArgumentException.class, () -> new QueueTable(dialect, "orders", "orders", RetryPolicy.DEFAULT));
    }

    /**
     * The planner's statistics of a queue table holding messages: gathered where the database has
     * none (PostgreSQL), present where it gathers them itself; asked again, present.
     */
    @Test
    void plannerStatisticsOfAFilledTableAreGatheredOnceWhereMissing() throws SQLException {
        queue.send(connection, OutgoingMessage.text("a").build());
        queue.send(connection, OutgoingMessage.text("b").build());
        QueueTable.PlannerStatistics first = queue.gatherPlannerStatistics(connection);
        assertTrue(first == QueueTable.PlannerStatistics.GATHERED || first == QueueTable.PlannerStatistics.PRESENT,
                "first look: " + first);
        assertEquals(QueueTable.PlannerStatistics.PRESENT, queue.gatherPlannerStatistics(connection));
        assertEquals(2, queueRows(), "the messages stay");
    }

    @Test
    void badMessagesAndSettingsAreRejectedAndNothingIsWritten() throws SQLException {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> OutgoingMessage.bytes(null));
        assertTrue(e.getMessage().contains("body"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> OutgoingMessage.text(null));
        e = assertThrows(IllegalArgumentException.class,
                () -> OutgoingMessage.text("x").delay(Duration.ofSeconds(-1)));
        assertTrue(e.getMessage().contains("delay"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new RetryPolicy(0, Duration.ZERO, Duration.ZERO));
        assertTrue(e.getMessage().contains("maxAttempts"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> OutgoingMessage.text("x").priority(40000));
        assertThrows(IllegalArgumentException.class, () -> OutgoingMessage.text("x").dedupKey("k".repeat(201)));
        assertThrows(IllegalArgumentException.class, () -> OutgoingMessage.text("x").header("", "v"));
        e = assertThrows(IllegalArgumentException.class, () -> OutgoingMessage.text("x").timeToLive(Duration.ZERO));
        assertTrue(e.getMessage().contains("timeToLive"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> OutgoingMessage.text("x")
                .timeToLive(Duration.ofSeconds(5)).delay(Duration.ofSeconds(5)).build());
        assertTrue(e.getMessage().contains("expire before it could be delivered"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> queue.claim(connection, 0));
        assertThrows(IllegalArgumentException.class, () -> queue.lease(connection, 1, Duration.ZERO));

        List<OutgoingMessage> withNull = new ArrayList<>(List.of(text("a"), text("b")));
        withNull.add(null);
        e = assertThrows(IllegalArgumentException.class, () -> queue.sendAll(connection, withNull));
        assertTrue(e.getMessage().contains("messages[2]"), e.getMessage());
        assertEquals(0, queueRows(), "a bad batch writes none of its messages");
    }

    /**
     * A journal of the shape before trace propagation gains its nullable trace_id column at the next
     * start, keeping its rows; a row records the producer's trace id from the message's traceparent
     * header, and null without one.
     */
    @Test
    void aJournalOfTheShapeBeforeTracingGainsTraceIdAndRecordsTheProducersTraceId() throws SQLException {
        CompletionJournal journal = newJournal(queue);
        String j = queue.dialect().qualified(journal.name());
        Instant t = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        try (Statement s = connection.createStatement()) {
            s.execute("ALTER TABLE " + j + " DROP COLUMN trace_id");
            s.execute("INSERT INTO " + j + " (message_id, enqueued_at, claimed_at, completed_at, attempts, outcome)"
                    + " SELECT -1, enqueued_at, enqueued_at, enqueued_at, 1, 'completed' FROM (SELECT "
                    + queue.dialect().now() + " AS enqueued_at) AS clock");
        }
        journal.createIfMissing(connection);
        journal.createIfMissing(connection); // again, as every later start does: nothing left to change
        String traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
        queue.send(connection, OutgoingMessage.text("traced")
                .header(JournalEntry.TRACEPARENT, "00-" + traceId + "-00f067aa0ba902b7-01").build());
        queue.send(connection, text("untraced"));
        for (QueueMessage m : queue.claim(connection, 2)) {
            journal.record(connection, JournalEntry.of(m, JournalEntry.Outcome.COMPLETED, t, t, "test"));
        }
        Map<Long, String> traceIds = new HashMap<>();
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT message_id, trace_id FROM " + j)) {
            while (rs.next()) {
                traceIds.put(rs.getLong(1), rs.getString(2));
            }
        }
        assertEquals(3, traceIds.size(), "the earlier row kept: " + traceIds);
        assertNull(traceIds.get(-1L), "an earlier row has none");
        assertEquals(1, traceIds.values().stream().filter(traceId::equals).count(), traceIds.toString());
        assertEquals(2, traceIds.values().stream().filter(java.util.Objects::isNull).count(), traceIds.toString());
        assertThrows(IllegalArgumentException.class, () -> new JournalEntry(1, t, t, t, 1,
                JournalEntry.Outcome.COMPLETED, null, "not a trace id"));
    }
}
