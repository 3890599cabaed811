package io.sqlqueue.inbound;

import io.sqlqueue.InMemorySpans;
import io.sqlqueue.QueueResourceAdapter;
import io.sqlqueue.Tracing;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sqlqueue.api.OutgoingMessage;
import io.sqlqueue.api.QueueMessage;
import io.sqlqueue.engine.CompletionJournal;
import io.sqlqueue.engine.DriverDataSources;
import io.sqlqueue.engine.JmsHeaders;
import io.sqlqueue.engine.JournalEntry;
import io.sqlqueue.engine.QueueTable;
import io.sqlqueue.engine.RetryPolicy;
import io.sqlqueue.engine.Topic;
import io.sqlqueue.engine.TableName;
import io.sqlqueue.engine.TestXid;
import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.trace.data.LinkData;
import io.opentelemetry.sdk.trace.data.SpanData;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;
import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.opentest4j.TestAbortedException;

/**
 * The inbound side driven by {@link FakeContainer} against a real database: delivery,
 * redelivery, dead-lettering, batches, leases, wake-up and deactivation. Each subclass names a
 * database by JDBC URL; the same behaviour inside real servers is tested in src-it.
 */
abstract class InboundContract {

    protected abstract String[] database();

    /** The activations' attemptCounting. */
    protected String attemptCounting() {
        return QueueActivationSpec.BEFORE_DELIVERY;
    }

    /** The activations' useXA: whether deliveries are XA branches or one-phase local transactions. */
    protected boolean useXA() {
        return true;
    }

    /**
     * How many database sessions have been opened so far (a counter that only grows); skips the
     * calling test where the subclass's database cannot tell.
     */
    protected long sessionsOpened() throws SQLException {
        throw new TestAbortedException("counting the sessions opened needs H2's SESSION_ID(), which grows by one"
                + " per session; PostgreSQL reports its session count with a delay");
    }

    /** Skips a test that needs XA from the database where the subclass's database has none. */
    protected void assumeXA() throws SQLException {
    }

    /** Restarts the database server, returning once it accepts connections again. */
    @FunctionalInterface
    protected interface DatabaseRestart {
        void run() throws Exception;
    }

    /** How this subclass restarts its database; skips the calling test where it cannot. */
    protected DatabaseRestart databaseRestart() {
        throw new TestAbortedException("restarting the database needs a server this test started itself: the"
                + " PostgreSQL class restarts CI's throwaway cluster");
    }

    /** Skips a test whose exact counts hold only when attempts are counted before delivery. */
    private void assumeCountedBeforeDelivery(String why) {
        assumeTrue(attemptCounting().equals(QueueActivationSpec.BEFORE_DELIVERY),
                "attemptCounting=" + attemptCounting() + ": " + why);
    }

    private FakeContainer container;
    private QueueResourceAdapter adapter;
    Connection admin;
    QueueTable table;
    private String queue;
    private final List<Object[]> active = new ArrayList<>();

    /**
     * Ids whose delivery committed, with how often. Counted with merge, which is atomic: a key
     * that appears before its count (computeIfAbsent, then increment) let a test that saw every
     * id read a count of 0 under load and report a message committed twice.
     */
    final Map<Long, Integer> committed = new ConcurrentHashMap<>();

    @BeforeEach
    void setUp() throws Exception {
        String[] db = database();
        assumeTrue(db[0] != null, "the database for these tests is not configured: skipped");
        container = new FakeContainer();
        adapter = new QueueResourceAdapter();
        adapter.setJdbcUrl(db[0]);
        adapter.setUser(db[1]);
        adapter.setPassword(db[2]);
        adapter.start(container);
        admin = DriverDataSources.plain(db[0], db[1], db[2]).getConnection();
        queue = "in_" + Long.toHexString(System.nanoTime());
        table = new QueueTable(io.sqlqueue.engine.Dialect.of(admin), queue, null,
                new RetryPolicy(3, Duration.ZERO, Duration.ZERO));
        table.createIfMissing(admin);
    }

    @AfterEach
    void tearDown() throws SQLException {
        if (admin == null) {
            return;
        }
        for (Object[] a : active) {
            adapter.endpointDeactivation((MessageEndpointFactory) a[0], (QueueActivationSpec) a[1]);
        }
        adapter.stop();
        container.shutdown();
        try (Statement s = admin.createStatement()) {
            s.execute("DROP TABLE " + table.dialect().qualified(table.name()));
            s.execute("DROP TABLE " + table.dialect().qualified(table.deadLetterName()));
            s.execute("DROP TABLE IF EXISTS " + table.dialect().qualified(new CompletionJournal(table).name()));
        }
        admin.close();
    }

    QueueActivationSpec spec() {
        QueueActivationSpec spec = new QueueActivationSpec();
        spec.setQueue(queue);
        spec.setMaxConcurrency(8);
        spec.setPollInterval(10L);
        spec.setMaxPollInterval(200L);
        spec.setMaxAttempts(3);
        spec.setRetryBackoff(0L);
        spec.setMaxRetryBackoff(0L);
        spec.setAttemptCounting(attemptCounting());
        spec.setUseXA(useXA());
        return spec;
    }

    MessageEndpointFactory activate(QueueActivationSpec spec, FakeContainer.Bean bean, boolean batch,
            boolean transacted) throws Exception {
        MessageEndpointFactory factory = container.endpointFactory(bean, batch, transacted);
        adapter.endpointActivation(factory, spec);
        active.add(new Object[] {factory, spec});
        return factory;
    }

    /** A bean that records each message once its transaction commits. */
    FakeContainer.Bean recording() {
        return messages -> container.onCommit(() -> messages.forEach(
                m -> committed.merge(m.id(), 1, Integer::sum)));
    }

    List<Long> send(int n) throws SQLException {
        List<OutgoingMessage> batch = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            batch.add(OutgoingMessage.text("m" + i).build());
        }
        List<Long> ids = new ArrayList<>();
        for (long id : table.sendAll(admin, batch)) {
            ids.add(id);
        }
        return ids;
    }

    private long rows(String which) throws SQLException {
        String t = table.dialect().qualified(which.equals("dlq") ? table.deadLetterName() : table.name());
        try (Statement s = admin.createStatement(); ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + t)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private long count(String sql) throws SQLException {
        try (Statement s = admin.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static void await(String what, Callable<Boolean> condition) throws Exception {
        await(what, Duration.ofSeconds(60), condition);
    }

    private static void await(String what, Duration within, Callable<Boolean> condition) throws Exception {
        long deadline = System.nanoTime() + within.toNanos();
        while (!condition.call()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting until " + what);
            }
            LockSupport.parkNanos(10_000_000);
        }
    }

    /** What the adapter logs (the loggers under io.sqlqueue) until closed. */
    private static final class LogCapture implements AutoCloseable {
        private final java.util.logging.Logger log = java.util.logging.Logger.getLogger("io.sqlqueue");
        private final List<java.util.logging.LogRecord> records = Collections.synchronizedList(new ArrayList<>());
        private final java.util.logging.Handler handler = new java.util.logging.Handler() {
            @Override
            public void publish(java.util.logging.LogRecord r) {
                records.add(r);
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };

        LogCapture() {
            log.addHandler(handler);
        }

        /** The messages logged so far at {@code level} or above. */
        List<String> messages(java.util.logging.Level level) {
            synchronized (records) {
                return records.stream().filter(r -> r.getLevel().intValue() >= level.intValue())
                        .map(r -> String.valueOf(r.getMessage())).toList();
            }
        }

        @Override
        public void close() {
            log.removeHandler(handler);
        }
    }

    /** {@link #assertEachExactlyOnce} with no dead letters: every one of {@code ids} committed once. */
    private void assertExactlyOnce(List<Long> ids) throws Exception {
        assertEachExactlyOnce(Set.copyOf(ids), Set.of());
    }

    private void assertNoneCommittedTwice() {
        Map<Long, Integer> repeated = new java.util.TreeMap<>();
        committed.forEach((id, n) -> {
            if (n != 1) {
                repeated.put(id, n);
            }
        });
        assertTrue(repeated.isEmpty(), "messages committed more than once (id=times): " + repeated);
    }

    @Test
    void deliversEveryMessageExactlyOnceWithConcurrentDeliveries() throws Exception {
        List<Long> ids = send(2000);
        activate(spec(), recording(), false, true);
        assertExactlyOnce(ids);
        assertEquals(0, rows("dlq"));
    }

    /**
     * SQL Server: a table with an enabled trigger cannot be claimed from (OUTPUT, error 334), also
     * when a DBA made it and the adapter creates nothing (createQueue=false): the activation refuses
     * it, naming the table and the trigger, and takes nothing.
     */
    @Test
    void aTableWithATriggerIsRefusedAlsoWhenTheAdapterCreatesNothing() throws Exception {
        assumeTrue(table.dialect().name().equals("sqlserver"), "on " + table.dialect().name()
                + " a trigger does not stop the adapter's statements: only SQL Server refuses OUTPUT on such a table");
        try (Statement s = admin.createStatement()) {
            s.execute("CREATE TRIGGER " + table.name().table() + "_audit ON " + table.dialect().qualified(table.name())
                    + " AFTER DELETE AS BEGIN SET NOCOUNT ON; END");
        }
        List<Long> ids = send(1);
        try (LogCapture log = new LogCapture()) {
            QueueActivationSpec spec = spec();
            spec.setCreateQueue(false);
            activate(spec, recording(), false, true);
            await("the activation refused the table", () -> log.messages(java.util.logging.Level.ALL).stream()
                    .anyMatch(m -> m.contains("the queue table " + queue + " has an enabled trigger, " + queue
                            + "_audit")));
        }
        assertTrue(committed.isEmpty(), "nothing delivered: " + committed);
        assertEquals(1, rows("queue"), "the message stays");
        assertEquals(ids.get(0), (Long) count("SELECT MIN(id) FROM " + table.dialect().qualified(table.name())));
    }

    @Test
    void deliveryGoesOnAfterTheFirstDeliveriesHaveEndedAndBeenReleased() throws Exception {
        activate(spec(), recording(), false, true);
        List<Long> ids = new ArrayList<>(send(20));
        await("the first 20 committed", () -> committed.size() == 20);
        await("their deliveries ended and were released (only the poller left)",
                () -> container.activeWorks.get() == 1
                        && container.worksReleased.get() == container.worksScheduled.get() - 1);
        ids.addAll(send(20));
        assertExactlyOnce(ids);
    }

    /**
     * Through a server JDBC resource (dataSourceJndiName), a container that begins no transaction
     * for a delivery (seen on Payara while it undeployed the bean, which then failed) must not get
     * a claim: on a connection outside a transaction it would commit at once, and the message
     * would be gone with the failed delivery.
     */
    @Test
    void aTransactedDeliveryThatGetsNoTransactionClaimsNothing() throws Exception {
        String[] db = database();
        String jndiName = "java:global/jdbc/test-" + queue;
        TestNaming.install();
        TestNaming.bind(jndiName, container.enlisting(DriverDataSources.plain(db[0], db[1], db[2])));
        try {
            List<Long> ids = send(50);
            container.deliveriesWithoutTransaction.set(5);
            QueueActivationSpec spec = spec();
            spec.setDataSourceJndiName(jndiName);
            FakeContainer.Bean recording = recording();
            activate(spec, messages -> {
                if (!container.inTransaction()) {
                    throw new IllegalStateException("the container is being torn down");
                }
                recording.onMessages(messages);
            }, false, true);
            assertExactlyOnce(ids);
            assertEquals(0, container.deliveriesWithoutTransaction.get(), "the deliveries without a transaction came");
        } finally {
            TestNaming.unbind(jndiName);
        }
    }

    @Test
    void theQueueBeanReachesNoDatabaseBeforeThePollerHasOpenedTheQueue() throws Exception {
        String[] db = database();
        String jndiName = "java:global/jdbc/test-grace-" + queue; // declared by the application: a poller's grace
        javax.sql.DataSource real = DriverDataSources.plain(db[0], db[1], db[2]);
        AtomicInteger connectionsAsked = new AtomicInteger();
        TestNaming.install();
        TestNaming.bind(jndiName, java.lang.reflect.Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {javax.sql.DataSource.class}, (proxy, method, args) -> {
                    if (method.getName().equals("getConnection")) {
                        connectionsAsked.incrementAndGet();
                    }
                    try {
                        return method.invoke(real, args);
                    } catch (java.lang.reflect.InvocationTargetException e) {
                        throw e.getCause();
                    }
                }));
        try {
            QueueActivationSpec spec = spec();
            spec.setDataSourceJndiName(jndiName);
            activate(spec, recording(), false, true);
            // within the poller's grace (5 s after the activation): a JMX client reads the queue
            assertEquals(-1L, queueBean("Ready"), "unknown: not read");
            javax.management.RuntimeMBeanException e = assertThrows(javax.management.RuntimeMBeanException.class,
                    () -> ManagementFactory.getPlatformMBeanServer().invoke(queueBeanName(), "requeueDeadLetters",
                            new Object[] {10}, new String[] {"int"}));
            assertTrue(e.getCause().getMessage().endsWith("no consumer has reached the database yet"),
                    e.getCause().getMessage());
            assertEquals(0, connectionsAsked.get(), "no connection asked of the data source during the grace");
            long id = table.send(admin, OutgoingMessage.text("after the grace").build());
            adapter.enqueueCommitted(queue); // the application runs: the poller starts at once
            await("the poller opened the queue and delivered", () -> committed.containsKey(id));
            await("the queue bean reads the table now", () -> (long) queueBean("Ready") == 0);
        } finally {
            TestNaming.unbind(jndiName);
        }
    }

    @Test
    void aBeanThatThrowsGetsTheMessageAgainAndItIsProcessedOnce() throws Exception {
        assumeCountedBeforeDelivery("a redelivery can come before the failure is counted, so its attempt()"
                + " may still say 1");
        List<Long> ids = send(300);
        Set<Long> failedOnce = ConcurrentHashMap.newKeySet();
        FakeContainer.Bean record = recording();
        activate(spec(), messages -> {
            QueueMessage m = messages.get(0);
            if (m.id() % 3 == 0 && failedOnce.add(m.id())) {
                throw new IllegalStateException("every third message fails once");
            }
            if (m.id() % 3 == 0) {
                assertEquals(2, m.attempt(), "the redelivery says it is the second attempt");
            }
            record.onMessages(messages);
        }, false, true);
        assertExactlyOnce(ids);
        assertEquals(ids.stream().filter(id -> id % 3 == 0).count(), failedOnce.size());
    }

    @Test
    void setRollbackOnlyReturnsTheMessageToo() throws Exception {
        List<Long> ids = send(20);
        Set<Long> rolledBack = ConcurrentHashMap.newKeySet();
        FakeContainer.Bean record = recording();
        activate(spec(), messages -> {
            if (rolledBack.add(messages.get(0).id())) {
                container.setRollbackOnly();
                return;
            }
            record.onMessages(messages);
        }, false, true);
        assertExactlyOnce(ids);
        assertEquals(20, rolledBack.size());
    }

    @Test
    void aPoisonMessageIsDeadLetteredWithItsErrorWhileTheOthersFlow() throws Exception {
        long poison = table.send(admin, OutgoingMessage.text("poison").build());
        List<Long> good = send(50);
        FakeContainer.Bean record = recording();
        activate(spec(), messages -> {
            if (messages.get(0).text().equals("poison")) {
                throw new IllegalArgumentException("order payload is not JSON");
            }
            record.onMessages(messages);
        }, false, true);
        Set<Long> all = new java.util.HashSet<>(good);
        all.add(poison);
        assertEachExactlyOnce(all, Set.of(poison));
        try (Statement s = admin.createStatement(); ResultSet rs = s.executeQuery("SELECT id, attempts, last_error FROM "
                + table.dialect().qualified(table.deadLetterName()))) {
            rs.next();
            assertEquals(poison, rs.getLong(1));
            assertEquals(3, rs.getInt(2));
            assertEquals("java.lang.IllegalArgumentException: order payload is not JSON", rs.getString(3));
        }
    }

    /** A failure the bean says can never succeed (a subclass of the API's exception, as a container wraps it). */
    static final class CustomerUnknown extends io.sqlqueue.api.UnrecoverableMessageException {
        CustomerUnknown(String reason) {
            super(reason);
        }
    }

    /**
     * A bean that throws UnrecoverableMessageException has its message dead-lettered at once, with the
     * bean's reason and the exception's class, while the others flow; nothing is lost.
     */
    @Test
    void aMessageTheBeanCallsUnrecoverableIsDeadLetteredAtOnceWithItsReasonAndClass() throws Exception {
        long unknown = table.send(admin, OutgoingMessage.text("customer 42").build());
        List<Long> good = send(20);
        Map<Long, Integer> deliveries = new ConcurrentHashMap<>();
        FakeContainer.Bean record = recording();
        activate(spec(), messages -> {
            deliveries.merge(messages.get(0).id(), 1, Integer::sum);
            if (messages.get(0).text().equals("customer 42")) {
                throw new IllegalStateException(null, new CustomerUnknown("customer 42 is unknown"));
            }
            record.onMessages(messages);
        }, false, true);
        Set<Long> all = new java.util.HashSet<>(good);
        all.add(unknown);
        assertEachExactlyOnce(all, Set.of(unknown));
        String unknownClass = CustomerUnknown.class.getName();
        assertEquals(List.of(List.of("1", unknownClass + ": customer 42 is unknown [not retried: the bean threw "
                + unknownClass + "]", unknownClass)), deadLetterRows());
        assertDeliveredOnceWhereCountedBeforeDelivery(deliveries.get(unknown));
    }

    /**
     * unrecoverableExceptions dead-letters at the first failure whatever its depth in the cause chain
     * and by superclass; with retryableExceptions, only those are retried and any other failure
     * dead-letters at once. Counted in SQL: the others are committed once, nothing else is dead.
     */
    @Test
    void theExceptionListsDecideWhichFailuresAreRetried() throws Exception {
        long badNumber = table.send(admin, OutgoingMessage.text("bad number").build());
        long flaky = table.send(admin, OutgoingMessage.text("flaky").build());
        long other = table.send(admin, OutgoingMessage.text("other").build());
        List<Long> good = send(10);
        QueueActivationSpec spec = spec();
        spec.setUnrecoverableExceptions("java.lang.IllegalArgumentException");
        spec.setRetryableExceptions("java.io.UncheckedIOException, java.lang.IllegalArgumentException");
        Map<Long, Integer> deliveries = new ConcurrentHashMap<>();
        FakeContainer.Bean record = recording();
        activate(spec, messages -> {
            QueueMessage m = messages.get(0);
            int delivery = deliveries.merge(m.id(), 1, Integer::sum);
            switch (m.text()) {
                case "bad number" -> throw new IllegalStateException("wrapped", new NumberFormatException("x1"));
                case "flaky" -> {
                    if (delivery < 3) {
                        throw new java.io.UncheckedIOException(new java.io.IOException("connection reset"));
                    }
                }
                case "other" -> throw new IllegalStateException("not retryable");
                default -> { }
            }
            record.onMessages(messages);
        }, false, true);
        Set<Long> all = new java.util.HashSet<>(good);
        all.addAll(List.of(badNumber, flaky, other));
        assertEachExactlyOnce(all, Set.of(badNumber, other));
        assertEquals(List.of(
                List.of("1", "java.lang.NumberFormatException: x1 [not retried: java.lang.NumberFormatException is one"
                        + " of unrecoverableExceptions]", "java.lang.NumberFormatException"),
                List.of("1", "java.lang.IllegalStateException: not retryable [not retried: none of its causes is one"
                        + " of retryableExceptions]", "java.lang.IllegalStateException")), deadLetterRows());
        assertTrue(deliveries.get(flaky) >= 3, "the retryable failure was retried");
        assertDeliveredOnceWhereCountedBeforeDelivery(deliveries.get(badNumber));
        assertDeliveredOnceWhereCountedBeforeDelivery(deliveries.get(other));
    }

    /** A bean without a transaction: an unrecoverable failure dead-letters its leased message at once. */
    @Test
    void anUnrecoverableFailureOfABeanWithoutATransactionIsDeadLetteredAtOnce() throws Exception {
        long bad = table.send(admin, OutgoingMessage.text("bad").build());
        List<Long> good = send(10);
        QueueActivationSpec spec = spec();
        spec.setUnrecoverableExceptions("java.lang.IllegalArgumentException");
        Map<Long, Integer> deliveries = new ConcurrentHashMap<>();
        FakeContainer.Bean record = recording();
        activate(spec, messages -> {
            deliveries.merge(messages.get(0).id(), 1, Integer::sum);
            if (messages.get(0).text().equals("bad")) {
                throw new IllegalArgumentException("no such order");
            }
            record.onMessages(messages);
        }, false, false);
        Set<Long> all = new java.util.HashSet<>(good);
        all.add(bad);
        assertEachExactlyOnce(all, Set.of(bad));
        assertEquals(List.of(List.of("1", "java.lang.IllegalArgumentException: no such order [not retried:"
                + " java.lang.IllegalArgumentException is one of unrecoverableExceptions]",
                "java.lang.IllegalArgumentException")), deadLetterRows());
        assertEquals(1, deliveries.get(bad), "delivered once");
    }

    /** A bean that counts down {@code inBean}, holds its message until {@code goOn} (a minute at most), then records it. */
    private static FakeContainer.Bean holding(CountDownLatch inBean, CountDownLatch goOn, FakeContainer.Bean record) {
        return messages -> {
            inBean.countDown();
            try {
                goOn.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            record.onMessages(messages);
        };
    }

    /** The dead-letter rows as (attempts, last_error, error_class), by id. */
    private List<List<String>> deadLetterRows() throws SQLException {
        List<List<String>> rows = new ArrayList<>();
        try (Statement s = admin.createStatement(); ResultSet rs = s.executeQuery("SELECT attempts, last_error,"
                + " error_class FROM " + table.dialect().qualified(table.deadLetterName()) + " ORDER BY id")) {
            while (rs.next()) {
                rows.add(List.of(String.valueOf(rs.getInt(1)), rs.getString(2), rs.getString(3)));
            }
        }
        return rows;
    }

    /**
     * An unrecoverable failure is delivered once when attempts are counted before delivery; after a
     * rollback a redelivery can come before the failure is recorded, and fails again alike.
     */
    private void assertDeliveredOnceWhereCountedBeforeDelivery(int deliveries) {
        if (attemptCounting().equals(QueueActivationSpec.BEFORE_DELIVERY)) {
            assertEquals(1, deliveries, "delivered once");
        } else {
            assertTrue(deliveries >= 1, "delivered");
        }
    }

    @Test
    void orderedDeliveryKeepsEachKeyInSendOrderOneAtATimeThroughRollbacks() throws Exception {
        int keys = 40, perKey = 15;
        List<OutgoingMessage> batch = new ArrayList<>();
        for (int i = 0; i < perKey; i++) {
            for (int k = 0; k < keys; k++) {
                batch.add(OutgoingMessage.text(k + ":" + i).orderingKey("k" + k).build());
            }
        }
        List<Long> ids = new ArrayList<>();
        for (long id : table.sendAll(admin, batch)) {
            ids.add(id);
        }
        Map<String, String> inFlight = new ConcurrentHashMap<>();
        Map<String, List<Integer>> order = new ConcurrentHashMap<>();
        Set<Long> failedOnce = ConcurrentHashMap.newKeySet();
        AtomicInteger overlaps = new AtomicInteger();
        FakeContainer.Bean record = recording();
        QueueActivationSpec spec = spec();
        spec.setOrderedDelivery(true);
        spec.setMaxConcurrency(16);
        activate(spec, messages -> {
            QueueMessage m = messages.get(0);
            if (inFlight.putIfAbsent(m.orderingKey(), m.text()) != null) {
                overlaps.incrementAndGet();
            }
            try {
                LockSupport.parkNanos(1_000_000); // the work
                if (m.id() % 10 == 3 && failedOnce.add(m.id())) {
                    throw new IllegalStateException("every tenth message fails once");
                }
                // before the commit: the next message of the key is claimed only after it
                order.computeIfAbsent(m.orderingKey(), k -> Collections.synchronizedList(new ArrayList<>()))
                        .add(Integer.parseInt(m.text().substring(m.text().indexOf(':') + 1)));
                record.onMessages(messages);
            } finally {
                inFlight.remove(m.orderingKey());
            }
        }, false, true);
        assertExactlyOnce(ids);
        assertEquals(0, overlaps.get(), "times two messages of one key were delivered at once");
        assertTrue(failedOnce.size() > 0);
        List<Integer> sendOrder = new ArrayList<>();
        for (int i = 0; i < perKey; i++) {
            sendOrder.add(i);
        }
        for (int k = 0; k < keys; k++) {
            assertEquals(sendOrder, order.get("k" + k), "the order key k" + k + " was committed in");
        }
        assertEquals(0, rows("dlq"));
    }

    @Test
    void aPoisonMessageHoldsItsKeyUntilItIsDeadLetteredWhileOtherKeysFlow() throws Exception {
        List<OutgoingMessage> batch = new ArrayList<>();
        batch.add(OutgoingMessage.text("poison").orderingKey("held").build());
        batch.add(OutgoingMessage.text("after poison").orderingKey("held").build());
        for (int i = 0; i < 30; i++) {
            batch.add(OutgoingMessage.text("other " + i).orderingKey("k" + i % 3).build());
        }
        table.sendAll(admin, batch);
        List<String> delivered = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger poisonAttempts = new AtomicInteger();
        QueueActivationSpec spec = spec();
        spec.setOrderedDelivery(true);
        spec.setRetryBackoff(300L);
        spec.setMaxRetryBackoff(300L);
        AtomicInteger poisonAttemptsBeforeTheNext = new AtomicInteger(-1);
        activate(spec, messages -> {
            String text = messages.get(0).text();
            if (text.equals("poison")) {
                poisonAttempts.incrementAndGet();
                throw new IllegalArgumentException("cannot be processed");
            }
            if (text.equals("after poison")) {
                poisonAttemptsBeforeTheNext.set(poisonAttempts.get());
            }
            container.onCommit(() -> delivered.add(text));
        }, false, true);
        // The message behind the poison may come before the other keys' last ones: wait for all 31.
        await("the 30 messages of the other keys and the one behind the poison are delivered",
                () -> delivered.size() >= 31);
        assertEquals(1, rows("dlq"), "the poison message dead-lettered");
        assertEquals(31, delivered.size());
        assertTrue(delivered.contains("after poison"));
        assertTrue(poisonAttemptsBeforeTheNext.get() >= 3, "the next message of its key waited for all the poison's"
                + " attempts (more with afterRollback, which can deliver before counting): " + poisonAttemptsBeforeTheNext);
        assertEquals(0, rows("queue"));
    }

    @Test
    void aBatchListenerGetsUpToBatchSizeMessagesPerTransaction() throws Exception {
        List<Long> ids = send(500);
        QueueActivationSpec spec = spec();
        spec.setBatchSize(25);
        AtomicInteger largest = new AtomicInteger();
        FakeContainer.Bean record = recording();
        activate(spec, messages -> {
            largest.accumulateAndGet(messages.size(), Math::max);
            record.onMessages(messages);
        }, true, true);
        assertExactlyOnce(ids);
        assertTrue(largest.get() > 1 && largest.get() <= 25, "batches of up to 25, largest " + largest);
    }

    @Test
    void aNonTransactedBeanGetsLeasedMessagesAcknowledgedOrRetried() throws Exception {
        List<Long> ids = send(200);
        Set<Long> failedOnce = ConcurrentHashMap.newKeySet();
        FakeContainer.Bean record = recording();
        activate(spec(), messages -> {
            if (messages.get(0).id() % 5 == 0 && failedOnce.add(messages.get(0).id())) {
                throw new IllegalStateException("fails once");
            }
            record.onMessages(messages);
        }, false, false);
        assertExactlyOnce(ids);
    }

    /**
     * A bean without a transaction whose handler runs three times leaseTime (the shortest, a second)
     * while a delivery slot is free, so the poller goes on looking and revealing, and a free thread
     * would take over a lease that ran out: the poller renews each lease while its handler runs, so
     * each message is delivered once, at its first attempt, and acknowledged.
     */
    @Test
    void aNonTransactedHandlerThatOutlastsLeaseTimeKeepsItsLeaseAndEachMessageIsDeliveredOnce() throws Exception {
        List<Long> ids = send(3);
        QueueActivationSpec spec = spec();
        spec.setLeaseTime(1000L);
        spec.setMaxConcurrency(4); // one slot more than messages: another thread is there to take one over
        Map<Long, List<Integer>> deliveries = new ConcurrentHashMap<>();
        FakeContainer.Bean record = recording();
        activate(spec, messages -> {
            messages.forEach(m -> deliveries.computeIfAbsent(m.id(), k -> Collections.synchronizedList(
                    new ArrayList<>())).add(m.attempt()));
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(3 * spec.getLeaseTime()));
            record.onMessages(messages);
        }, false, false);
        assertExactlyOnce(ids);
        Map<Long, List<Integer>> expected = new java.util.TreeMap<>();
        ids.forEach(id -> expected.put(id, List.of(1)));
        assertEquals(expected, new java.util.TreeMap<>(deliveries), "each delivered once, at its first attempt");
    }

    /**
     * The lease of a message taken over while its handler runs (another consumer's token written in
     * SQL, as when the lease ran out while the server stalled and another server leased the
     * message): the renewal finds it and says so once (a WARNING naming the queue, the message and
     * leaseTime; the consumer bean's LastError); when the handler returns, the message is not
     * acknowledged: it is still queued under the other consumer's lease.
     */
    @Test
    void aNonTransactedDeliveryWhoseLeaseIsTakenOverIsNotAcknowledgedAndSaysSoOnce() throws Exception {
        long id = table.send(admin, OutgoingMessage.text("slow").build());
        String q = table.dialect().qualified(table.name());
        QueueActivationSpec spec = spec();
        spec.setLeaseTime(1000L);
        CountDownLatch inBean = new CountDownLatch(1);
        CountDownLatch goOn = new CountDownLatch(1);
        FakeContainer.Bean record = recording();
        long other;
        List<String> warnings;
        try (LogCapture log = new LogCapture()) {
            MessageEndpointFactory factory = activate(spec, holding(inBean, goOn, record), false, false);
            assertTrue(inBean.await(30, TimeUnit.SECONDS), "the message reached the bean");
            // Paused, the poller starts no other delivery: the message taken over stays the other consumer's.
            ManagementFactory.getPlatformMBeanServer().invoke(consumerBeanName(), "pause", null, null);
            await("no delivery running but the one in the bean (and the poller)",
                    () -> container.activeWorks.get() == 2);
            other = count("SELECT lease_token FROM " + q + " WHERE id = " + id) ^ 1;
            try (Statement s = admin.createStatement()) {
                assertEquals(1, s.executeUpdate("UPDATE " + q + " SET lease_token = " + other + " WHERE id = " + id));
            }
            await("a renewal found the lease taken over", () -> String.valueOf(consumerBean("LastError"))
                    .contains("the lease of message " + id + " was taken over"));
            goOn.countDown();
            adapter.endpointDeactivation(factory, spec); // returns once the delivery has ended
            active.clear();
            await("no poller or delivery left running", () -> container.activeWorks.get() == 0);
            warnings = log.messages(java.util.logging.Level.WARNING).stream()
                    .filter(m -> m.contains("message " + id + " of " + queue)).toList();
        } finally {
            goOn.countDown();
        }
        assertEquals(Map.of(id, 1), Map.copyOf(committed), "the bean ran once");
        assertEquals(other, count("SELECT lease_token FROM " + q + " WHERE id = " + id),
                "not acknowledged: still queued under the other consumer's lease");
        assertEquals(1, count("SELECT attempts FROM " + q + " WHERE id = " + id), "nor its failure or return recorded");
        assertEquals(0, rows("dlq"));
        assertEquals(1, warnings.size(), "said once: " + warnings);
        assertTrue(warnings.get(0).contains("is not acknowledged") && warnings.get(0).contains("leaseTime 1000 ms"),
                warnings.get(0));
    }

    /**
     * Undeployed while its handler outlasts leaseTime, a bean without a transaction keeps its lease
     * for as long as the deactivation waits for the delivery (each renewal writes a new visible_at),
     * and the message is acknowledged when the handler returns.
     */
    @Test
    void aNonTransactedDeliveryKeepsItsLeaseWhileTheDeactivationWaitsForIt() throws Exception {
        long id = table.send(admin, OutgoingMessage.text("caught by the undeployment").build());
        QueueActivationSpec spec = spec();
        spec.setLeaseTime(1000L);
        CountDownLatch inBean = new CountDownLatch(1);
        CountDownLatch goOn = new CountDownLatch(1);
        FakeContainer.Bean record = recording();
        MessageEndpointFactory factory = activate(spec, holding(inBean, goOn, record), false, false);
        try {
            assertTrue(inBean.await(30, TimeUnit.SECONDS), "the message reached the bean");
            Thread deactivation = new Thread(() -> adapter.endpointDeactivation(factory, spec));
            deactivation.start();
            active.clear();
            await("deactivation has begun and waits for the delivery",
                    () -> deactivation.getState() == Thread.State.TIMED_WAITING
                            && java.util.Arrays.stream(deactivation.getStackTrace()).anyMatch(f -> f.getClassName()
                                    .equals(QueueActivation.class.getName()) && f.getMethodName().equals("stop")));
            String q = table.dialect().qualified(table.name());
            Set<String> leases = ConcurrentHashMap.newKeySet();
            await("the lease renewed twice while the deactivation waits", () -> {
                try (Statement s = admin.createStatement();
                        ResultSet rs = s.executeQuery("SELECT visible_at FROM " + q + " WHERE id = " + id)) {
                    assertTrue(rs.next(), "the message is still queued, under its lease");
                    leases.add(String.valueOf(rs.getObject(1)));
                }
                return leases.size() >= 3;
            });
            goOn.countDown();
            deactivation.join();
        } finally {
            goOn.countDown();
        }
        assertEquals(Map.of(id, 1), Map.copyOf(committed), "delivered once");
        assertEquals(0, rows("queue"), "acknowledged");
        assertEquals(0, rows("dlq"));
    }

    /**
     * The adapter's own connections (jdbcUrl mode) are kept for the next delivery: twenty messages
     * sent one at a time, each a delivery run of its own, open a handful of sessions, not one or
     * two per message.
     */
    @Test
    void theAdaptersOwnConnectionsServeDeliveryAfterDelivery() throws Exception {
        assertSessionsReused(spec(), true);
    }

    /** The same for one-phase delivery and for a bean without a transaction (acknowledged on a second connection). */
    @Test
    void oneSessionServesOnePhaseDeliveriesAndAcknowledgementsToo() throws Exception {
        QueueActivationSpec spec = spec();
        spec.setUseXA(false);
        assertSessionsReused(spec, false);
    }

    /**
     * At most a connection per delivery thread, one per delivery for its outcome and the poller's
     * (deliveries overlap: a new message's delivery may start while the last one looks for more).
     */
    private void assertSessionsReused(QueueActivationSpec spec, boolean transacted) throws Exception {
        spec.setMaxConcurrency(2);
        activate(spec, recording(), false, transacted);
        List<Long> ids = new ArrayList<>();
        long before = sessionsOpened();
        for (int i = 0; i < 20; i++) {
            long id = send(1).get(0);
            ids.add(id);
            await("message " + (i + 1) + " of 20 committed", () -> committed.containsKey(id));
        }
        long opened = sessionsOpened() - before - 1; // the count's own session
        assertTrue(opened <= 5, opened + " sessions opened for 20 deliveries one after another (before the adapter"
                + " kept its connections: about 100)");
        assertExactlyOnce(ids);
    }

    @Test
    void aCommittedEnqueueWakesAnIdlePollerAtOnce() throws Exception {
        assertAWakeUpFrom(adapter);
    }

    @Test
    void anEnqueueCommittedThroughAnotherInstanceOfTheAdapterWakesThePollerToo() throws Exception {
        // WildFly starts an instance for each connection factory an application declares
        QueueResourceAdapter factoriesAdapter = new QueueResourceAdapter();
        factoriesAdapter.start(container);
        try {
            assertAWakeUpFrom(factoriesAdapter);
        } finally {
            factoriesAdapter.stop();
        }
    }

    /**
     * An idle bean that polls once a minute gets a message when {@code notifier} reports its enqueue:
     * the send comes after the poller's first peek found the queue empty, and the deadline is half
     * the poll interval, so only a wake-up can deliver it in time (a late first peek made this pass
     * with the wake-up broken).
     */
    private void assertAWakeUpFrom(QueueResourceAdapter notifier) throws Exception {
        QueueActivationSpec spec = spec();
        spec.setPollInterval(60_000L);
        spec.setMaxPollInterval(60_000L);
        activate(spec, recording(), false, true);
        await("the poller found the queue empty and waits its minute", () -> (long) consumerBean("EmptyPolls") >= 1);
        long id = table.send(admin, OutgoingMessage.text("wake up").build());
        notifier.enqueueCommitted(queue);
        await("the woken poller delivered it", Duration.ofSeconds(30), () -> committed.containsKey(id));
    }

    /**
     * After the container refused 5 bean instances (each a back-off of one poll interval) and the 20
     * messages were delivered all the same, the idle poller's waits double from pollInterval (50 ms),
     * to which starting a delivery sets them back. Once it has looked 9 times since it last started a
     * delivery, every look finding the queue empty, its current wait is at least 50 ms × 2⁸ = 12.8 s,
     * counted from a moment after the last time the test saw fewer looks and no delivery running
     * (none left to wake it). A message sent then with a wake-up must be delivered within half that
     * wait from that moment, which its next look could not do: only the wake-up delivers it in time
     * (with the 500 ms pause this test had, a poll 400 ms later found the message with the wake-up
     * broken). Counted before delivery whatever the subclass counts with: counting after a rollback,
     * a peek during the last deliveries sees their messages ready and holds the back-off
     * (HeldMessages), and the wait no longer follows the looks counted.
     */
    @Test
    void whenTheContainerHasNoBeanFreeThePollerBacksOffAndAWakeUpStillArrives() throws Exception {
        QueueActivationSpec spec = spec();
        spec.setAttemptCounting(QueueActivationSpec.BEFORE_DELIVERY);
        spec.setPollInterval(50L);
        spec.setMaxPollInterval(60_000L);
        // the poller's looks when it last started a delivery: it set its wait back to pollInterval just before
        AtomicReference<long[]> atLastStart = new AtomicReference<>(new long[] {0, 0});
        container.onWorkScheduled = work -> {
            if (work instanceof Delivery) {
                try {
                    atLastStart.set(looksSeen()); // on the poller's thread: no look in between
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }
        };
        container.unavailableEndpoints.set(5);
        activate(spec, recording(), false, true);
        List<Long> first = send(20);
        adapter.enqueueCommitted(queue);
        assertExactlyOnce(first);
        assertEquals(0, container.unavailableEndpoints.get(), "the refusals were met");

        int looks = 9;
        long longWaitNanos = TimeUnit.MILLISECONDS.toNanos(spec.getPollInterval() << (looks - 1)); // 12.8 s
        long fewer = System.nanoTime();
        long[] startSeen = null;
        long[] from = null; // the looks counted from: {empty looks, looks}
        long lookedBefore = Long.MAX_VALUE;
        boolean quietBefore = false;
        long deadline = fewer + Duration.ofSeconds(180).toNanos(); // 13 s, or twice that per look counted late
        while (true) {
            long now = System.nanoTime();
            boolean quiet = container.activeWorks.get() == 1;
            long[] start = atLastStart.get();
            long[] seen = looksSeen();
            boolean restarted = start != startSeen;
            if (restarted) {
                startSeen = start;
                from = start;
            }
            if (seen[1] - from[1] > seen[0] - from[0]) {
                // a look found messages ready without starting a delivery: count anew from now (fewer than made)
                from = seen;
                restarted = true;
            }
            long looked = seen[0] - from[0];
            if (!restarted && quietBefore && quiet && looked > lookedBefore && looked >= looks) {
                break;
            }
            quietBefore = quiet;
            lookedBefore = looked;
            fewer = now;
            assertTrue(now < deadline, "timed out waiting for " + looks + " empty looks in a row");
            LockSupport.parkNanos(Duration.ofMillis(10).toNanos());
        }
        long nextLookNotBefore = fewer + longWaitNanos;
        long id = table.send(admin, OutgoingMessage.text("after the refusals").build());
        long sent = System.nanoTime();
        assertTrue(sent - fewer < longWaitNanos / 4, "the test sent its message "
                + TimeUnit.NANOSECONDS.toMillis(sent - fewer) + " ms into the poller's wait of at least "
                + TimeUnit.NANOSECONDS.toMillis(longWaitNanos) + " ms: too late to tell a wake-up from its next look");
        adapter.enqueueCommitted(queue);
        long within = longWaitNanos / 2 - (sent - fewer);
        await("the woken poller delivers it, at most " + TimeUnit.NANOSECONDS.toMillis(within) + " ms after the send, "
                + "long before its next look", Duration.ofNanos(within), () -> committed.containsKey(id));
        assertTrue(System.nanoTime() < nextLookNotBefore, "delivered before the poller's next look was due");
    }

    /**
     * The consumer's {EmptyPolls, Polls}, read again while a look is between counting the one and
     * the other (Polls first).
     */
    private long[] looksSeen() throws Exception {
        while (true) {
            long empty = (long) consumerBean("EmptyPolls");
            long all = (long) consumerBean("Polls");
            if (empty == (long) consumerBean("EmptyPolls") && all == (long) consumerBean("Polls")) {
                return new long[] {empty, all};
            }
        }
    }

    /**
     * A statement that holds the row of queue {@code q} whose id is its parameter until its
     * transaction ends, as a batch reader or an ordered claim holds the rows it read: claims skip
     * it, while the peek, which takes no lock (on SQL Server a shared one, which an update lock
     * lets pass), still sees it ready.
     */
    protected String holdRow(String q) {
        return "SELECT id FROM " + q + " WHERE id = ? FOR UPDATE";
    }

    /** Whether claims skip rows other transactions hold; where they wait instead, a delivery waits on a held row. */
    protected boolean claimsSkipHeldRows() {
        return true;
    }

    /** The peeks and deliveries (each one take that found something or nothing) of the test's activation. */
    private long looks() throws Exception {
        return (long) consumerBean("Polls") + container.endpointsCreated.get();
    }

    /**
     * Watches the activation of {@code spec} for a few seconds while {@code situation} keeps the
     * only ready message out of its claims' reach, and asserts it looked at the queue about as often
     * as an idle one: a peek and a delivery per back-off interval, from pollInterval doubling to
     * maxPollInterval, besides a peek and a delivery for each slot before the first of those
     * deliveries found the message out of reach. An upper bound from the time that passed: a slow
     * machine only looks less often. Before the poller backed off here, the peek said "ready" and
     * every free slot started a delivery whose take came back empty, again and again: thousands of
     * looks a second.
     */
    private void assertLooksAsWhenIdle(QueueActivationSpec spec, String situation) throws Exception {
        long before = looks();
        long start = System.nanoTime();
        LockSupport.parkNanos(Duration.ofSeconds(3).toNanos()); // the window watched
        long looked = looks() - before;
        long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        if (claimsSkipHeldRows()) {
            // Where peeks and claims wait on a held row instead of skipping it (Babelfish ignores
            // READPAST), the poller may sit in one look for the whole window: only the bound below holds.
            assertTrue(looked >= 2, "the poller looked " + looked + " times in " + elapsedMillis + " ms while "
                    + situation + ": it must have had its chances at the message for what follows to prove anything");
        }
        long interval = spec.getPollInterval(), rampSteps = 0;
        for (; interval < spec.getMaxPollInterval(); interval *= 2) {
            rampSteps++;
        }
        long intervals = rampSteps + 1 + elapsedMillis / spec.getMaxPollInterval();
        long bound = 2 * (spec.getMaxConcurrency() + intervals);
        assertTrue(looked <= bound, looked + " peeks and deliveries in " + elapsedMillis + " ms while " + situation
                + "; an idle poller looks at most " + bound + " times then (a peek and a delivery for each of the "
                + spec.getMaxConcurrency() + " slots at first, then in each of " + intervals + " back-off intervals)");
    }

    @Test
    void aReadyMessageHeldByAnotherTransactionIsLookedAtAsWhenIdleAndDeliveredOnceReleased() throws Exception {
        long held = send(1).get(0);
        QueueActivationSpec spec = spec();
        String[] db = database();
        List<Long> ids = new ArrayList<>(List.of(held));
        try (Connection holder = DriverDataSources.plain(db[0], db[1], db[2]).getConnection()) {
            holder.setAutoCommit(false);
            try (java.sql.PreparedStatement hold = holder.prepareStatement(holdRow(table.dialect().qualified(table.name())))) {
                hold.setLong(1, held);
                hold.execute();
            }
            activate(spec, recording(), false, true);
            await("a delivery has met the held message", () -> container.endpointsCreated.get() > 0);
            assertLooksAsWhenIdle(spec, "another transaction holds the only ready message");
            assertEquals(0, committed.size(), "the held message is not delivered while held");
            if (claimsSkipHeldRows()) {
                long other = send(1).get(0);
                ids.add(other);
                adapter.enqueueCommitted(queue);
                await("a message sent meanwhile is delivered past the held one", () -> committed.containsKey(other));
            }
            assertEquals(1, rows("queue"), "the held message is still queued");
            holder.rollback();
        }
        assertExactlyOnce(ids);
        assertEquals(0, rows("dlq"));
        assertEquals(0, count("SELECT COUNT(*) FROM " + table.dialect().qualified(table.name())), "gone from the queue");
    }

    /**
     * With attemptCounting=afterRollback (whatever the subclass counts with) a delivery's claim
     * deletes its message in the delivery's transaction: until the bean returns, PostgreSQL's and
     * H2's peek still see the row ready while every claim skips it. The free slots must not spin
     * meanwhile. (Counting before delivery, the lease hides the message from the peek.)
     */
    @Test
    void whileADeliveryClaimedInItsTransactionIsInProgressThePollerLooksAsWhenIdle() throws Exception {
        long id = send(1).get(0);
        CountDownLatch inBean = new CountDownLatch(1);
        CountDownLatch watched = new CountDownLatch(1);
        FakeContainer.Bean record = recording();
        QueueActivationSpec spec = spec();
        spec.setAttemptCounting(QueueActivationSpec.AFTER_ROLLBACK);
        activate(spec, messages -> {
            inBean.countDown();
            assertTrue(watched.await(60, TimeUnit.SECONDS), "the test let the bean go on");
            record.onMessages(messages);
        }, false, true);
        assertTrue(inBean.await(30, TimeUnit.SECONDS), "the message reached the bean");
        try {
            assertLooksAsWhenIdle(spec, "a delivery in progress holds the only message");
        } finally {
            watched.countDown();
        }
        assertExactlyOnce(List.of(id));
        assertEquals(0, rows("dlq"));
    }

    @Test
    void deactivationWhileDeliveringLosesNothingAndLeavesNoWork() throws Exception {
        List<Long> ids = send(400);
        QueueActivationSpec spec = spec();
        FakeContainer.Bean record = recording();
        MessageEndpointFactory factory = activate(spec, messages -> {
            LockSupport.parkNanos(2_000_000);
            record.onMessages(messages);
        }, false, true);
        await("deliveries are under way", () -> committed.size() > 20);
        adapter.endpointDeactivation(factory, spec);
        active.clear();

        await("no poller or delivery left running", () -> container.activeWorks.get() == 0);
        assertEndedOnceOrStillQueued(ids);
        assertTrue(committed.size() < ids.size(), "deactivated before the end");
    }

    @Test
    void aDeliveryThatFailsWhileTheBeanIsUndeployedCountsNoAttempt() throws Exception {
        long id = table.send(admin, OutgoingMessage.text("caught in flight").build());
        CountDownLatch inBean = new CountDownLatch(1);
        CountDownLatch undeploying = new CountDownLatch(1);
        QueueActivationSpec spec = spec();
        MessageEndpointFactory factory = activate(spec, messages -> {
            inBean.countDown();
            try {
                undeploying.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            throw new IllegalStateException("the application is going away");
        }, false, true);
        assertTrue(inBean.await(30, TimeUnit.SECONDS), "the message reached the bean");
        Thread deactivation = new Thread(() -> adapter.endpointDeactivation(factory, spec));
        deactivation.start();
        await("deactivation has begun and waits for the delivery",
                () -> deactivation.getState() == Thread.State.TIMED_WAITING
                        && java.util.Arrays.stream(deactivation.getStackTrace()).anyMatch(f -> f.getClassName()
                                .equals(QueueActivation.class.getName()) && f.getMethodName().equals("stop")));
        undeploying.countDown();
        deactivation.join();
        active.clear();
        assertEquals(1, rows("queue"), "the message is back");
        assertEquals(0, count("SELECT attempts FROM " + table.dialect().qualified(table.name()) + " WHERE id = " + id),
                "the failure caused by the undeploy is not counted against the message");
    }

    /** The one bean whose name matches {@code pattern} (the database key varies with the test's database). */
    private static ObjectName only(String pattern) throws Exception {
        Set<ObjectName> names = ManagementFactory.getPlatformMBeanServer().queryNames(new ObjectName(pattern), null);
        assertEquals(1, names.size(), pattern + " matches " + names);
        return names.iterator().next();
    }

    private ObjectName consumerBeanName() throws Exception {
        return only("io.sqlqueue:type=Consumer,queue=" + queue + ",name=QueueListener,*");
    }

    private ObjectName queueBeanName() throws Exception {
        return only("io.sqlqueue:type=Queue,name=" + queue + ",*");
    }

    private Object consumerBean(String attribute) throws Exception {
        return ManagementFactory.getPlatformMBeanServer().getAttribute(consumerBeanName(), attribute);
    }

    private Object queueBean(String attribute) throws Exception {
        return ManagementFactory.getPlatformMBeanServer().getAttribute(queueBeanName(), attribute);
    }

    @Test
    void theManagementBeansReportWhatTheTablesShowAndGoAwayOnDeactivation() throws Exception {
        assumeCountedBeforeDelivery("a poison message can be delivered once more than maxAttempts, so the"
                + " rolled-back count is not exact");
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            ids.add(table.send(admin, OutgoingMessage.text(i % 10 == 0 ? "poison" : "fine").build()));
        }
        FakeContainer.Bean record = recording();
        MessageEndpointFactory factory = activate(spec(), messages -> {
            if (messages.get(0).text().equals("poison")) {
                throw new IllegalArgumentException("not an order");
            }
            record.onMessages(messages);
        }, false, true);
        await("90 committed and 10 dead-lettered", () -> committed.size() == 90 && rows("dlq") == 10);
        await("the last dead-lettering counted", () -> (long) consumerBean("DeadLettered") == 10);
        assertEquals(90L, consumerBean("Committed"));
        assertEquals(30L, consumerBean("RolledBack"), "3 attempts of each of the 10 poison messages");
        assertEquals(0, consumerBean("InFlight"));
        assertEquals("java.lang.IllegalArgumentException: not an order", consumerBean("LastError"));
        assertTrue((long) consumerBean("Polls") >= (long) consumerBean("EmptyPolls"));
        assertTrue((double) consumerBean("ProcessingP99Millis") >= (double) consumerBean("ProcessingP50Millis"));
        assertTrue((double) consumerBean("LatencyP50Millis") > 0, "messages waited before delivery");
        await("the queue bean's figures are read again (cached for a second)", () -> (long) queueBean("Ready") == 0);
        assertEquals(10L, queueBean("DeadLettered"));
        assertEquals(0L, queueBean("Delayed"));

        ObjectName queueName = queueBeanName();
        assertEquals(database()[0].replaceAll("(?i)(password=)[^;&]*", "$1****"), queueBean("Database"));
        assertEquals(10, ManagementFactory.getPlatformMBeanServer().invoke(queueName, "requeueDeadLetters",
                new Object[] {100}, new String[] {"int"}), "all 10 back in the queue");
        await("the requeued poison fails again and is dead-lettered again",
                () -> (long) consumerBean("DeadLettered") == 20 && rows("dlq") == 10);
        RuntimeException bad = assertThrows(RuntimeException.class, () -> ManagementFactory.getPlatformMBeanServer()
                .invoke(queueName, "purgeDeadLetters", new Object[] {"seven days"}, new String[] {"java.lang.String"}));
        assertTrue(String.valueOf(bad.getCause()).contains("ISO-8601 duration such as P7D"), String.valueOf(bad));
        assertEquals(0, ManagementFactory.getPlatformMBeanServer().invoke(queueName, "purgeDeadLetters",
                new Object[] {"P1D"}, new String[] {"java.lang.String"}), "none failed a day ago");
        assertEquals(10, ManagementFactory.getPlatformMBeanServer().invoke(queueName, "purgeDeadLetters",
                new Object[] {"PT0S"}, new String[] {"java.lang.String"}));
        assertEquals(0, rows("dlq"));
        // each change through JMX has its audit row; an in-process caller has no principal: "jmx"
        javax.management.openmbean.CompositeData[] audit = (javax.management.openmbean.CompositeData[])
                ManagementFactory.getPlatformMBeanServer().invoke(queueName, "auditTrail", new Object[] {10},
                        new String[] {"int"});
        assertEquals(List.of(List.of("delete", "jmx", 10), List.of("requeue", "jmx", 10)), Arrays.stream(audit)
                .map(a -> List.of(a.get("operation"), a.get("actor"), a.get("count"))).toList(),
                "newest first; the purge of nothing wrote no row");
        assertEquals("oldest failures first", audit[1].get("criterion"));
        assertTrue(String.valueOf(audit[0].get("criterion")).startsWith("failed before "), audit[0].toString());

        adapter.endpointDeactivation(factory, (QueueActivationSpec) active.get(0)[1]);
        active.clear();
        assertTrue(ManagementFactory.getPlatformMBeanServer().queryNames(
                new ObjectName("io.sqlqueue:*,queue=" + queue), null).isEmpty(), "the consumer bean is gone");
        assertTrue(ManagementFactory.getPlatformMBeanServer().queryNames(
                new ObjectName("io.sqlqueue:type=Queue,name=" + queue + ",*"), null).isEmpty(), "the queue bean is gone");
    }

    /**
     * The queue bean's operations for the dead-letter console, as a JMX client without the
     * adapter's classes calls them (open types only): browse the groups, a page and one message,
     * then requeue a selection and delete one and a group, each change audited with its actor;
     * the tables agree in SQL after each.
     */
    @Test
    void theQueueBeanBrowsesRequeuesAndDeletesDeadLettersAuditingEachChange() throws Exception {
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            ids.add(table.send(admin, OutgoingMessage.text("order " + i).header("n", "" + i).build()));
        }
        java.util.concurrent.atomic.AtomicBoolean failing = new java.util.concurrent.atomic.AtomicBoolean(true);
        FakeContainer.Bean record = recording();
        activate(spec(), messages -> {
            if (failing.get()) {
                throw new IllegalArgumentException("not an order");
            }
            record.onMessages(messages);
        }, false, true);
        await("the 4 messages dead-lettered", () -> rows("dlq") == 4);
        failing.set(false);
        javax.management.MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        ObjectName bean = queueBeanName();

        CompositeData[] groups = (CompositeData[]) server.invoke(bean, "deadLetterGroups", null, null);
        assertEquals(1, groups.length, "one reason, one exception class");
        assertEquals(4L, groups[0].get("count"));
        String reason = (String) groups[0].get("reason");
        String errorClass = (String) groups[0].get("errorClass");
        assertEquals(IllegalArgumentException.class.getName(), errorClass);
        String[] pageSignature = {"boolean", String.class.getName(), String.class.getName(), "int", "int"};
        CompositeData[] page = (CompositeData[]) server.invoke(bean, "deadLetterPage",
                new Object[] {false, reason, errorClass, 0, 3}, pageSignature);
        assertEquals(3, page.length, "a page of 3 of the group's 4");
        assertEquals(1, ((CompositeData[]) server.invoke(bean, "deadLetterPage", new Object[] {true, null, null, 3, 3},
                pageSignature)).length, "the whole table's second page");
        CompositeData one = (CompositeData) server.invoke(bean, "deadLetter", new Object[] {ids.get(0)},
                new String[] {"long"});
        assertEquals("order 0", new String((byte[]) one.get("body"), java.nio.charset.StandardCharsets.UTF_8));
        assertTrue(((String) one.get("headers")).contains("\"n\""), (String) one.get("headers"));
        assertEquals(3, one.get("attempts"));
        assertEquals(null, server.invoke(bean, "deadLetter", new Object[] {-1L}, new String[] {"long"}), "no such id");

        String[] idsSignature = {long[].class.getName(), String.class.getName()};
        assertEquals(2, server.invoke(bean, "requeueSelectedDeadLetters",
                new Object[] {new long[] {ids.get(0), ids.get(1)}, "alice"}, idsSignature));
        await("the requeued two delivered", () -> committed.size() == 2);
        assertEquals(2, rows("dlq"));
        assertEquals("n=3", server.invoke(bean, "deadLetter", new Object[] {ids.get(3)}, new String[] {"long"}) instanceof
                CompositeData d ? d.get("headerLines") : null, "the headers as an edit form shows them");
        String[] editSignature = {"long", String.class.getName(), String.class.getName(), String.class.getName()};
        long edited = (Long) server.invoke(bean, "requeueEditedDeadLetter",
                new Object[] {ids.get(3), "order 3 fixed", "n=3\nfixed=yes", "carol"}, editSignature);
        assertTrue(edited > ids.get(3), "a new message: " + edited);
        await("the edited message delivered", () -> committed.containsKey(edited));
        assertEquals(1, rows("dlq"), "the edited dead letter is gone");
        assertEquals(0L, server.invoke(bean, "requeueEditedDeadLetter", new Object[] {ids.get(3), "x", null, "carol"},
                editSignature), "no such dead letter any more");
        assertEquals(1, server.invoke(bean, "deleteSelectedDeadLetters", new Object[] {new long[] {ids.get(2)}, "bob"},
                idsSignature));
        assertEquals(0, rows("dlq"));
        assertEquals(0, server.invoke(bean, "deleteDeadLetterGroup", new Object[] {reason, errorClass, "bob"},
                new String[] {String.class.getName(), String.class.getName(), String.class.getName()}), "none left");
        assertEquals(0, rows("queue"), "nothing requeued by the deletes");

        CompositeData[] audit = (CompositeData[]) server.invoke(bean, "auditTrail", new Object[] {10},
                new String[] {"int"});
        assertEquals(List.of("delete bob 1", "edit carol 1", "requeue alice 2"), java.util.Arrays.stream(audit)
                .map(a -> a.get("operation") + " " + a.get("actor") + " " + a.get("count")).toList(), "newest first");
        assertEquals(String.valueOf(ids.get(2)), audit[0].get("messageIds"));
        assertEquals(ids.get(3) + " -> " + edited, audit[1].get("messageIds"));
        javax.management.RuntimeMBeanException badHeader = assertThrows(javax.management.RuntimeMBeanException.class,
                () -> server.invoke(bean, "requeueEditedDeadLetter", new Object[] {1L, "x", "no equals sign", "carol"},
                        editSignature));
        assertTrue(badHeader.getCause().getMessage().contains("header line 1"), badHeader.getCause().getMessage());
        javax.management.RuntimeMBeanException refused = assertThrows(javax.management.RuntimeMBeanException.class,
                () -> server.invoke(bean, "deleteSelectedDeadLetters", new Object[] {new long[] {1}, " "}, idsSignature));
        assertTrue(refused.getCause().getMessage().contains("actor must be"), refused.getCause().getMessage());
        try (Statement s = admin.createStatement()) { // the schema's audit table outlives this queue: its rows go
            s.execute("DELETE FROM " + table.dialect().qualified(table.deadLetters().auditTrail().name())
                    + " WHERE queue_name = '" + table.name() + "'");
        }
    }

    @Test
    void twoBeansSubscribedToOneTopicEachReceiveEveryMessageTheirFilterTakesOnce() throws Exception {
        Topic topic = Topic.open(admin, queue); // named like the test's queue: the subscriptions' queues are new
        Map<String, List<String>> received = new ConcurrentHashMap<>();
        for (String[] subscription : new String[][] {{"billing", ""}, {"refunds", "type = 'refund'"}}) {
            QueueActivationSpec spec = spec();
            spec.setQueue(null);
            spec.setTopic(queue);
            spec.setSubscriptionName(subscription[0]);
            spec.setSubscriptionFilter(subscription[1]);
            List<String> got = Collections.synchronizedList(new ArrayList<>());
            received.put(subscription[0], got);
            activate(spec, messages -> container.onCommit(() -> messages.forEach(m -> got.add(m.text()))), false, true);
        }
        try {
            await("both subscriptions made by the activations",
                    () -> tableExists(topic) && topic.subscriptions(admin).size() == 2);
            admin.setAutoCommit(false);
            topic.publish(admin, OutgoingMessage.text("rolled back").header("type", "refund").build());
            admin.rollback();
            List<String> refunds = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                String type = i % 4 == 0 ? "refund" : "order";
                topic.publish(admin, OutgoingMessage.text(type + " " + i).header("type", type).build());
                if (type.equals("refund")) {
                    refunds.add(type + " " + i);
                }
            }
            admin.commit();
            admin.setAutoCommit(true);
            await("every message delivered", () -> received.get("billing").size() >= 20
                    && received.get("refunds").size() >= refunds.size());
            assertEquals(20, Set.copyOf(received.get("billing")).size());
            assertEquals(20, received.get("billing").size(), "each once");
            assertEquals(Set.copyOf(refunds), Set.copyOf(received.get("refunds")));
            assertEquals(refunds.size(), received.get("refunds").size(), "each once, and only the refunds");

            ObjectName refundsQueue = only("io.sqlqueue:type=Queue,name=" + topic.queueOf("refunds") + ",*");
            assertEquals(true, ManagementFactory.getPlatformMBeanServer().invoke(refundsQueue, "removeSubscription",
                    new Object[0], new String[0]), "the admin operation removed it");
            assertEquals(List.of("billing"), topic.subscriptions(admin).stream().map(Topic.Subscription::name).toList());
            assertEquals(1, topic.publish(admin, OutgoingMessage.text("late refund").header("type", "refund").build())
                    .size(), "only billing is reached now");
        } finally {
            for (Object[] a : active) {
                adapter.endpointDeactivation((MessageEndpointFactory) a[0], (QueueActivationSpec) a[1]);
            }
            active.clear();
            try (Statement s = admin.createStatement()) {
                for (String name : List.of("billing", "refunds")) {
                    s.execute("DROP TABLE " + table.dialect().qualified(topic.queueOf(name)));
                    s.execute("DROP TABLE " + table.dialect().qualified(TableName.parse(topic.queueOf(name) + "_dlq")));
                    topic.unsubscribe(admin, name);
                }
            }
        }
    }

    /**
     * A JMS bean with a message selector on a queue receives exactly the messages it selects, each
     * once; the others stay queued as they were (never leased, claimed nor counted) until a bean
     * that takes them comes, and then nothing is lost: every message ends once, counted in SQL.
     */
    @Test
    void aJmsBeanWithAMessageSelectorReceivesWhatItSelectsAndLeavesTheRestQueuedUntouched() throws Exception {
        List<OutgoingMessage> out = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            out.add(OutgoingMessage.text("m" + i).headers(JmsHeaders.encode(Map.of("region", i % 2 == 0 ? "eu" : "us",
                    "amount", i * 100))).build());
        }
        List<Long> ids = new ArrayList<>();
        Set<Long> selected = new java.util.TreeSet<>();
        long[] sent = table.sendAll(admin, out);
        for (int i = 0; i < sent.length; i++) {
            ids.add(sent[i]);
            if (i % 2 == 0 && i * 100 >= 1000) {
                selected.add(sent[i]);
            }
        }
        Set<String> wrong = ConcurrentHashMap.newKeySet();
        FakeContainer.JmsBean bean = m -> {
            String messageId = m.getJMSMessageID();
            long id = Long.parseLong(messageId.substring(messageId.lastIndexOf(':') + 1));
            if (!selected.contains(id)) {
                wrong.add(messageId + " " + m.getStringProperty("region") + " " + m.getStringProperty("amount"));
            }
            container.onCommit(() -> committed.merge(id, 1, Integer::sum));
        };
        MessageEndpointFactory factory = container.jmsEndpointFactory(bean, true);
        QueueActivationSpec spec = spec();
        spec.setMessageSelector("region = 'eu' AND amount >= 1000");
        adapter.endpointActivation(factory, spec);
        active.add(new Object[] {factory, spec});
        long others = ids.size() - selected.size();
        await("the selected messages delivered", () -> committed.size() >= selected.size() && rows("queue") == others);
        assertEquals(Set.of(), wrong, "messages the selector does not select");
        assertEquals(selected, new java.util.TreeSet<>(committed.keySet()));
        assertNoneCommittedTwice();
        assertEquals(others, count("SELECT COUNT(*) FROM " + table.dialect().qualified(table.name())
                + " WHERE attempts = 0 AND lease_token IS NULL AND hidden IS NULL"), "the others untouched");

        activate(spec(), recording(), false, true); // a bean that takes everything
        assertEachExactlyOnce(Set.copyOf(ids), Set.of());
        assertEquals(Set.of(), wrong);
    }

    /**
     * A JMS bean on a topic subscription with a message selector: the subscription's filter, on the
     * JMS header fields and typed properties of each message published; exactly once each.
     */
    @Test
    void aJmsBeanSubscribedWithAMessageSelectorReceivesEachMessageItSelectsOnce() throws Exception {
        Topic topic = Topic.open(admin, queue);
        Map<Long, String> received = new ConcurrentHashMap<>();
        Set<String> twice = ConcurrentHashMap.newKeySet();
        FakeContainer.JmsBean bean = m -> {
            String text = ((jakarta.jms.TextMessage) m).getText();
            long id = Long.parseLong(m.getJMSMessageID().replaceFirst(".*:", ""));
            container.onCommit(() -> {
                if (received.put(id, text) != null) {
                    twice.add(text);
                }
            });
        };
        MessageEndpointFactory factory = container.jmsEndpointFactory(bean, true);
        QueueActivationSpec spec = spec();
        spec.setQueue(null);
        spec.setTopic(queue);
        spec.setSubscriptionName("large");
        spec.setMessageSelector("JMSType = 'refund' OR (amount > 500 AND currency <> 'USD')");
        adapter.endpointActivation(factory, spec);
        active.add(new Object[] {factory, spec});
        try {
            await("the subscription made by the activation",
                    () -> tableExists(topic) && topic.subscriptions(admin).size() == 1);
            assertEquals("JMSType = 'refund' OR (amount > 500 AND currency <> 'USD')",
                    topic.subscriptions(admin).get(0).filter().text());
            Set<String> expected = new java.util.TreeSet<>();
            for (int i = 0; i < 30; i++) {
                String currency = i % 3 == 0 ? "USD" : "EUR";
                int amount = i * 50;
                boolean refund = i % 7 == 0;
                OutgoingMessage.Builder m = OutgoingMessage.text("p" + i).headers(JmsHeaders.encode(Map.of(
                        "amount", amount, "currency", currency)));
                if (refund) {
                    m.header(io.sqlqueue.engine.JmsHeaders.TYPE, "refund");
                }
                List<TableName> reached = topic.publish(admin, m.build());
                if (refund || (amount > 500 && !currency.equals("USD"))) {
                    expected.add("p" + i);
                    assertEquals(1, reached.size(), "p" + i);
                } else {
                    assertEquals(List.of(), reached, "p" + i);
                }
            }
            await("every selected message delivered", () -> received.size() >= expected.size());
            assertEquals(expected, new java.util.TreeSet<>(received.values()));
            assertEquals(Set.of(), twice);
            await("the subscription's queue drained", () -> count("SELECT COUNT(*) FROM "
                    + table.dialect().qualified(topic.queueOf("large"))) == 0);
        } finally {
            adapter.endpointDeactivation(factory, spec);
            active.removeIf(a -> a[1] == spec);
            try (Statement s = admin.createStatement()) {
                s.execute("DROP TABLE " + table.dialect().qualified(topic.queueOf("large")));
                s.execute("DROP TABLE " + table.dialect().qualified(TableName.parse(topic.queueOf("large") + "_dlq")));
                topic.unsubscribe(admin, "large");
            }
        }
    }

    private boolean tableExists(Topic topic) {
        try {
            topic.subscriptions(admin);
            return true;
        } catch (SQLException e) {
            return false; // the activations have not made the subscriptions table yet
        }
    }

    @Test
    void expiredMessagesAreNeverDeliveredAndAreDeadLetteredByDefault() throws Exception {
        expiredMessagesAreNeverDeliveredAndEnd(QueueActivationSpec.DEAD_LETTER, 10);
    }

    @Test
    void expiredMessagesAreNeverDeliveredAndAreDiscardedWhenTheActivationSaysSo() throws Exception {
        expiredMessagesAreNeverDeliveredAndEnd(QueueActivationSpec.DISCARD, 0);
    }

    private void expiredMessagesAreNeverDeliveredAndEnd(String expiredMessages, int deadLetters) throws Exception {
        Duration ttl = Duration.ofMillis(1000);
        Instant sent = Instant.now();
        List<OutgoingMessage> batch = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            OutgoingMessage.Builder m = OutgoingMessage.text(i % 2 == 0 ? "expires" : "lives");
            batch.add((i % 2 == 0 ? m.timeToLive(ttl) : m).build());
        }
        table.sendAll(admin, batch);
        await("the time to live has run out", () -> Instant.now().isAfter(sent.plus(ttl).plusMillis(300)));
        List<String> delivered = Collections.synchronizedList(new ArrayList<>());
        QueueActivationSpec spec = spec();
        spec.setExpiredMessages(expiredMessages);
        activate(spec, messages -> container.onCommit(() -> messages.forEach(m -> delivered.add(m.text()))), false, true);
        await("the 10 live messages delivered", () -> delivered.size() >= 10);
        await("the queue is empty", () -> rows("queue") == 0);
        await("the 10 expired ones counted", () -> (long) consumerBean("Expired") == 10);
        assertEquals(Collections.nCopies(10, "lives"), delivered, "no expired message delivered");
        assertEquals(deadLetters, rows("dlq"));
        assertEquals(deadLetters, count("SELECT COUNT(*) FROM " + table.dialect().qualified(table.deadLetterName())
                + " WHERE last_error = 'expired'"));
        assertEquals((long) deadLetters, consumerBean("DeadLettered"));
        await("the queue bean shows none expired (cached for a second)", () -> (long) queueBean("Expired") == 0);
    }

    @Test
    void theJournalHasOneRowPerFinishedMessageAndIdleTimeTrimsOldRows() throws Exception {
        CompletionJournal journal = new CompletionJournal(table);
        journal.createIfMissing(admin);
        Instant longAgo = Instant.now().minus(Duration.ofDays(2));
        journal.record(admin, new JournalEntry(-1, longAgo, longAgo, longAgo, 1, JournalEntry.Outcome.COMPLETED, "old"));
        List<Long> good = send(40);
        long poison = table.send(admin, OutgoingMessage.text("poison").build());
        QueueActivationSpec spec = spec();
        spec.setJournal(true);
        spec.setJournalRetention(86_400_000L); // a day: the two-day-old row goes
        FakeContainer.Bean record = recording();
        activate(spec, messages -> {
            if (messages.get(0).text().equals("poison")) {
                throw new IllegalArgumentException("not an order");
            }
            record.onMessages(messages);
        }, false, true);
        Set<Long> all = new java.util.HashSet<>(good);
        all.add(poison);
        assertEachExactlyOnce(all, Set.of(poison));
        String j = table.dialect().qualified(journal.name());
        // The lease moves the poison message and then writes its journal row: wait for each
        // (counting 41 rows at once was met by 40 + the old row before both had happened).
        await("the poison message's journal row", () -> count("SELECT COUNT(*) FROM " + j
                + " WHERE outcome = 'dead_lettered' AND message_id = " + poison + " AND attempts = 3") == 1);
        await("the old row trimmed", () -> count("SELECT COUNT(*) FROM " + j + " WHERE message_id = -1") == 0);
        assertEquals(41, count("SELECT COUNT(*) FROM " + j));
        assertEquals(40, count("SELECT COUNT(DISTINCT message_id) FROM " + j + " WHERE outcome = 'completed'"
                + " AND message_id IN (" + good.stream().map(String::valueOf).reduce((a, b) -> a + "," + b).get() + ")"),
                "one completed row per committed message");
        assertEquals(0, count("SELECT COUNT(*) FROM " + j + " WHERE consumer IS NULL OR claimed_at < enqueued_at"
                + " OR completed_at < claimed_at"));
    }

    /**
     * In a backlog, a delivery's transaction also leases the thread's next message: once the first
     * delivery has committed, the second message is leased and its attempt counted, before the
     * bean sees it.
     */
    @Test
    void aDeliveryInABacklogLeasesTheNextMessageInItsTransaction() throws Exception {
        assumeCountedBeforeDelivery("only then is the next message leased before its delivery");
        List<Long> ids = send(2);
        Map<Long, Integer> attemptsOfNext = new ConcurrentHashMap<>();
        Map<Long, Integer> attemptSeen = new ConcurrentHashMap<>();
        FakeContainer.Bean record = recording();
        QueueActivationSpec spec = spec();
        spec.setMaxConcurrency(1);
        spec.setLeaseAhead(1); // else the first lease takes both
        String[] db = database();
        try (Connection look = DriverDataSources.plain(db[0], db[1], db[2]).getConnection()) {
            activate(spec, messages -> {
                QueueMessage m = messages.get(0);
                attemptSeen.put(m.id(), m.attempt());
                if (m.id() == ids.get(0)) {
                    container.onCommit(() -> attemptsOfNext.put(ids.get(1), attempts(look, ids.get(1))));
                }
                record.onMessages(messages);
            }, false, true);
            assertExactlyOnce(ids);
        }
        assertEquals(1, attemptsOfNext.get(ids.get(1)), "the second message, as the first delivery committed");
        assertEquals(Map.of(ids.get(0), 1, ids.get(1), 1), attemptSeen, "each delivered at its first attempt");
    }

    /**
     * leaseAhead: a thread leases the next message and, when it was never attempted, more never
     * attempted, delivered one by one; a message already attempted (here: by hand, as if back from
     * a server that died with it) is leased alone. Seen from the bean, in SQL: how many rows are
     * under a lease while it has each message. Counting after a rollback, nothing is ever leased.
     */
    @Test
    void aThreadLeasesUnattemptedMessagesAheadAndAnAttemptedOneAlone() throws Exception {
        boolean leases = attemptCounting().equals(QueueActivationSpec.BEFORE_DELIVERY);
        List<Long> ids = send(9);
        try (Statement s = admin.createStatement()) {
            s.executeUpdate("UPDATE " + table.dialect().qualified(table.name()) + " SET attempts = 1, priority = 9"
                    + " WHERE id = " + ids.get(0));
        }
        Map<Long, Integer> attemptSeen = new ConcurrentHashMap<>();
        Map<Long, Integer> leasedMeanwhile = new ConcurrentHashMap<>();
        FakeContainer.Bean record = recording();
        QueueActivationSpec spec = spec();
        spec.setMaxConcurrency(1);
        spec.setLeaseAhead(4);
        String[] db = database();
        try (Connection look = DriverDataSources.plain(db[0], db[1], db[2]).getConnection()) {
            activate(spec, messages -> {
                QueueMessage m = messages.get(0);
                attemptSeen.put(m.id(), m.attempt());
                leasedMeanwhile.put(m.id(), leased(look));
                record.onMessages(messages);
            }, false, true);
            assertExactlyOnce(ids);
        }
        assertEquals(2, attemptSeen.get(ids.get(0)), "the message attempted before, first in line");
        assertEquals(leases ? 1 : 0, leasedMeanwhile.get(ids.get(0)), "leased alone");
        assertEquals(leases ? List.of(4, 3, 2, 1, 4, 3, 2, 1) : Collections.nCopies(8, 0),
                ids.subList(1, 9).stream().map(leasedMeanwhile::get).toList(),
                "the others four at a time, each leased in the delivery before them");
        ids.subList(1, 9).forEach(id -> assertEquals(1, attemptSeen.get(id), "message " + id + "'s attempt"));
    }

    /** Rows under a lease now, read on {@code c}. */
    private int leased(Connection c) {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM "
                + table.dialect().qualified(table.name()) + " WHERE lease_token IS NOT NULL")) {
            rs.next();
            return rs.getInt(1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * A delivery thread that stops with its next message leased by the last delivery (here: the
     * bean pauses its consumer) gives it back uncounted; resumed, it is delivered at its first attempt.
     */
    @Test
    void aPausedDeliveryGivesBackTheMessageItLeasedAheadUncounted() throws Exception {
        assumeCountedBeforeDelivery("only then is the next message leased before its delivery");
        List<Long> ids = send(2);
        Map<Long, Integer> attemptSeen = new ConcurrentHashMap<>();
        FakeContainer.Bean record = recording();
        QueueActivationSpec spec = spec();
        spec.setMaxConcurrency(1);
        activate(spec, messages -> {
            QueueMessage m = messages.get(0);
            attemptSeen.put(m.id(), m.attempt());
            if (m.id() == ids.get(0)) {
                ManagementFactory.getPlatformMBeanServer().invoke(consumerBeanName(), "pause", null, null);
            }
            record.onMessages(messages);
        }, false, true);
        // the first delivery's commit (which the bean's record waits for) also committed the lease of the second
        await("the first message committed", () -> committed.containsKey(ids.get(0)));
        await("the second message given back uncounted", () -> attempts(admin, ids.get(1)) == 0);
        assertEquals(1, rows("queue"));
        assertEquals(false, attemptSeen.containsKey(ids.get(1)), "not delivered while paused");
        ManagementFactory.getPlatformMBeanServer().invoke(consumerBeanName(), "resume", null, null);
        assertExactlyOnce(ids);
        assertEquals(1, attemptSeen.get(ids.get(1)), "delivered at its first attempt after the resume");
    }

    private int attempts(Connection c, long id) {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT attempts FROM "
                + table.dialect().qualified(table.name()) + " WHERE id = " + id)) {
            return rs.next() ? rs.getInt(1) : -1;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Paused, the poller looks at nothing: proven by its chances, not by a wait. Once it has seen
     * the pause (PausedPolls) it no longer peeks; with 50 messages ready and a send's wake-up, it
     * must come round its loop twice more (each time a look it did not take, PausedPolls) without
     * a peek (Polls), a delivery (endpoints created) or a commit. Resumed, all 50 are delivered once.
     */
    @Test
    void pauseStopsDeliveriesAndResumeRestartsThemWithNothingLost() throws Exception {
        activate(spec(), recording(), false, true);
        ObjectName consumer = consumerBeanName();
        ManagementFactory.getPlatformMBeanServer().invoke(consumer, "pause", null, null);
        assertEquals(true, consumerBean("Paused"));
        await("the poller has seen the pause", () -> (long) consumerBean("PausedPolls") >= 1);
        await("no delivery running (only the poller)", () -> container.activeWorks.get() == 1);
        long polls = (long) consumerBean("Polls");
        int endpoints = container.endpointsCreated.get();
        List<Long> ids = send(50);
        adapter.enqueueCommitted(queue); // a wake-up: one chance at once
        long pausedPolls = (long) consumerBean("PausedPolls");
        await("the paused poller came round twice with the 50 ready",
                () -> (long) consumerBean("PausedPolls") >= pausedPolls + 2);
        assertEquals(polls, (long) consumerBean("Polls"), "no look at the queue while paused");
        assertEquals(endpoints, container.endpointsCreated.get(), "no delivery started while paused");
        assertEquals(0, committed.size(), "nothing delivered while paused");
        assertEquals(50, rows("queue"), "all 50 still queued");
        ManagementFactory.getPlatformMBeanServer().invoke(consumer, "resume", null, null);
        assertExactlyOnce(ids);
    }

    @Test
    void activationSucceedsWhileTheDatabaseIsDown() throws Exception {
        QueueActivationSpec spec = spec();
        spec.setJdbcUrl("jdbc:postgresql://127.0.0.1:1/none");
        spec.setMaxPollInterval(50L);
        assertDoesNotThrow(() -> activate(spec, recording(), false, true));
        await("the poller has tried the database and failed", () -> String.valueOf(consumerBean("LastError"))
                .startsWith("cannot reach the database"));
        adapter.endpointDeactivation((MessageEndpointFactory) active.get(0)[0], spec);
        active.clear();
        await("no poller left running", () -> container.activeWorks.get() == 0);
    }

    @Test
    void getXAResourcesLetsTheServerRecoverADequeueLeftInDoubt() throws Exception {
        assumeTrue(!database()[0].startsWith("jdbc:h2:"),
                "H2 ends a prepared transaction when its session closes: no in-doubt dequeue to recover");
        assumeXA();
        long id = table.send(admin, OutgoingMessage.text("in doubt").build());
        QueueActivationSpec spec = spec();
        javax.transaction.xa.Xid xid = TestXid.next();
        String[] db = database();
        javax.sql.XAConnection crashed = DriverDataSources.xa(db[0], db[1], db[2]).getXAConnection();
        try {
            javax.transaction.xa.XAResource branch = crashed.getXAResource();
            branch.start(xid, javax.transaction.xa.XAResource.TMNOFLAGS);
            assertEquals(1, table.claim(crashed.getConnection(), 1).size());
            branch.end(xid, javax.transaction.xa.XAResource.TMSUCCESS);
            branch.prepare(xid); // the server "crashes" here: the dequeue is in doubt
        } finally {
            crashed.close();
        }

        javax.transaction.xa.XAResource[] recovery = adapter.getXAResources(new QueueActivationSpec[] {spec});
        assertEquals(1, recovery.length);
        List<javax.transaction.xa.Xid> inDoubt = List.of(recovery[0].recover(
                javax.transaction.xa.XAResource.TMSTARTRSCAN | javax.transaction.xa.XAResource.TMENDRSCAN));
        assertTrue(inDoubt.stream().anyMatch(x -> java.util.Arrays.equals(x.getGlobalTransactionId(),
                xid.getGlobalTransactionId())), "the prepared dequeue is found for recovery");
        recovery[0].rollback(xid); // what the server's recovery decides for an unlogged transaction
        assertEquals(List.of(id), table.claim(admin, 1).stream().map(QueueMessage::id).toList(),
                "rolled back by recovery, the message is back");
    }

    // ---- Faults. After each, every message is exactly once committed, dead-lettered or queued. ----

    private Set<Long> idsIn(String which) throws SQLException {
        String t = table.dialect().qualified(which.equals("dlq") ? table.deadLetterName() : table.name());
        Set<Long> ids = new java.util.HashSet<>();
        try (Statement s = admin.createStatement(); ResultSet rs = s.executeQuery("SELECT id FROM " + t)) {
            while (rs.next()) {
                ids.add(rs.getLong(1));
            }
        }
        return ids;
    }

    /**
     * The invariant (DESIGN 4a), the one check of every delivery test: once the queue has drained, each
     * of {@code ids} ended exactly once, committed once by the bean or in the dead-letter table (read
     * in SQL, exactly {@code deadLetters}), none both, none left queued, and nothing else committed.
     */
    void assertEachExactlyOnce(Set<Long> ids, Set<Long> deadLetters) throws Exception {
        await("the queue drained: every message committed or dead-lettered",
                () -> rows("queue") == 0 && committed.size() + rows("dlq") >= ids.size());
        Set<Long> dead = idsIn("dlq");
        assertEquals(new java.util.TreeSet<>(deadLetters), new java.util.TreeSet<>(dead), "the dead letters");
        assertEachCommittedOnceOrIn(ids, dead, "dead-lettered");
        assertEquals(Set.of(), idsIn("queue"), "none left queued");
    }

    /**
     * After a deactivation: each of {@code ids} committed once or still queued, not both, by id (the
     * queue read in SQL), nothing dead-lettered and nothing else committed.
     */
    private void assertEndedOnceOrStillQueued(List<Long> ids) throws SQLException {
        assertEachCommittedOnceOrIn(Set.copyOf(ids), idsIn("queue"), "still queued");
        assertEquals(Set.of(), idsIn("dlq"), "nothing dead-lettered");
    }

    /** Each of {@code ids} committed once or in {@code other} ({@code where}), not both, and nothing else committed. */
    private void assertEachCommittedOnceOrIn(Set<Long> ids, Set<Long> other, String where) {
        assertNoneCommittedTwice();
        Set<Long> both = new java.util.TreeSet<>(committed.keySet());
        both.retainAll(other);
        assertEquals(Set.of(), both, "committed and " + where);
        Set<Long> everywhere = new java.util.TreeSet<>(committed.keySet());
        everywhere.addAll(other);
        assertEquals(new java.util.TreeSet<>(ids), everywhere, "every message committed or " + where + ", nothing else");
    }

    /** Inserts rows by hand (headers, body) and returns their ids, in order. */
    private List<Long> insertByHand(String... headersThenBody) throws SQLException {
        String q = table.dialect().qualified(table.name());
        Set<Long> before = idsIn("queue");
        try (java.sql.PreparedStatement ps = admin.prepareStatement("INSERT INTO " + q + " (headers, body) VALUES (?, ?)")) {
            for (int i = 0; i < headersThenBody.length; i += 2) {
                ps.setString(1, headersThenBody[i]);
                ps.setBytes(2, headersThenBody[i + 1].getBytes(java.nio.charset.StandardCharsets.UTF_8));
                ps.executeUpdate();
            }
        }
        List<Long> added = new ArrayList<>(idsIn("queue"));
        added.removeAll(before);
        added.sort(null);
        return added;
    }

    @Test
    void rowsWrittenByHandAreDeliveredOrDeadLetteredWithTheirReasonAndNothingStops() throws Exception {
        QueueActivationSpec spec = spec();
        spec.setJournal(true);
        activate(spec, recording(), false, true);
        List<Long> rows = insertByHand("not json", "bad 1", null, "good 1", "{\"a\":1}", "bad 2", "{}", "good 2",
                "[\"x\"]", "bad 3", "{\"a\":\"b\"}", "good 3", "{\"k\":null}", "bad 4", "", "good 4");
        adapter.enqueueCommitted(queue);
        Set<Long> bad = Set.of(rows.get(0), rows.get(2), rows.get(4), rows.get(6));
        assertEachExactlyOnce(Set.copyOf(rows), bad);
        assertEquals(4, count("SELECT COUNT(*) FROM " + table.dialect().qualified(table.deadLetterName())
                + " WHERE last_error LIKE 'undeliverable: the headers column is not a flat JSON object of strings%'"));
        await("the consumer bean counts them", () -> (long) consumerBean("DeadLettered") == 4);
        String j = table.dialect().qualified(new CompletionJournal(table).name());
        await("a journal row for each", () -> count("SELECT COUNT(*) FROM " + j) == 8);
        assertEquals(4, count("SELECT COUNT(*) FROM " + j + " WHERE outcome = 'dead_lettered'"));
    }

    @Test
    void aBeanThatThrowsAnErrorGetsTheMessageAgain() throws Exception {
        List<Long> ids = send(100);
        Set<Long> failedOnce = ConcurrentHashMap.newKeySet();
        FakeContainer.Bean record = recording();
        activate(spec(), messages -> {
            long id = messages.get(0).id();
            if (id % 4 == 0 && failedOnce.add(id)) {
                throw new StackOverflowError("deep recursion in the bean");
            }
            if (id % 5 == 0 && failedOnce.add(id)) {
                throw new OutOfMemoryError("the bean ran out of heap");
            }
            record.onMessages(messages);
        }, false, true);
        assertEachExactlyOnce(Set.copyOf(ids), Set.of());
        assertTrue(failedOnce.size() >= 40, "the errors were thrown: " + failedOnce.size());
    }

    @Test
    void aBatchFailingOnOneMessageLosesNothing() throws Exception {
        List<Long> ids = send(200);
        long poison = ids.get(77);
        QueueActivationSpec spec = spec();
        spec.setBatchSize(10);
        FakeContainer.Bean record = recording();
        Set<Long> withThePoison = ConcurrentHashMap.newKeySet(); // every message of a batch the poison failed
        activate(spec, messages -> {
            if (messages.stream().anyMatch(m -> m.id() == poison)) {
                messages.forEach(m -> withThePoison.add(m.id()));
                throw new IllegalArgumentException("one bad order in the batch");
            }
            record.onMessages(messages);
        }, true, true);
        await("the poison message is dead-lettered", () -> idsIn("dlq").contains(poison));
        await("nothing left queued", () -> rows("queue") == 0);
        Set<Long> dead = idsIn("dlq");
        assertTrue(withThePoison.containsAll(dead), "dead-lettered only with the poison: " + dead + " of " + withThePoison);
        assertEquals(dead.size(), count("SELECT COUNT(*) FROM " + table.dialect().qualified(table.deadLetterName())
                + " WHERE last_error LIKE '%one bad order in the batch%'"), "each with the batch's failure");
        assertEachExactlyOnce(Set.copyOf(ids), dead);
    }

    /**
     * A statement that makes inserts into the (empty) journal fail: by default it renames the
     * table to {@code away}. Both names quoted, no schema.
     */
    protected String makeJournalUnwritable(String journal, String away) {
        return "ALTER TABLE " + journal + " RENAME TO " + away;
    }

    /** Undoes {@link #makeJournalUnwritable}. */
    protected String makeJournalWritable(String journal, String away) {
        return "ALTER TABLE " + away + " RENAME TO " + journal;
    }

    @Test
    void aJournalThatCannotBeWrittenRollsDeliveriesBackWithoutCountingThem() throws Exception {
        QueueActivationSpec spec = spec();
        spec.setJournal(true);
        activate(spec, recording(), false, true);
        CompletionJournal journal = new CompletionJournal(table);
        await("the journal is created", () -> {
            try (Statement s = admin.createStatement()) {
                s.executeQuery("SELECT COUNT(*) FROM " + table.dialect().qualified(journal.name())).close();
                return true;
            } catch (SQLException notYet) {
                return false;
            }
        });
        String here = table.dialect().qualified(journal.name());
        String away = table.dialect().qualified(io.sqlqueue.engine.TableName.parse(journal.name().table() + "_away"));
        try (Statement s = admin.createStatement()) {
            s.execute(makeJournalUnwritable(here, away));
        }
        List<Long> ids = send(30);
        await("deliveries fail on the journal", () -> (long) consumerBean("RolledBack") > 5);
        assertEquals(0, committed.size(), "no delivery commits without its journal row");
        try (Statement s = admin.createStatement()) {
            s.execute(makeJournalWritable(here, away));
        }
        assertEachExactlyOnce(Set.copyOf(ids), Set.of());
        assertEquals(0, count("SELECT COUNT(*) FROM " + table.dialect().qualified(table.name())));
        assertEquals(30, count("SELECT COUNT(DISTINCT message_id) FROM " + table.dialect().qualified(journal.name())
                + " WHERE outcome = 'completed'"));
    }

    @Test
    void deliveryConnectionsKilledMidDeliveryLoseNothing() throws Exception {
        assumeTrue(database()[0].startsWith("jdbc:postgresql:"), "needs pg_terminate_backend (PostgreSQL)");
        List<Long> ids = send(40);
        CountDownLatch inBean = new CountDownLatch(1);
        CountDownLatch killed = new CountDownLatch(1);
        FakeContainer.Bean record = recording();
        activate(spec(), messages -> {
            inBean.countDown();
            killed.await(30, TimeUnit.SECONDS);
            record.onMessages(messages);
        }, false, true);
        assertTrue(inBean.await(30, TimeUnit.SECONDS));
        long terminated = count("SELECT COUNT(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE pid <>"
                + " pg_backend_pid() AND usename = current_user AND datname = current_database()");
        assertTrue(terminated > 0, "the adapter's sessions were killed");
        killed.countDown();
        assertEachExactlyOnce(Set.copyOf(ids), Set.of());
    }

    /**
     * The database restarts while deliveries hold their messages in the bean, between the claim
     * and the commit: those commits fail, and every message is still committed once.
     */
    @Test
    void aDatabaseRestartBetweenClaimAndCommitLosesNothing() throws Exception {
        DatabaseRestart restart = databaseRestart();
        List<Long> ids = send(40);
        CountDownLatch inBean = new CountDownLatch(1);
        CountDownLatch restarted = new CountDownLatch(1);
        FakeContainer.Bean record = recording();
        activate(spec(), messages -> {
            inBean.countDown();
            restarted.await(60, TimeUnit.SECONDS);
            record.onMessages(messages);
        }, false, true);
        assertTrue(inBean.await(30, TimeUnit.SECONDS));
        admin.close();
        restart.run();
        String[] db = database();
        admin = DriverDataSources.plain(db[0], db[1], db[2]).getConnection();
        restarted.countDown();
        assertEachExactlyOnce(Set.copyOf(ids), Set.of());
    }

    @Test
    void deactivationInTheMiddleOfABatchLosesNothing() throws Exception {
        List<Long> ids = send(300);
        QueueActivationSpec spec = spec();
        spec.setBatchSize(20);
        FakeContainer.Bean record = recording();
        MessageEndpointFactory factory = activate(spec, messages -> {
            LockSupport.parkNanos(5_000_000);
            record.onMessages(messages);
        }, true, true);
        await("deliveries are under way", () -> committed.size() >= 20);
        adapter.endpointDeactivation(factory, spec);
        active.clear();
        await("no poller or delivery left running", () -> container.activeWorks.get() == 0);
        assertEndedOnceOrStillQueued(ids);
        assertEquals(0, count("SELECT COUNT(*) FROM " + table.dialect().qualified(table.name()) + " WHERE attempts <> 0"),
                "deliveries cut short by the deactivation counted no attempt");
    }

    @Test
    void aMessageWhoseDeliveriesKillTheServerIsDeadLetteredAfterMaxAttempts() throws Exception {
        assumeCountedBeforeDelivery("deliveries that never finish are not counted: such a message is delivered"
                + " again without end");
        long killer = table.send(admin, OutgoingMessage.text("kills the server").build());
        List<Long> good = send(20);
        crashThreeTimesDelivering(killer);
        activate(spec(), recording(), false, true);
        Set<Long> all = new java.util.HashSet<>(good);
        all.add(killer);
        assertEachExactlyOnce(all, Set.of(killer));
        try (Statement s = admin.createStatement(); ResultSet rs = s.executeQuery("SELECT attempts, last_error FROM "
                + table.dialect().qualified(table.deadLetterName()))) {
            rs.next();
            assertEquals(4, rs.getInt(1), "three deliveries that never finished, and the lease that found it out");
            assertTrue(rs.getString(2).startsWith("never completed: delivered 3 times"), rs.getString(2));
        }
    }

    /**
     * Messages hidden for a second or more (a delay, the lease of a consumer that died) wait out of
     * the claims' way, and the pollers reveal and deliver them once their time has come.
     */
    @Test
    void messagesHiddenUntilTheirTimeAreDeliveredOnceItHasCome() throws Exception {
        long delayed = table.send(admin, OutgoingMessage.text("in a second").delay(QueueTable.HIDDEN_FROM).build());
        long abandoned = table.send(admin, OutgoingMessage.text("leased by a consumer that died").build());
        assertEquals(List.of(abandoned), table.lease(admin, 10, QueueTable.HIDDEN_FROM).stream()
                .map(m -> m.message().id()).toList(), "the delayed message is hidden from the lease");
        assertEquals(2, count("SELECT COUNT(*) FROM " + table.dialect().qualified(table.name()) + " WHERE hidden = 1"));
        activate(spec(), recording(), false, true);
        assertExactlyOnce(List.of(delayed, abandoned));
    }

    /** What three deliveries leave behind when their server dies in onMessage: counted leases, never settled. */
    private void crashThreeTimesDelivering(long message) throws SQLException {
        for (int crash = 1; crash <= 3; crash++) {
            List<io.sqlqueue.engine.LeasedMessage> leased = table.lease(admin, 1, Duration.ofMillis(1));
            assertEquals(List.of(message), leased.stream().map(m -> m.message().id()).toList());
            assertEquals(crash, leased.get(0).message().attempt());
            LockSupport.parkNanos(Duration.ofMillis(5).toNanos()); // the lease runs out
        }
    }

    /**
     * A lease that finds a message out of attempts moves it to the dead-letter table in one
     * transaction with its journal row: while the journal refuses that row (a check constraint),
     * the message stays in the queue, uncounted, and nothing is dead-lettered; once the journal
     * takes it, both are there.
     */
    @Test
    void aLeaseDeadLettersAMessageOnlyTogetherWithItsJournalRow() throws Exception {
        assumeCountedBeforeDelivery("only a lease dead-letters a message whose deliveries never finished");
        CompletionJournal journal = new CompletionJournal(table);
        journal.createIfMissing(admin);
        String journalTable = table.dialect().qualified(journal.name());
        String constraint = "no_dead_" + queue;
        try (Statement s = admin.createStatement()) {
            s.execute("ALTER TABLE " + journalTable + " ADD CONSTRAINT " + constraint
                    + " CHECK (outcome <> 'dead_lettered')");
        }
        long killer = table.send(admin, OutgoingMessage.text("kills the server").build());
        List<Long> good = send(10);
        crashThreeTimesDelivering(killer);
        QueueActivationSpec spec = spec();
        spec.setJournal(true);
        activate(spec, recording(), false, true);
        await("a lease fails on the journal's constraint", () -> String.valueOf(consumerBean("LastError"))
                .toLowerCase(java.util.Locale.ROOT).contains(constraint.toLowerCase(java.util.Locale.ROOT)));
        assertEquals(0, rows("dlq"), "no move to the dead-letter table without its journal row");
        assertEquals(3, count("SELECT attempts FROM " + table.dialect().qualified(table.name()) + " WHERE id = " + killer),
                "the message out of attempts is still queued, and the failed lease counted nothing");

        try (Statement s = admin.createStatement()) {
            s.execute("ALTER TABLE " + journalTable + " DROP CONSTRAINT " + constraint);
        }
        Set<Long> all = new java.util.HashSet<>(good);
        all.add(killer);
        assertEachExactlyOnce(all, Set.of(killer));
        await("the journal's row of the dead letter", () -> count("SELECT COUNT(*) FROM " + journalTable
                + " WHERE outcome = 'dead_lettered' AND message_id = " + killer) == 1);
    }

    @Test
    void sameNamedQueuesOfTwoDatabasesAreTwoQueueBeans() throws Exception {
        String otherUrl = "jdbc:h2:mem:other_" + queue + ";DB_CLOSE_DELAY=-1";
        try (Connection other = DriverDataSources.plain(otherUrl, "sa", "other").getConnection()) {
            QueueTable elsewhere = QueueTable.open(other, queue);
            elsewhere.createIfMissing(other);
            long otherId = elsewhere.send(other, OutgoingMessage.text("elsewhere").build());
            Set<Long> deliveredThere = ConcurrentHashMap.newKeySet();
            QueueActivationSpec there = spec();
            there.setJdbcUrl(otherUrl);
            there.setUser("sa");
            there.setPassword("other");
            there.setUseXA(false);
            activate(spec(), recording(), false, true);
            activate(there, messages -> messages.forEach(m -> deliveredThere.add(m.id())), false, true);
            await("the message of the other database is delivered", () -> deliveredThere.contains(otherId));
            Set<ObjectName> beans = ManagementFactory.getPlatformMBeanServer().queryNames(
                    new ObjectName("io.sqlqueue:type=Queue,name=" + queue + ",*"), null);
            assertEquals(2, beans.size(), "one bean per database: " + beans);
            Set<Object> databases = new java.util.HashSet<>();
            for (ObjectName bean : beans) {
                databases.add(ManagementFactory.getPlatformMBeanServer().getAttribute(bean, "Database"));
            }
            assertTrue(databases.contains(otherUrl), databases.toString());
            List<Long> ids = send(3);
            assertExactlyOnce(ids);
            assertEquals(Set.of(otherId), deliveredThere, "each database's messages went to its own consumer");
            try (Statement s = other.createStatement()) {
                s.execute("DROP TABLE " + elsewhere.dialect().qualified(elsewhere.name()));
                s.execute("DROP TABLE " + elsewhere.dialect().qualified(elsewhere.deadLetterName()));
            }
        }
    }

    // ---- The circuit breaker (circuitBreakerFailures). ----

    /**
     * A bean whose own dependency is down for a while (a flag): every delivery fails until the test
     * brings it back. With the breaker at 5 failures and maxAttempts 6 no message can spend its
     * attempts in the run that opens it, and the failures while it is open are not counted: every
     * message ends committed once, none in the dead-letter table (read in SQL). While open, and once
     * the deliveries in flight when it opened have ended, the bean is called one delivery at a time.
     */
    @Test
    void aBeanWhoseDependencyIsDownForAWhileLosesNoMessageToTheDeadLetterTable() throws Exception {
        dependencyDownForAWhile(true);
    }

    /** As above, for a bean without a transaction (leased delivery). */
    @Test
    void aBeanWithoutATransactionWhoseDependencyIsDownForAWhileLosesNoMessageEither() throws Exception {
        dependencyDownForAWhile(false);
    }

    private void dependencyDownForAWhile(boolean transacted) throws Exception {
        java.util.concurrent.atomic.AtomicBoolean down = new java.util.concurrent.atomic.AtomicBoolean(true);
        java.util.concurrent.atomic.AtomicBoolean probing = new java.util.concurrent.atomic.AtomicBoolean();
        AtomicInteger inBean = new AtomicInteger();
        AtomicInteger mostAtOnceWhileProbing = new AtomicInteger();
        AtomicInteger probes = new AtomicInteger();
        List<Long> ids = send(30);
        QueueActivationSpec spec = spec();
        spec.setMaxAttempts(6);
        spec.setCircuitBreakerFailures(5);
        spec.setCircuitBreakerMaxPause(100L);
        FakeContainer.Bean record = recording();
        activate(spec, messages -> {
            int atOnce = inBean.incrementAndGet();
            try {
                if (probing.get() && down.get()) { // read after the count: a delivery beside it came after the outage
                    mostAtOnceWhileProbing.accumulateAndGet(atOnce, Math::max);
                    probes.incrementAndGet();
                }
                if (down.get()) {
                    throw new IllegalStateException("the stock service is down");
                }
                record.onMessages(messages);
            } finally {
                inBean.decrementAndGet();
            }
        }, false, transacted);

        await("the circuit breaker opened", () -> (boolean) consumerBean("CircuitOpen"));
        assertTrue(!((String) consumerBean("CircuitOpenedAt")).isEmpty(), "when it opened");
        assertTrue((int) consumerBean("ConsecutiveFailures") >= 5, "the run that opened it");
        assertTrue(String.valueOf(consumerBean("Readiness")).startsWith("UP ")
                && String.valueOf(consumerBean("Readiness")).contains("circuit=open"), "ready, and says it is open: "
                + consumerBean("Readiness"));
        await("the deliveries in flight when it opened have ended (only the poller left)",
                () -> container.activeWorks.get() == 1);
        probing.set(true); // from now on every delivery is one the open breaker started, after its pause
        await("three deliveries failed while open", () -> probes.get() >= 3);
        assertEquals(0, rows("dlq"), "nothing dead-lettered while open");
        assertTrue((boolean) consumerBean("CircuitOpen"), "still open while the dependency is down");
        down.set(false);

        assertEachExactlyOnce(Set.copyOf(ids), Set.of());
        assertEquals(1, mostAtOnceWhileProbing.get(), "one delivery at a time while open");
        assertEquals(false, consumerBean("CircuitOpen"), "the first success closed it");
        assertEquals("", consumerBean("CircuitOpenedAt"));
        assertEquals(0, consumerBean("ConsecutiveFailures"));
    }

    /** With the breaker off, as by default, the failures count as they always did: the messages are dead-lettered. */
    @Test
    void withTheCircuitBreakerOffEveryFailureCountsAndTheMessagesAreDeadLettered() throws Exception {
        List<Long> ids = send(10);
        activate(spec(), messages -> {
            throw new IllegalStateException("the stock service is down");
        }, false, true);
        assertEachExactlyOnce(Set.copyOf(ids), Set.copyOf(ids));
        assertEquals(false, consumerBean("CircuitOpen"));
        assertTrue((int) consumerBean("ConsecutiveFailures") >= 30, "3 attempts of each, counted in a row all the same");
        assertTrue(String.valueOf(consumerBean("Readiness")).contains("circuit=off"), (String) consumerBean("Readiness"));
    }

    /**
     * A failure while the breaker is open puts its message back hidden for two pauses, so a message
     * that fails on its own merits at the head of the queue cannot keep the breaker open once the
     * dependency is back: the next delivery takes another message and closes it. Left alone, that
     * message opens it again and stays queued, uncounted, instead of being dead-lettered: what a
     * queue of only failing messages does. (maxAttempts is the most there is, so that its failures
     * between the good messages' successes, which count, cannot reach it here.)
     */
    @Test
    void aMessageThatAlwaysFailsAtTheHeadDoesNotKeepTheBreakerOpenOnceTheDependencyIsBack() throws Exception {
        long poison = table.send(admin, OutgoingMessage.text("poison").build());
        List<Long> good = send(20);
        java.util.concurrent.atomic.AtomicBoolean down = new java.util.concurrent.atomic.AtomicBoolean(true);
        QueueActivationSpec spec = spec();
        spec.setMaxAttempts(1000);
        spec.setCircuitBreakerFailures(4);
        spec.setCircuitBreakerMaxPause(100L);
        FakeContainer.Bean record = recording();
        activate(spec, messages -> {
            if (down.get() || messages.get(0).text().equals("poison")) {
                throw new IllegalStateException(down.get() ? "the stock service is down" : "not an order");
            }
            record.onMessages(messages);
        }, false, true);
        await("the circuit breaker opened", () -> (boolean) consumerBean("CircuitOpen"));
        down.set(false);

        await("every good message committed", () -> committed.keySet().containsAll(good));
        await("the poison message, left alone, opened it again", () -> (boolean) consumerBean("CircuitOpen"));
        Set<Long> all = new java.util.HashSet<>(good);
        all.add(poison);
        assertEachCommittedOnceOrIn(all, idsIn("queue"), "still queued");
        assertEquals(Set.of(poison), idsIn("queue"), "the poison message waits in the queue");
        assertEquals(Set.of(), idsIn("dlq"), "nothing dead-lettered");
    }

    // ---- trace context propagation ------------------------------------------------------------

    /** Sends {@code text} inside a new producer span, as the connection factory's send does; returns the span's context. */
    private SpanContext sendInSpan(String text, List<Long> ids) throws SQLException {
        Span producer = GlobalOpenTelemetry.getTracer("test").spanBuilder("send").setSpanKind(SpanKind.PRODUCER)
                .startSpan();
        try (Scope s = producer.makeCurrent()) {
            ids.add(table.send(admin, Tracing.withCurrentContext(OutgoingMessage.text(text).build())));
        } finally {
            producer.end();
        }
        return producer.getSpanContext();
    }

    /** The consumer spans the adapter exported for {@code queue}. */
    private List<SpanData> consumerSpans(InMemorySpans spans) {
        return spans.finished().stream().filter(d -> d.getKind() == SpanKind.CONSUMER
                && queue.equals(d.getAttributes().get(AttributeKey.stringKey("messaging.destination.name")))).toList();
    }

    private String traceIdInJournal(long messageId) throws SQLException {
        try (Statement s = admin.createStatement(); ResultSet rs = s.executeQuery("SELECT trace_id FROM "
                + table.dialect().qualified(new CompletionJournal(table).name()) + " WHERE message_id = " + messageId)) {
            assertTrue(rs.next(), "a journal row for message " + messageId);
            return rs.getString(1);
        }
    }

    /**
     * A message sent inside a span is delivered in a consumer span linked to it, once per attempt,
     * with the queue, the message id and the attempt; the bean's own spans are its children; the
     * failed attempt's span is an error; the journal row carries the producer's trace id. A message
     * sent outside any span is delivered in a span without a link, and journalled without a trace id.
     */
    @Test
    void aDeliveryRunsInAConsumerSpanLinkedToTheSpanItWasSentIn() throws Exception {
        try (InMemorySpans spans = InMemorySpans.installGlobal()) {
            List<Long> ids = new ArrayList<>();
            SpanContext producer = sendInSpan("traced", ids);
            long traced = ids.get(0);
            long untraced = table.send(admin, Tracing.withCurrentContext(OutgoingMessage.text("untraced").build()));
            ids.add(untraced);
            Map<String, QueueMessage> seenInBean = new ConcurrentHashMap<>(); // by the span current in the bean
            java.util.concurrent.atomic.AtomicBoolean failed = new java.util.concurrent.atomic.AtomicBoolean();
            QueueActivationSpec spec = spec();
            spec.setJournal(true);
            FakeContainer.Bean record = recording();
            activate(spec, messages -> {
                QueueMessage m = messages.get(0);
                seenInBean.put(Span.current().getSpanContext().getSpanId(), m);
                if (m.id() == traced && failed.compareAndSet(false, true)) {
                    throw new IllegalStateException("first delivery fails");
                }
                record.onMessages(messages);
            }, false, true);
            assertExactlyOnce(ids);
            // (with attemptCounting=afterRollback another thread may catch the failed message before its count)
            await("a span for each delivery", () -> consumerSpans(spans).size() == seenInBean.size());

            List<SpanData> ofTraced = consumerSpans(spans).stream()
                    .filter(d -> String.valueOf(traced).equals(d.getAttributes().get(AttributeKey.stringKey(
                            "messaging.message.id")))).toList();
            assertTrue(ofTraced.size() >= 2, "one span per delivery: " + ofTraced);
            for (SpanData d : ofTraced) {
                assertEquals("process " + queue, d.getName());
                assertEquals("sqlqueue", d.getAttributes().get(AttributeKey.stringKey("messaging.system")));
                assertEquals("process", d.getAttributes().get(AttributeKey.stringKey("messaging.operation.type")));
                assertEquals(1, d.getLinks().size());
                LinkData link = d.getLinks().get(0);
                assertEquals(producer.getTraceId(), link.getSpanContext().getTraceId());
                assertEquals(producer.getSpanId(), link.getSpanContext().getSpanId());
                assertTrue(link.getSpanContext().isRemote(), "read from the message");
                QueueMessage inBean = seenInBean.get(d.getSpanId());
                assertEquals(traced, inBean.id(), "the bean ran inside the span of its delivery");
                assertEquals((long) inBean.attempt(), d.getAttributes().get(
                        AttributeKey.longKey("messaging.sqlqueue.attempt")));
            }
            assertEquals(1, ofTraced.stream().filter(d -> d.getStatus().getStatusCode() == StatusCode.ERROR).count(),
                    "the failed delivery's span is an error");
            assertEquals(1L, ofTraced.stream().filter(d -> d.getStatus().getStatusCode() == StatusCode.ERROR)
                    .findFirst().orElseThrow().getAttributes().get(AttributeKey.longKey("messaging.sqlqueue.attempt")));

            SpanData ofUntraced = consumerSpans(spans).stream().filter(d -> String.valueOf(untraced).equals(
                    d.getAttributes().get(AttributeKey.stringKey("messaging.message.id")))).findFirst().orElseThrow();
            assertEquals(List.of(), ofUntraced.getLinks(), "sent outside a span: nothing to link to");

            await("both journal rows", () -> count("SELECT COUNT(*) FROM "
                    + table.dialect().qualified(new CompletionJournal(table).name())) == 2);
            assertEquals(producer.getTraceId(), traceIdInJournal(traced));
            assertEquals(null, traceIdInJournal(untraced));
        }
    }

    /** A batch is delivered in one consumer span per call, linked to the span each of its messages was sent in. */
    @Test
    void aBatchIsDeliveredInOneSpanLinkedToEachMessagesSender() throws Exception {
        try (InMemorySpans spans = InMemorySpans.installGlobal()) {
            List<Long> ids = new ArrayList<>();
            Map<String, Long> senders = new java.util.HashMap<>();
            for (int i = 0; i < 3; i++) {
                senders.put(sendInSpan("m" + i, ids).getSpanId(), ids.get(i));
            }
            QueueActivationSpec spec = spec();
            spec.setBatchSize(10);
            activate(spec, recording(), true, true);
            assertExactlyOnce(ids);
            await("the spans of the batches", () -> consumerSpans(spans).stream()
                    .mapToInt(d -> d.getLinks().size()).sum() == 3);
            Map<String, Long> linked = new java.util.HashMap<>();
            for (SpanData d : consumerSpans(spans)) {
                assertEquals("process " + queue, d.getName());
                for (LinkData link : d.getLinks()) {
                    linked.put(link.getSpanContext().getSpanId(), Long.valueOf(link.getAttributes().get(
                            AttributeKey.stringKey("messaging.message.id"))));
                }
                if (d.getLinks().size() > 1) {
                    assertEquals((long) d.getLinks().size(), d.getAttributes().get(
                            AttributeKey.longKey("messaging.batch.message_count")));
                }
            }
            assertEquals(senders, linked, "each message's link names it and its sender's span");
        }
    }

    // ---- Jakarta Messaging beans ----

    /** What a JMS bean saw in the delivery that committed. */
    private record JmsDelivery(String kind, String body, String correlationId, String type, int deliveryCount,
            boolean redelivered, String groupId, String region, long timestamp, String destination) {
    }

    /**
     * A {@code MessageListener} bean gets text and bytes messages through the same transacted delivery as a
     * QueueListener: each committed exactly once, with its header fields, and a message the bean threw on comes
     * back redelivered, with its delivery count.
     */
    @Test
    void aJmsMessageListenerReceivesTextAndBytesMessagesExactlyOnceWithTheirHeaderFields() throws Exception {
        byte[] binary = {0, (byte) 0xc3, (byte) 0x28, 7};
        List<OutgoingMessage> out = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            out.add((i % 2 == 0 ? OutgoingMessage.text("text " + i) : OutgoingMessage.bytes(binary))
                    .header("sqlqueue.jms.bodyType", i % 2 == 0 ? "text" : "bytes")
                    .header("JMSCorrelationID", "corr-" + i).header("JMSType", "order-created")
                    .header("region", "eu").orderingKey("key-" + i).build());
        }
        List<Long> ids = new ArrayList<>();
        for (long id : table.sendAll(admin, out)) {
            ids.add(id);
        }
        Instant before = Instant.now().minusSeconds(3600);
        Set<Long> failedOnce = ConcurrentHashMap.newKeySet();
        Map<Long, JmsDelivery> seen = new ConcurrentHashMap<>();
        FakeContainer.JmsBean bean = m -> {
            String messageId = m.getJMSMessageID();
            long id = Long.parseLong(messageId.substring(messageId.lastIndexOf(':') + 1));
            if (id % 3 == 0 && failedOnce.add(id)) {
                throw new IllegalStateException("every third message fails once");
            }
            String body = m instanceof jakarta.jms.TextMessage t ? t.getText()
                    : java.util.Arrays.toString(m.getBody(byte[].class));
            JmsDelivery d = new JmsDelivery(m instanceof jakarta.jms.TextMessage ? "text" : "bytes", body,
                    m.getJMSCorrelationID(), m.getJMSType(), m.getIntProperty("JMSXDeliveryCount"),
                    m.getJMSRedelivered(), m.getStringProperty("JMSXGroupID"), m.getStringProperty("region"),
                    m.getJMSTimestamp(), ((jakarta.jms.Queue) m.getJMSDestination()).getQueueName());
            container.onCommit(() -> {
                seen.put(id, d);
                committed.merge(id, 1, Integer::sum);
            });
        };
        MessageEndpointFactory factory = container.jmsEndpointFactory(bean, true);
        QueueActivationSpec spec = spec();
        spec.setQueue(null);
        spec.setDestination(queue); // as a bean moved from another JMS adapter names it
        spec.setDestinationType("jakarta.jms.Queue");
        spec.setAcknowledgeMode("Auto-acknowledge");
        adapter.endpointActivation(factory, spec);
        active.add(new Object[] {factory, spec});
        assertExactlyOnce(ids);
        for (int i = 0; i < ids.size(); i++) {
            long id = ids.get(i);
            JmsDelivery d = seen.get(id);
            assertEquals(i % 2 == 0 ? "text" : "bytes", d.kind(), "message " + i);
            assertEquals(i % 2 == 0 ? "text " + i : java.util.Arrays.toString(binary), d.body());
            assertEquals("corr-" + i, d.correlationId());
            assertEquals("order-created", d.type());
            assertEquals("key-" + i, d.groupId());
            assertEquals("eu", d.region());
            assertEquals(queue, d.destination());
            assertTrue(d.timestamp() > before.toEpochMilli() && d.timestamp() <= System.currentTimeMillis(),
                    "JMSTimestamp is when it was sent: " + d.timestamp());
            assertEquals(d.deliveryCount() > 1, d.redelivered(), "JMSRedelivered is JMSXDeliveryCount > 1");
            if (!failedOnce.contains(id)) {
                assertEquals(1, d.deliveryCount(), "delivered once: " + d);
            } else if (attemptCounting().equals(QueueActivationSpec.BEFORE_DELIVERY)) {
                assertEquals(2, d.deliveryCount(), "the redelivery of a message the bean threw on: " + d);
            } else { // afterRollback: a redelivery can come before its failure is counted
                assertTrue(d.deliveryCount() == 1 || d.deliveryCount() == 2, d.toString());
            }
        }
        assertEquals(ids.stream().filter(id -> id % 3 == 0).count(), failedOnce.size());
    }

    // ---- the adapter's JMS sender to its listeners ----

    /** The adapter's JMS connection factory for this test's database, outside a server: each send commits at once. */
    private jakarta.jms.ConnectionFactory jmsSender() {
        String[] db = database();
        io.sqlqueue.outbound.JmsManagedConnectionFactory mcf = new io.sqlqueue.outbound.JmsManagedConnectionFactory();
        mcf.setJdbcUrl(db[0]);
        mcf.setUser(db[1]);
        mcf.setPassword(db[2]);
        mcf.setResourceAdapter(adapter);
        return (jakarta.jms.ConnectionFactory) mcf.createConnectionFactory();
    }

    private static long idOf(String jmsMessageId) {
        return Long.parseLong(jmsMessageId.substring(jmsMessageId.lastIndexOf(':') + 1));
    }

    /**
     * A message the JMS sender sent reaches a MessageListener bean as it was sent: its body type and text,
     * typed properties (their own types back), correlation id, type, priority, group, expiration and delivery
     * time, and the message id the send reported.
     */
    @Test
    void aMessageFromTheJmsSenderReachesAMessageListenerBeanAsItWasSent() throws Exception {
        String sentId;
        long sentAt;
        try (jakarta.jms.JMSContext context = jmsSender().createContext()) {
            jakarta.jms.TextMessage m = context.createTextMessage("from JMS");
            m.setShortProperty("lines", (short) 3);
            context.createProducer().setPriority(8).setTimeToLive(600_000).setDeliveryDelay(200)
                    .setJMSCorrelationID("corr-7").setJMSType("order-created").setProperty("quantity", 5)
                    .setProperty("urgent", true).setProperty("price", 19.5).setProperty("region", "eu")
                    .setProperty("JMSXGroupID", "customer-7").send(new io.sqlqueue.jms.JmsQueue(queue), m);
            sentId = m.getJMSMessageID();
            sentAt = m.getJMSTimestamp();
        }
        Map<String, Object> seen = Collections.synchronizedMap(new java.util.HashMap<>());
        FakeContainer.JmsBean bean = m -> {
            Map<String, Object> fields = new java.util.TreeMap<>();
            fields.put("id", m.getJMSMessageID());
            fields.put("kind", m instanceof jakarta.jms.TextMessage t ? "text:" + t.getText() : "bytes");
            fields.put("quantity", m.getObjectProperty("quantity"));
            fields.put("quantityAsLong", m.getLongProperty("quantity"));
            fields.put("lines", m.getIntProperty("lines"));
            fields.put("urgent", m.getObjectProperty("urgent"));
            fields.put("price", m.getDoubleProperty("price"));
            fields.put("region", m.getStringProperty("region"));
            fields.put("group", m.getStringProperty("JMSXGroupID"));
            fields.put("correlationId", m.getJMSCorrelationID());
            fields.put("type", m.getJMSType());
            fields.put("priority", m.getJMSPriority());
            fields.put("timeToLive", m.getJMSExpiration() - m.getJMSTimestamp());
            fields.put("delay", m.getJMSDeliveryTime() - m.getJMSTimestamp());
            fields.put("timestamp", m.getJMSTimestamp());
            List<String> names = new ArrayList<>();
            for (Object name : Collections.list(m.getPropertyNames())) {
                names.add((String) name);
            }
            Collections.sort(names);
            fields.put("names", names);
            long id = idOf(m.getJMSMessageID());
            container.onCommit(() -> {
                seen.putAll(fields);
                committed.merge(id, 1, Integer::sum);
            });
        };
        MessageEndpointFactory factory = container.jmsEndpointFactory(bean, true);
        QueueActivationSpec spec = spec();
        adapter.endpointActivation(factory, spec);
        active.add(new Object[] {factory, spec});
        assertExactlyOnce(List.of(idOf(sentId)));

        assertEquals(sentId, seen.get("id"), "the id the send reported");
        assertEquals("text:from JMS", seen.get("kind"));
        assertEquals(5, seen.get("quantity"), "an int comes back an Integer");
        assertEquals(5L, seen.get("quantityAsLong"));
        assertEquals(3, seen.get("lines"), "a short reads as an int");
        assertEquals(Boolean.TRUE, seen.get("urgent"));
        assertEquals(19.5, seen.get("price"));
        assertEquals("eu", seen.get("region"));
        assertEquals("customer-7", seen.get("group"));
        assertEquals("corr-7", seen.get("correlationId"));
        assertEquals("order-created", seen.get("type"));
        assertEquals(8, seen.get("priority"));
        assertTrue(Math.abs((Long) seen.get("timeToLive") - 600_000) < 1000, "JMSExpiration: " + seen.get("timeToLive"));
        assertEquals(200L, seen.get("delay"), "JMSDeliveryTime is JMSTimestamp plus the delay");
        assertTrue(Math.abs((Long) seen.get("timestamp") - sentAt) < 3_600_000,
                "JMSTimestamp is the database's clock at the send: " + seen.get("timestamp") + ", sent at " + sentAt);
        assertEquals(List.of("JMSXDeliveryCount", "JMSXGroupID", "lines", "price", "quantity", "region", "urgent"),
                seen.get("names"), "the adapter's reserved headers are no properties");
        assertEquals(0, rows("dlq"));
    }

    /** A message the JMS sender sent (the classic API) reaches a QueueListener bean: its properties are headers of their text. */
    @Test
    void aMessageFromTheJmsSenderReachesAQueueListenerBean() throws Exception {
        String sentId;
        jakarta.jms.Connection connection = jmsSender().createConnection();
        try {
            jakarta.jms.Session session = connection.createSession();
            jakarta.jms.MessageProducer producer = session.createProducer(session.createQueue(queue));
            producer.setPriority(6);
            jakarta.jms.BytesMessage m = session.createBytesMessage();
            m.writeBytes(new byte[] {0, (byte) 0xc3, (byte) 0x28});
            m.setIntProperty("quantity", 5);
            m.setStringProperty("JMSXGroupID", "customer-7");
            m.setJMSCorrelationID("corr-8");
            producer.send(m);
            sentId = m.getJMSMessageID();
        } finally {
            connection.close();
        }
        List<QueueMessage> got = new java.util.concurrent.CopyOnWriteArrayList<>();
        activate(spec(), messages -> container.onCommit(() -> messages.forEach(message -> {
            got.add(message);
            committed.merge(message.id(), 1, Integer::sum);
        })), false, true);
        assertExactlyOnce(List.of(idOf(sentId)));

        QueueMessage m = got.get(0);
        assertEquals(List.of(0, 0xc3, 0x28), List.of(m.body()[0] & 0xff, m.body()[1] & 0xff, m.body()[2] & 0xff));
        assertEquals("5", m.headers().get("quantity"), "a property is a header of its text");
        assertEquals("quantity:int", m.headers().get("sqlqueue.jms.propertyTypes"));
        assertEquals("bytes", m.headers().get("sqlqueue.jms.bodyType"));
        assertEquals("corr-8", m.headers().get("JMSCorrelationID"));
        assertEquals("customer-7", m.orderingKey());
        assertEquals(2, m.priority(), "JMS 6 is the row's 2");
        assertEquals(null, m.expiresAt());
    }
}
