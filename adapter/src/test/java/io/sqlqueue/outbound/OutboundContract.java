package io.sqlqueue.outbound;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sqlqueue.api.MessageInDeliveryException;
import io.sqlqueue.api.OutgoingMessage;
import io.sqlqueue.api.QueueConnection;
import io.sqlqueue.api.QueueConnectionFactory;
import io.sqlqueue.api.QueueException;
import io.sqlqueue.api.QueueMessage;
import io.sqlqueue.engine.DriverDataSources;
import io.sqlqueue.engine.FailureOutcome;
import io.sqlqueue.engine.LeasedMessage;
import io.sqlqueue.engine.QueueTable;
import io.sqlqueue.engine.Topic;
import io.sqlqueue.engine.TestXid;
import io.sqlqueue.InMemorySpans;
import io.sqlqueue.QueueResourceAdapter;
import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.context.Scope;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.ConnectionEvent;
import jakarta.resource.spi.ConnectionEventListener;
import jakarta.resource.spi.LocalTransaction;
import jakarta.resource.spi.ManagedConnection;
import jakarta.resource.spi.TransactionSupport.TransactionSupportLevel;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The outbound JCA contract, driven the way a server drives it, against a real database: each
 * subclass names one by JDBC URL. The server-side behaviour (pools, JTA) is tested in src-it.
 */
abstract class OutboundContract {

    /** JDBC URL, user and password, or null URL when the database is not configured. */
    protected abstract String[] database();

    protected QueueManagedConnectionFactory mcf;
    protected QueueResourceAdapter ra;
    protected String queue;
    private Connection admin;
    private QueueTable table;
    private final List<String> committedWakeUps = new CopyOnWriteArrayList<>();

    /** Skips a test that needs XA from the database where the subclass's database has none. */
    protected void assumeXA() throws SQLException {
    }

    @BeforeEach
    void setUp() throws Exception {
        String[] db = database();
        assumeTrue(db[0] != null, "the database for these tests is not configured: skipped");
        ra = new QueueResourceAdapter();
        ra.addEnqueueListener(committedWakeUps::add);
        mcf = new QueueManagedConnectionFactory();
        mcf.setJdbcUrl(db[0]);
        mcf.setUser(db[1]);
        mcf.setPassword(db[2]);
        mcf.setResourceAdapter(ra);
        admin = DriverDataSources.plain(db[0], db[1], db[2]).getConnection();
        queue = "out_" + Long.toHexString(System.nanoTime());
        table = QueueTable.open(admin, queue);
        table.createIfMissing(admin);
    }

    @AfterEach
    void tearDown() throws SQLException {
        if (admin == null) {
            return;
        }
        try (Statement s = admin.createStatement()) {
            s.execute("DROP TABLE " + table.dialect().qualified(table.name()));
            s.execute("DROP TABLE " + table.dialect().qualified(table.deadLetterName()));
        }
        admin.close();
    }

    private List<QueueMessage> drain() throws SQLException {
        return table.claim(admin, 1000);
    }

    private QueueManagedConnection managed() throws ResourceException {
        return (QueueManagedConnection) mcf.createManagedConnection(null, null);
    }

    // ---- sending ------------------------------------------------------------------------------

    @Test
    void outsideATransactionASendCommitsAtOnce() throws Exception {
        QueueConnectionFactory factory = (QueueConnectionFactory) mcf.createConnectionFactory();
        long id;
        try (QueueConnection c = factory.getConnection()) {
            id = c.send(queue, OutgoingMessage.text("hello").header("k", "v").priority(3).build());
            long[] more = c.sendAll(queue, List.of(OutgoingMessage.text("a").build(), OutgoingMessage.text("b").build()));
            assertEquals(2, more.length);
        }
        List<QueueMessage> got = drain();
        assertEquals(List.of("hello", "a", "b"), got.stream().map(QueueMessage::text).toList());
        assertEquals(id, got.get(0).id());
        assertEquals("v", got.get(0).headers().get("k"));
        assertEquals(List.of(queue, queue), committedWakeUps, "one wake-up per committed send call");
    }

    private Set<ObjectName> producerBeans() throws Exception {
        Set<ObjectName> found = new HashSet<>();
        for (ObjectName n : ManagementFactory.getPlatformMBeanServer().queryNames(
                new ObjectName("io.sqlqueue:type=Producer,*"), null)) {
            if (DriverDataSources.withoutSecrets(database()[0]).equals(
                    ManagementFactory.getPlatformMBeanServer().getAttribute(n, "Factory"))) {
                found.add(n);
            }
        }
        return found;
    }

    @Test
    void theProducerBeanCountsSendsAndErrorsWhileTheFactoryHasConnections() throws Exception {
        Set<ObjectName> before = producerBeans(); // other tests' factories may still have connections
        QueueManagedConnection mc = managed();
        Set<ObjectName> added = producerBeans();
        added.removeAll(before);
        assertEquals(1, added.size(), "the factory's first connection registers its bean");
        ObjectName bean = added.iterator().next();
        QueueConnection handle = (QueueConnection) mc.getConnection(null, null);
        handle.send(queue, OutgoingMessage.text("one").build());
        handle.sendAll(queue, List.of(OutgoingMessage.text("two").build(), OutgoingMessage.text("three").build()));
        assertThrows(QueueException.class, () -> handle.send("no_such_queue_" + queue, OutgoingMessage.text("x").build()));
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        assertEquals(3L, server.getAttribute(bean, "Sent"));
        assertEquals(1L, server.getAttribute(bean, "Errors"));
        assertTrue(((String) server.getAttribute(bean, "LastError")).startsWith("cannot enqueue to 'no_such_queue_"));
        assertTrue((double) server.getAttribute(bean, "SendP99Millis") >= (double) server.getAttribute(bean, "SendP50Millis"));
        handle.close();
        mc.destroy();
        assertEquals(before, producerBeans(), "gone once the pool has no connection of the factory");
    }

    @Test
    void aLocalTransactionCommitsOrRollsBackTheSendsAndWakesOnlyOnCommit() throws Exception {
        QueueManagedConnection mc = managed();
        QueueConnection handle = (QueueConnection) mc.getConnection(null, null);
        LocalTransaction tx = mc.getLocalTransaction();

        tx.begin();
        handle.send(queue, "rolled back");
        tx.rollback();
        assertTrue(drain().isEmpty());
        assertTrue(committedWakeUps.isEmpty(), "no wake-up for a rolled-back enqueue");

        tx.begin();
        handle.send(queue, "committed");
        assertTrue(committedWakeUps.isEmpty(), "no wake-up before the commit");
        tx.commit();
        assertEquals(List.of("committed"), drain().stream().map(QueueMessage::text).toList());
        assertEquals(List.of(queue), committedWakeUps);
        mc.destroy();
    }

    @Test
    void aPublishReachesEverySubscriptionWhenItsTransactionCommitsAndNoneWhenItRollsBack() throws Exception {
        Topic topic = Topic.open(admin, queue); // a topic named like the test's queue: its subscriptions' queues are new
        topic.createIfMissing(admin);
        List<QueueTable> subscriptions = new ArrayList<>();
        for (String name : List.of("a", "b")) {
            QueueTable q = QueueTable.open(admin, topic.queueOf(name).toString());
            q.createIfMissing(admin);
            topic.subscribe(admin, name, null);
            subscriptions.add(q);
        }
        try {
            QueueManagedConnection mc = managed();
            QueueConnection handle = (QueueConnection) mc.getConnection(null, null);
            LocalTransaction tx = mc.getLocalTransaction();
            tx.begin();
            assertEquals(2, handle.publish(queue, OutgoingMessage.text("rolled back").build()));
            tx.rollback();
            tx.begin();
            assertEquals(2, handle.publish(queue, OutgoingMessage.text("committed").build()));
            tx.commit();
            for (QueueTable q : subscriptions) {
                assertEquals(List.of("committed"), q.claim(admin, 10).stream().map(QueueMessage::text).toList());
            }
            assertEquals(Set.of(queue + "_a", queue + "_b"), Set.copyOf(committedWakeUps), "both woken, once committed");
            IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
                    () -> handle.publish("bad topic", OutgoingMessage.text("x").build()));
            assertTrue(bad.getMessage().startsWith("topic name 'bad topic' is not valid"), bad.getMessage());
            mc.destroy();
        } finally {
            try (Statement s = admin.createStatement()) {
                for (QueueTable q : subscriptions) {
                    s.execute("DROP TABLE " + q.dialect().qualified(q.name()));
                    s.execute("DROP TABLE " + q.dialect().qualified(q.deadLetterName()));
                }
            }
            topic.unsubscribe(admin, "a");
            topic.unsubscribe(admin, "b");
        }
    }

    @Test
    void xaTwoPhaseCommitAndRollback() throws Exception {
        assumeXA();
        QueueManagedConnection mc = managed();
        QueueConnection handle = (QueueConnection) mc.getConnection(null, null);
        XAResource xa = mc.getXAResource();

        Xid rolledBack = xid();
        xa.start(rolledBack, XAResource.TMNOFLAGS);
        handle.send(queue, "rolled back");
        xa.end(rolledBack, XAResource.TMSUCCESS);
        assertEquals(XAResource.XA_OK, xa.prepare(rolledBack));
        xa.rollback(rolledBack);
        assertTrue(drain().isEmpty());

        Xid committed = xid();
        xa.start(committed, XAResource.TMNOFLAGS);
        handle.send(queue, "committed");
        xa.end(committed, XAResource.TMSUCCESS);
        assertEquals(XAResource.XA_OK, xa.prepare(committed));
        assertTrue(drain().isEmpty(), "prepared is not committed");
        xa.commit(committed, false);
        assertEquals(List.of("committed"), drain().stream().map(QueueMessage::text).toList());
        mc.destroy();
    }

    private static Xid xid() {
        return TestXid.next();
    }

    @Test
    void badMessagesAndQueueNamesFailBeforeAnythingIsWritten() throws Exception {
        QueueConnectionFactory factory = (QueueConnectionFactory) mcf.createConnectionFactory();
        try (QueueConnection c = factory.getConnection()) {
            assertThrows(IllegalArgumentException.class, () -> c.send("orders; DROP TABLE x", "x"));
            List<OutgoingMessage> withNull = new ArrayList<>(List.of(OutgoingMessage.text("a").build()));
            withNull.add(null);
            assertThrows(IllegalArgumentException.class, () -> c.sendAll(queue, withNull));
            QueueException missing = assertThrows(QueueException.class, () -> c.send("no_such_queue", "x"));
            assertTrue(missing.getMessage().contains("no_such_queue"), missing.getMessage());
        }
        assertTrue(drain().isEmpty());
    }

    // ---- cancelling -----------------------------------------------------------------------------

    /** The rows of the queue's table, or its dead-letter table, counted in SQL. */
    private long rows(boolean deadLetters) throws SQLException {
        String t = table.dialect().qualified(deadLetters ? table.deadLetterName() : table.name());
        try (Statement s = admin.createStatement(); ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + t)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static OutgoingMessage delayed(String text, String dedupKey) {
        OutgoingMessage.Builder b = OutgoingMessage.text(text).delay(Duration.ofHours(1));
        return (dedupKey == null ? b : b.dedupKey(dedupKey)).build();
    }

    @Test
    void aDelayedMessageIsCancelledByIdOrByDedupKeyAndNothingIsLeftOrDeadLettered() throws Exception {
        QueueConnectionFactory factory = (QueueConnectionFactory) mcf.createConnectionFactory();
        try (QueueConnection c = factory.getConnection()) {
            long byId = c.send(queue, delayed("saga timeout", null));
            c.send(queue, delayed("reminder", "reminder-42"));
            long kept = c.send(queue, delayed("kept", "reminder-43"));

            assertTrue(c.cancel(queue, byId));
            assertTrue(c.cancelByDedupKey(queue, "reminder-42"));
            assertFalse(c.cancel(queue, byId), "cancelled already");
            assertFalse(c.cancelByDedupKey(queue, "reminder-42"), "cancelled already");
            assertFalse(c.cancelByDedupKey(queue, "REMINDER-43"), "keys compare exactly, as sends compare them");
            assertFalse(c.cancelByDedupKey(queue, "reminder-43 "), "trailing spaces count");

            assertEquals(1, rows(false), "only the message not cancelled is left");
            assertEquals(0, rows(true), "a cancelled message is deleted, not dead-lettered");
            assertEquals(kept, c.send(queue, delayed("kept", "reminder-43")), "the other key is still taken");
        }
        assertEquals(2, mcf.monitor().getCancelled());
        assertEquals(0, mcf.monitor().getErrors());
    }

    @Test
    void aCancelOfAnUnknownOrAlreadyConsumedMessageReturnsFalseAndChangesNothing() throws Exception {
        QueueConnectionFactory factory = (QueueConnectionFactory) mcf.createConnectionFactory();
        try (QueueConnection c = factory.getConnection()) {
            long consumed = c.send(queue, OutgoingMessage.text("consumed").dedupKey("consumed-1").build());
            long waiting = c.send(queue, "waiting");
            assertEquals(List.of(consumed), table.claim(admin, 1).stream().map(QueueMessage::id).toList());

            assertFalse(c.cancel(queue, consumed));
            assertFalse(c.cancelByDedupKey(queue, "consumed-1"));
            assertFalse(c.cancel(queue, waiting + 1000), "never sent");
            assertFalse(c.cancelByDedupKey(queue, "never-sent"));
            assertEquals(List.of(waiting), drain().stream().map(QueueMessage::id).toList(), "the other is untouched");
        }
        assertEquals(0, mcf.monitor().getCancelled());
    }

    @Test
    void aCancelInATransactionThatRollsBackLeavesTheMessageQueuedAsItWas() throws Exception {
        QueueManagedConnection mc = managed();
        QueueConnection handle = (QueueConnection) mc.getConnection(null, null);
        long id = handle.send(queue, delayed("timeout", "order-7-timeout"));
        LocalTransaction tx = mc.getLocalTransaction();

        tx.begin();
        assertTrue(handle.cancel(queue, id));
        assertFalse(handle.cancel(queue, id), "gone for this transaction");
        tx.rollback();
        assertEquals(1, rows(false), "the rollback left it queued");
        assertTrue(drain().isEmpty(), "still delayed, as it was");

        tx.begin();
        assertTrue(handle.cancelByDedupKey(queue, "order-7-timeout"));
        tx.rollback();
        assertEquals(1, rows(false));

        tx.begin();
        assertTrue(handle.cancel(queue, id));
        tx.commit();
        assertEquals(0, rows(false));
        assertEquals(0, rows(true));
        mc.destroy();
    }

    @Test
    void aCancelledDedupKeyIsFreeForANewSendAlsoInTheSameTransaction() throws Exception {
        QueueManagedConnection mc = managed();
        QueueConnection handle = (QueueConnection) mc.getConnection(null, null);
        long first = handle.send(queue, delayed("v1", "schedule-9"));
        assertEquals(first, handle.send(queue, delayed("v1 again", "schedule-9")), "deduplicated while queued");

        assertTrue(handle.cancelByDedupKey(queue, "schedule-9"));
        long second = handle.send(queue, delayed("v2", "schedule-9"));
        assertNotEquals(first, second, "the key was free: a new message");

        LocalTransaction tx = mc.getLocalTransaction();
        tx.begin(); // rescheduling: the cancel and the new send commit together
        assertTrue(handle.cancelByDedupKey(queue, "schedule-9"));
        long third = handle.send(queue, OutgoingMessage.text("v3").dedupKey("schedule-9").build());
        tx.commit();

        assertNotEquals(second, third);
        List<QueueMessage> left = drain();
        assertEquals(List.of(third), left.stream().map(QueueMessage::id).toList());
        assertEquals("v3", left.get(0).text());
        assertEquals(0, rows(true));
        mc.destroy();
    }

    @Test
    void aMessageInDeliveryIsRefusedLeftAsItWasAndCancelledOnceItWaitsForARetry() throws Exception {
        QueueConnectionFactory factory = (QueueConnectionFactory) mcf.createConnectionFactory();
        try (QueueConnection c = factory.getConnection()) {
            long completed = c.send(queue, OutgoingMessage.text("completed").dedupKey("job-1").build());
            long failed = c.send(queue, OutgoingMessage.text("failed").dedupKey("job-2").build());
            List<LeasedMessage> leased = table.lease(admin, 2, Duration.ofMinutes(5));
            assertEquals(List.of(completed, failed), leased.stream().map(m -> m.message().id()).toList());

            MessageInDeliveryException byId = assertThrows(
                    MessageInDeliveryException.class, () -> c.cancel(queue, completed));
            assertEquals(queue, byId.queue());
            assertEquals(completed, byId.messageId());
            assertNull(byId.dedupKey());
            assertTrue(byId.getMessage().contains("cannot cancel message " + completed + " in queue '" + queue
                    + "': a consumer has leased it"), byId.getMessage());
            MessageInDeliveryException byKey = assertThrows(
                    MessageInDeliveryException.class, () -> c.cancelByDedupKey(queue, "job-2"));
            assertEquals(failed, byKey.messageId(), "the id of the message found in delivery");
            assertEquals("job-2", byKey.dedupKey());
            assertInstanceOf(QueueException.class, byKey);
            assertEquals(2, rows(false), "nothing was removed");

            // the consumers go on undisturbed: one completes, one fails and waits for its retry
            assertTrue(table.ack(admin, leased.get(0)), "the lease is still the consumer's");
            assertEquals(FailureOutcome.RETRY_SCHEDULED, table.nack(admin, leased.get(1), "boom"));

            assertFalse(c.cancel(queue, completed), "delivered");
            assertTrue(c.cancelByDedupKey(queue, "job-2"), "waiting out its back-off, it is cancelled");
        }
        assertEquals(0, rows(false));
        assertEquals(0, rows(true));
        assertEquals(1, mcf.monitor().getCancelled());
        assertEquals(0, mcf.monitor().getErrors(), "a refusal is no failure of the factory");
    }

    @Test
    void aBadQueueNameOrDedupKeyFailsTheCancelBeforeAnythingIsWritten() throws Exception {
        QueueConnectionFactory factory = (QueueConnectionFactory) mcf.createConnectionFactory();
        try (QueueConnection c = factory.getConnection()) {
            long id = c.send(queue, OutgoingMessage.text("stays").dedupKey("k").build());
            IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
                    () -> c.cancel("orders; DROP TABLE x", id));
            assertTrue(bad.getMessage().startsWith("queue name 'orders; DROP TABLE x' is not valid"), bad.getMessage());
            assertThrows(IllegalArgumentException.class, () -> c.cancel(null, id));
            assertThrows(IllegalArgumentException.class, () -> c.cancelByDedupKey(null, "k"));
            for (String key : new String[] {null, "", "k".repeat(OutgoingMessage.MAX_DEDUP_KEY_LENGTH + 1)}) {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                        () -> c.cancelByDedupKey(queue, key));
                assertTrue(e.getMessage().startsWith("dedupKey must be 1 to 200 characters"), e.getMessage());
            }
            QueueException missing = assertThrows(QueueException.class, () -> c.cancel("no_such_queue", id));
            assertTrue(missing.getMessage().contains("no_such_queue"), missing.getMessage());
            assertEquals(List.of(id), drain().stream().map(QueueMessage::id).toList());
        }
    }

    // ---- connection management ----------------------------------------------------------------

    @Test
    void closingAHandleFiresClosedWithTheHandleOnce() throws Exception {
        QueueManagedConnection mc = managed();
        List<ConnectionEvent> events = new ArrayList<>();
        mc.addConnectionEventListener(recorder(events));
        QueueConnection handle = (QueueConnection) mc.getConnection(null, null);

        handle.close();
        handle.close();

        assertEquals(1, events.size());
        assertEquals(ConnectionEvent.CONNECTION_CLOSED, events.get(0).getId());
        assertSame(handle, events.get(0).getConnectionHandle());
        assertThrows(QueueException.class, () -> handle.send(queue, "after close"));
        mc.destroy();
    }

    @Test
    void eachGetConnectionIsANewHandleAndCleanupInvalidatesThemAll() throws Exception {
        QueueManagedConnection mc = managed();
        QueueConnection a = (QueueConnection) mc.getConnection(null, null);
        QueueConnection b = (QueueConnection) mc.getConnection(null, null);
        assertNotEquals(a, b);

        mc.getLocalTransaction().begin();
        a.send(queue, "left half-done");
        mc.cleanup();

        assertThrows(QueueException.class, () -> a.send(queue, "x"));
        assertThrows(QueueException.class, () -> b.send(queue, "x"));
        assertTrue(drain().isEmpty(), "cleanup rolls back what the last user left open");
        QueueConnection fresh = (QueueConnection) mc.getConnection(null, null);
        fresh.send(queue, "after cleanup");
        assertEquals(1, drain().size(), "the physical connection is still usable, in auto-commit");
        mc.destroy();
        assertThrows(QueueException.class, () -> fresh.send(queue, "x"));
        assertThrows(ResourceException.class, () -> mc.getConnection(null, null), "destroy closes it for good");
    }

    @Test
    void associateConnectionMovesAHandle() throws Exception {
        QueueManagedConnection first = managed();
        QueueManagedConnection second = managed();
        QueueConnection handle = (QueueConnection) first.getConnection(null, null);
        second.associateConnection(handle);
        first.destroy();

        handle.send(queue, "through the second");
        assertEquals(1, drain().size());
        second.destroy();
    }

    @Test
    void matchManagedConnectionsMatchesByConfigurationAndReturnsNullWhenNothingMatches() throws Exception {
        QueueManagedConnection mine = managed();
        QueueManagedConnectionFactory equal = new QueueManagedConnectionFactory();
        equal.setJdbcUrl(mcf.getJdbcUrl());
        equal.setUser(mcf.getUser());
        equal.setPassword(mcf.getPassword());
        QueueManagedConnectionFactory different = new QueueManagedConnectionFactory();
        different.setJdbcUrl(mcf.getJdbcUrl());
        different.setUser(mcf.getUser());
        different.setPassword(mcf.getPassword());
        different.setUseXA(false);
        different.setResourceAdapter(ra);
        ManagedConnection theirs = different.createManagedConnection(null, null);

        assertNull(mcf.matchManagedConnections(new HashSet<>(), null, null));
        assertNull(mcf.matchManagedConnections(new HashSet<>(Set.of(theirs)), null, null));
        assertNull(mcf.matchManagedConnections(new HashSet<>(Set.of("not a connection")), null, null));
        assertSame(mine, mcf.matchManagedConnections(new HashSet<>(Set.of(theirs, mine)), null, null));
        assertSame(mine, equal.matchManagedConnections(new HashSet<>(Set.of(mine)), null, null),
                "an equally configured factory instance matches it too");
        mine.destroy();
        assertNull(mcf.matchManagedConnections(new HashSet<>(Set.of(mine)), null, null), "a destroyed one never");
        theirs.destroy();
    }

    @Test
    void aBadUrlOrPasswordIsAClearResourceExceptionWithoutThePassword() {
        QueueManagedConnectionFactory bad = new QueueManagedConnectionFactory();
        bad.setJdbcUrl("jdbc:mysql://127.0.0.1/x");
        ResourceException e = assertThrows(ResourceException.class, () -> bad.createManagedConnection(null, null));
        assertTrue(e.getMessage().contains("jdbcUrl must start with"), e.getMessage());

        QueueManagedConnectionFactory wrong = new QueueManagedConnectionFactory();
        wrong.setJdbcUrl(mcf.getJdbcUrl());
        wrong.setUser(mcf.getUser());
        wrong.setPassword("Wr0ng-S3cret-Pass");
        e = assertThrows(ResourceException.class, () -> wrong.createManagedConnection(null, null));
        assertTrue(e.getMessage().contains("cannot connect to the queue database"), e.getMessage());
        assertFalse(e.getMessage().contains("Wr0ng-S3cret-Pass"), e.getMessage());
        assertFalse(String.valueOf(e.getCause()).contains("Wr0ng-S3cret-Pass"));

        QueueException fromFactory = assertThrows(QueueException.class,
                () -> ((QueueConnectionFactory) wrong.createConnectionFactory()).getConnection());
        assertTrue(fromFactory.getMessage().startsWith("cannot get a queue connection: cannot connect"),
                fromFactory.getMessage());

        // WildFly's pool wraps the adapter's reason in a generic one: the caller still reads ours
        jakarta.resource.spi.ConnectionManager wrapping = (factory, info) -> {
            try {
                return wrong.createManagedConnection(null, info);
            } catch (ResourceException reason) {
                throw new ResourceException("IJ000453: Unable to get managed connection for java:/queue/x", reason);
            }
        };
        QueueException wrapped = assertThrows(QueueException.class,
                () -> ((QueueConnectionFactory) wrong.createConnectionFactory(wrapping)).getConnection());
        assertTrue(wrapped.getMessage().startsWith("cannot get a queue connection: cannot connect"), wrapped.getMessage());
    }

    // ---- configuration ------------------------------------------------------------------------

    @Test
    void factoriesAreEqualByConfigurationAndSerializable() throws Exception {
        QueueManagedConnectionFactory same = new QueueManagedConnectionFactory();
        same.setJdbcUrl(mcf.getJdbcUrl());
        same.setUser(mcf.getUser());
        same.setPassword(mcf.getPassword());
        assertEquals(mcf, same);
        assertEquals(mcf.hashCode(), same.hashCode());
        same.setUseXA(false);
        assertNotEquals(mcf, same);

        QueueResourceAdapter a = new QueueResourceAdapter();
        QueueResourceAdapter b = new QueueResourceAdapter();
        a.setJdbcUrl("jdbc:h2:mem:x");
        b.setJdbcUrl("jdbc:h2:mem:x");
        assertEquals(a, b);
        assertEquals(a.hashCode(), b.hashCode());

        Object factory = mcf.createConnectionFactory();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(factory);
        }
        Object copy = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray())).readObject();
        assertInstanceOf(QueueConnectionFactory.class, copy);
    }

    @Test
    void transactionSupportFollowsTheConfiguration() {
        assertEquals(TransactionSupportLevel.XATransaction, mcf.getTransactionSupport());
        mcf.setUseXA(false);
        assertEquals(TransactionSupportLevel.LocalTransaction, mcf.getTransactionSupport());
        mcf.setDataSourceJndiName("java:global/jdbc/app");
        assertEquals(TransactionSupportLevel.NoTransaction, mcf.getTransactionSupport());
        mcf.setDataSourceJndiName("");
        mcf.setTransactionSupportLevel("NoTransaction");
        assertEquals(TransactionSupportLevel.NoTransaction, mcf.getTransactionSupport(), "the admin's choice wins");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> mcf.setTransactionSupportLevel("Local"));
        assertTrue(e.getMessage().contains("transactionSupportLevel must be XATransaction, LocalTransaction or"
                + " NoTransaction"), e.getMessage());
    }

    @Test
    void withoutXaTheConnectionIsPlainAndSaysSo() throws Exception {
        mcf.setUseXA(false);
        QueueManagedConnection mc = managed();
        ResourceException e = assertThrows(ResourceException.class, mc::getXAResource);
        assertTrue(e.getMessage().contains("useXA=false"), e.getMessage());
        LocalTransaction tx = mc.getLocalTransaction();
        tx.begin();
        ((QueueConnection) mc.getConnection(null, null)).send(queue, "local");
        tx.commit();
        assertEquals(1, drain().size());
        mc.destroy();
    }

    static ConnectionEventListener recorder(List<ConnectionEvent> events) {
        return new ConnectionEventListener() {
            @Override
            public void connectionClosed(ConnectionEvent event) {
                events.add(event);
            }

            @Override
            public void connectionErrorOccurred(ConnectionEvent event) {
                events.add(event);
            }

            @Override
            public void localTransactionStarted(ConnectionEvent event) {
            }

            @Override
            public void localTransactionCommitted(ConnectionEvent event) {
            }

            @Override
            public void localTransactionRolledback(ConnectionEvent event) {
            }
        };
    }

    // ---- trace context propagation ------------------------------------------------------------

    /** The headers column of queue row {@code id}, as stored. */
    private String storedHeaders(long id) throws SQLException {
        try (Statement s = admin.createStatement(); ResultSet rs = s.executeQuery("SELECT headers FROM "
                + table.dialect().qualified(table.name()) + " WHERE id = " + id)) {
            assertTrue(rs.next(), "row " + id);
            return rs.getString(1);
        }
    }

    /**
     * A send inside a span stores its W3C traceparent in the row's headers (each message of a batch
     * the same), beside the application's own; a send outside any span stores none.
     */
    @Test
    void aSendInsideASpanStoresItsTraceparentAndOneOutsideStoresNone() throws Exception {
        try (InMemorySpans spans = InMemorySpans.installGlobal()) {
            QueueConnectionFactory factory = (QueueConnectionFactory) mcf.createConnectionFactory();
            Span producer = GlobalOpenTelemetry.getTracer("test").spanBuilder("send").startSpan();
            SpanContext sc = producer.getSpanContext();
            String traceparent = "00-" + sc.getTraceId() + "-" + sc.getSpanId() + "-" + sc.getTraceFlags().asHex();
            long traced;
            long[] batch;
            long untraced;
            try (QueueConnection c = factory.getConnection()) {
                try (Scope s = producer.makeCurrent()) {
                    traced = c.send(queue, OutgoingMessage.text("a").header("k", "v").build());
                    batch = c.sendAll(queue, List.of(OutgoingMessage.text("b").build(), OutgoingMessage.text("c").build()));
                } finally {
                    producer.end();
                }
                untraced = c.send(queue, OutgoingMessage.text("d").header("k", "v").build());
            }
            for (long id : new long[] {traced, batch[0], batch[1]}) {
                assertTrue(storedHeaders(id).contains("\"traceparent\":\"" + traceparent + "\""), storedHeaders(id));
                assertFalse(storedHeaders(id).contains("tracestate"), "an empty tracestate is not stored");
            }
            assertTrue(storedHeaders(traced).contains("\"k\":\"v\""), storedHeaders(traced));
            assertFalse(String.valueOf(storedHeaders(untraced)).contains("traceparent"), storedHeaders(untraced));
            List<QueueMessage> got = drain();
            assertEquals(traceparent, got.get(0).headers().get("traceparent"));
            assertEquals(Map.of("k", "v"), got.get(3).headers(), "outside a span the headers are the application's");
        }
    }
}
