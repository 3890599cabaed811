package io.sqlqueue.outbound;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sqlqueue.QueueResourceAdapter;
import io.sqlqueue.api.QueueMessage;
import io.sqlqueue.engine.Browse;
import io.sqlqueue.engine.DriverDataSources;
import io.sqlqueue.engine.QueueTable;
import io.sqlqueue.engine.Topic;
import io.sqlqueue.jms.JmsQueue;
import io.sqlqueue.jms.JmsTopic;
import jakarta.jms.BytesMessage;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.DeliveryMode;
import jakarta.jms.IllegalStateException;
import jakarta.jms.IllegalStateRuntimeException;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.InvalidDestinationRuntimeException;
import jakarta.jms.InvalidSelectorException;
import jakarta.jms.InvalidSelectorRuntimeException;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.JMSProducer;
import jakarta.jms.JMSRuntimeException;
import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageFormatRuntimeException;
import jakarta.jms.MessageNotWriteableException;
import jakarta.jms.MessageProducer;
import jakarta.jms.QueueBrowser;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.TransactionInProgressException;
import jakarta.jms.TransactionInProgressRuntimeException;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * The JMS sender (a jakarta.jms.ConnectionFactory of the adapter's JMS connection definition)
 * against a real database, in JTA transactions as a server runs them ({@link FakeJta}): what a
 * JMSContext and the classic API write, row by row, read back in SQL; nothing on rollback; the
 * refusals. Each subclass names one database.
 */
abstract class JmsSenderContract {

    /** JDBC URL, user and password, or null URL when the database is not configured. */
    protected abstract String[] database();

    private final FakeJta jta = new FakeJta();
    private final List<String> committedWakeUps = new CopyOnWriteArrayList<>();
    private final io.sqlqueue.inbound.EnqueueListener wakeUps = committedWakeUps::add;
    private JmsManagedConnectionFactory mcf;
    private QueueResourceAdapter ra;
    private ConnectionFactory factory;
    private java.sql.Connection admin;
    private QueueTable table;
    private String queue;
    private JmsQueue destination;

    @BeforeEach
    void setUp() throws Exception {
        String[] db = database();
        assumeTrue(db[0] != null, "the database for these tests is not configured: skipped");
        ra = new QueueResourceAdapter();
        ra.start(jta.bootstrap());
        ra.addEnqueueListener(wakeUps);
        mcf = new JmsManagedConnectionFactory();
        mcf.setJdbcUrl(db[0]);
        mcf.setUser(db[1]);
        mcf.setPassword(db[2]);
        mcf.setResourceAdapter(ra);
        factory = (ConnectionFactory) mcf.createConnectionFactory(jta);
        admin = DriverDataSources.plain(db[0], db[1], db[2]).getConnection();
        queue = "jms_" + Long.toHexString(System.nanoTime());
        table = QueueTable.open(admin, queue);
        table.createIfMissing(admin);
        destination = new JmsQueue(queue);
    }

    @AfterEach
    void tearDown() throws SQLException {
        if (admin == null) {
            return;
        }
        ra.removeEnqueueListener(wakeUps);
        ra.stop();
        drop(table);
        admin.close();
    }

    private void drop(QueueTable t) throws SQLException {
        try (Statement s = admin.createStatement()) {
            s.execute("DROP TABLE " + t.dialect().qualified(t.name()));
            s.execute("DROP TABLE " + t.dialect().qualified(t.deadLetterName()));
        }
    }

    /** A row of the queue table, as stored. */
    private record Row(long id, int priority, long delayMillis, Long timeToLiveMillis, String headers,
            String orderingKey, byte[] body) {
        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    private List<Row> rows(QueueTable t) throws SQLException {
        List<Row> rows = new ArrayList<>();
        try (Statement s = admin.createStatement(); ResultSet rs = s.executeQuery("SELECT id, priority, enqueued_at,"
                + " visible_at, expires_at, headers, ordering_key, body FROM " + t.dialect().qualified(t.name())
                + " ORDER BY id")) {
            while (rs.next()) {
                long enqueued = rs.getTimestamp(3).getTime();
                java.sql.Timestamp expires = rs.getTimestamp(5);
                rows.add(new Row(rs.getLong(1), rs.getInt(2), rs.getTimestamp(4).getTime() - enqueued,
                        expires == null ? null : expires.getTime() - enqueued, rs.getString(6), rs.getString(7),
                        rs.getBytes(8)));
            }
        }
        return rows;
    }

    private long deadLetters() throws SQLException {
        try (Statement s = admin.createStatement(); ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM "
                + table.dialect().qualified(table.deadLetterName()))) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static void assertHeader(Row row, String name, String value) {
        assertTrue(row.headers().contains("\"" + name + "\":\"" + value + "\""), name + " in " + row.headers());
    }

    /** Within the database's timestamp precision. */
    private static void assertAbout(long expectedMillis, long actualMillis, String what) {
        assertTrue(Math.abs(expectedMillis - actualMillis) < 1000, what + ": " + actualMillis + " ms, expected "
                + expectedMillis);
    }

    // ---- the simplified API -------------------------------------------------------------------------

    @Test
    void aJmsContextSendInATransactionWritesTheMappedRowOnCommitAndNothingOnRollback() throws Exception {
        jta.begin(mcf);
        try (JMSContext context = factory.createContext()) {
            assertTrue(context.getTransacted(), "in a JTA transaction the sends join it");
            assertEquals(JMSContext.SESSION_TRANSACTED, context.getSessionMode());
            context.createProducer().send(destination, "rolled back");
            assertThrows(TransactionInProgressRuntimeException.class, context::commit, "the JTA transaction commits");
        }
        jta.rollback();
        assertEquals(List.of(), rows(table), "a rollback leaves nothing");
        assertEquals(List.of(), committedWakeUps, "nor wakes a poller");

        String sentId;
        jta.begin(mcf);
        try (JMSContext context = factory.createContext(JMSContext.AUTO_ACKNOWLEDGE)) { // ignored, as specified
            JMSProducer producer = context.createProducer().setPriority(7).setDeliveryDelay(60_000)
                    .setTimeToLive(3_600_000).setJMSCorrelationID("order-42").setJMSType("order-created")
                    .setProperty("quantity", 5).setProperty("urgent", true).setProperty("price", 19.5)
                    .setProperty("region", "eu").setProperty("JMSXGroupID", "customer-7");
            TextMessage m = context.createTextMessage("{\"order\":42}");
            m.setLongProperty("big", 9_000_000_000L);
            producer.send(destination, m);
            producer.send(destination, "second"); // the same settings
            sentId = m.getJMSMessageID();
            assertEquals(7, m.getJMSPriority());
            assertEquals(m.getJMSTimestamp() + 60_000, m.getJMSDeliveryTime());
            assertEquals(m.getJMSTimestamp() + 3_600_000, m.getJMSExpiration());
            assertEquals(destination, m.getJMSDestination());
            assertEquals(DeliveryMode.PERSISTENT, m.getJMSDeliveryMode());
            assertTrue(committedWakeUps.isEmpty(), "no wake-up before the commit");
        }
        jta.commit();

        List<Row> rows = rows(table);
        assertEquals(2, rows.size());
        Row row = rows.get(0);
        assertEquals("{\"order\":42}", row.text());
        assertEquals(3, row.priority(), "JMS 7 is stored as 7 - 4");
        assertAbout(60_000, row.delayMillis(), "visible_at after enqueued_at");
        assertAbout(3_600_000, row.timeToLiveMillis(), "expires_at after enqueued_at");
        assertEquals("customer-7", row.orderingKey(), "JMSXGroupID is the ordering key");
        assertHeader(row, "sqlqueue.jms.bodyType", "text");
        assertHeader(row, "JMSCorrelationID", "order-42");
        assertHeader(row, "JMSType", "order-created");
        assertHeader(row, "sqlqueue.jms.deliveryDelay", "60000");
        assertHeader(row, "quantity", "5");
        assertHeader(row, "urgent", "true");
        assertHeader(row, "price", "19.5");
        assertHeader(row, "region", "eu");
        assertHeader(row, "big", "9000000000");
        assertHeader(row, "sqlqueue.jms.propertyTypes", "big:long,quantity:int,urgent:boolean,price:double");
        assertFalse(row.headers().contains("JMSXGroupID"), row.headers());
        assertEquals("ID:" + queue + ":" + row.id(), sentId, "the id a MessageListener bean will read");
        assertEquals("second", rows.get(1).text());
        assertEquals("customer-7", rows.get(1).orderingKey());
        assertEquals(List.of(queue, queue), committedWakeUps, "each send's poller woken once committed");
        assertEquals(0, deadLetters());
    }

    @Test
    void outsideATransactionEachSendCommitsAtOnceAndATransactedContextIsRefused() throws Exception {
        try (JMSContext context = factory.createContext()) {
            assertFalse(context.getTransacted());
            assertEquals(JMSContext.AUTO_ACKNOWLEDGE, context.getSessionMode());
            context.createProducer().send(destination, new byte[] {1, 2, 3});
            assertEquals(1, rows(table).size(), "committed before the context closes");
            IllegalStateRuntimeException notTransacted = assertThrows(IllegalStateRuntimeException.class,
                    context::commit);
            assertTrue(notTransacted.getMessage().contains("not transacted"), notTransacted.getMessage());
        }
        Row row = rows(table).get(0);
        assertArrayEquals(new byte[] {1, 2, 3}, row.body());
        assertHeader(row, "sqlqueue.jms.bodyType", "bytes");
        assertEquals(0, row.priority(), "the JMS default 4 is the column's default 0");
        assertAbout(0, row.delayMillis(), "no delay");
        assertNull(row.timeToLiveMillis(), "no expiry");
        assertNull(row.orderingKey());
        assertFalse(row.headers().contains("deliveryDelay"), row.headers());

        JMSRuntimeException transacted = assertThrows(JMSRuntimeException.class,
                () -> factory.createContext(JMSContext.SESSION_TRANSACTED));
        assertTrue(transacted.getMessage().startsWith("createContext of a transacted session outside a JTA transaction"
                + " (a local JMS transaction, ended by commit or rollback) is not supported by the SQL queue adapter:"
                + " send inside a JTA transaction"), transacted.getMessage());
    }

    // ---- the classic API ------------------------------------------------------------------------------

    private static byte[] dataBytes() throws Exception {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(buffer)) {
            out.writeInt(7);
            out.writeUTF("zoë");
            out.writeDouble(1.5);
        }
        return buffer.toByteArray();
    }

    @Test
    void aClassicSessionSendInATransactionWritesTheMappedRowOnCommitAndNothingOnRollback() throws Exception {
        jta.begin(mcf);
        jakarta.jms.Connection connection = factory.createConnection();
        try {
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE); // ignored, as specified
            assertTrue(session.getTransacted());
            session.createProducer(destination).send(session.createTextMessage("rolled back"));
        } finally {
            connection.close();
        }
        jta.rollback();
        assertEquals(List.of(), rows(table));

        String sentId;
        jta.begin(mcf);
        connection = factory.createConnection();
        try {
            connection.start(); // does nothing: nothing is received
            Session session = connection.createSession();
            MessageProducer producer = session.createProducer(session.createQueue(queue));
            producer.setPriority(9);
            producer.setDeliveryDelay(5_000);
            BytesMessage m = session.createBytesMessage();
            m.writeInt(7);
            m.writeUTF("zoë");
            m.writeDouble(1.5);
            m.setJMSCorrelationID("corr-1");
            m.setJMSType("invoice");
            m.setIntProperty("lines", 3);
            m.setStringProperty("JMSXGroupID", "account-9");
            producer.send(m);
            sentId = m.getJMSMessageID();
            assertEquals(9, m.getJMSPriority());
            TextMessage second = session.createTextMessage("second");
            producer.send(second, DeliveryMode.NON_PERSISTENT, 0, 60_000); // this send's own settings
            assertEquals(DeliveryMode.NON_PERSISTENT, second.getJMSDeliveryMode());
            TransactionInProgressException inProgress = assertThrows(TransactionInProgressException.class,
                    session::commit);
            assertTrue(inProgress.getMessage().startsWith("commit: the session's sends belong to the JTA transaction"),
                    inProgress.getMessage());
            assertThrows(TransactionInProgressException.class, session::rollback);
        } finally {
            connection.close();
        }
        jta.commit();

        List<Row> rows = rows(table);
        assertEquals(2, rows.size());
        Row row = rows.get(0);
        assertEquals("ID:" + queue + ":" + row.id(), sentId);
        assertArrayEquals(dataBytes(), row.body());
        assertEquals(5, row.priority(), "JMS 9 is stored as 5");
        assertAbout(5_000, row.delayMillis(), "the delivery delay");
        assertNull(row.timeToLiveMillis());
        assertEquals("account-9", row.orderingKey());
        assertHeader(row, "sqlqueue.jms.bodyType", "bytes");
        assertHeader(row, "JMSCorrelationID", "corr-1");
        assertHeader(row, "JMSType", "invoice");
        assertHeader(row, "lines", "3");
        assertHeader(row, "sqlqueue.jms.propertyTypes", "lines:int");
        assertHeader(row, "sqlqueue.jms.deliveryDelay", "5000");
        Row second = rows.get(1);
        assertEquals("second", second.text());
        assertEquals(-4, second.priority(), "JMS 0 is stored as -4");
        assertAbout(5_000, second.delayMillis(), "the producer's delay");
        assertAbout(60_000, second.timeToLiveMillis(), "this send's time to live");
        assertNull(second.orderingKey());
    }

    @Test
    void aSessionOutsideATransactionCommitsEachSendAndATransactedOneIsRefused() throws Exception {
        jakarta.jms.Connection connection = factory.createConnection();
        try {
            Session session = connection.createSession(Session.DUPS_OK_ACKNOWLEDGE);
            assertFalse(session.getTransacted());
            assertEquals(Session.DUPS_OK_ACKNOWLEDGE, session.getAcknowledgeMode());
            MessageProducer anyDestination = session.createProducer(null);
            anyDestination.send(destination, session.createTextMessage("at once"));
            assertEquals(List.of("at once"), rows(table).stream().map(Row::text).toList());
            assertThrows(UnsupportedOperationException.class, () -> anyDestination.send(session.createMessage()),
                    "a producer without a destination needs one per send");
            assertThrows(InvalidDestinationException.class, () -> anyDestination.send(null, session.createMessage()));
            IllegalStateException notTransacted = assertThrows(IllegalStateException.class, session::commit);
            assertTrue(notTransacted.getMessage().contains("not transacted"), notTransacted.getMessage());
            for (Executable transacted : List.<Executable>of(() -> connection.createSession(true, 0),
                    () -> connection.createSession(Session.SESSION_TRANSACTED))) {
                JMSException e = assertThrows(JMSException.class, transacted);
                assertTrue(e.getMessage().startsWith("createSession of a transacted session outside a JTA transaction"),
                        e.getMessage());
            }
            JMSException unknown = assertThrows(JMSException.class, () -> connection.createSession(7));
            assertTrue(unknown.getMessage().contains("session mode 7 is not one of"), unknown.getMessage());
            session.close();
            IllegalStateException closed = assertThrows(IllegalStateException.class, session::createTextMessage);
            assertEquals("createTextMessage: the session is closed", closed.getMessage());
            assertThrows(IllegalStateException.class, () -> anyDestination.send(destination, null),
                    "its producers close with it");
        } finally {
            connection.close();
        }
        assertThrows(IllegalStateException.class, connection::createSession);
        assertEquals(1, rows(table).size());
    }

    // ---- topics -----------------------------------------------------------------------------------

    @Test
    void aMessageSentToATopicReachesEverySubscriptionOnCommitAndNoneOnRollback() throws Exception {
        Topic topic = Topic.open(admin, queue);
        topic.createIfMissing(admin);
        List<QueueTable> subscriptions = new ArrayList<>();
        for (String name : List.of("a", "b")) {
            QueueTable q = QueueTable.open(admin, topic.queueOf(name).toString());
            q.createIfMissing(admin);
            topic.subscribe(admin, name, name.equals("a") ? null : "region = 'eu'");
            subscriptions.add(q);
        }
        try {
            JmsTopic prices = new JmsTopic(queue);
            jta.begin(mcf);
            try (JMSContext context = factory.createContext()) {
                context.createProducer().setProperty("region", "eu").send(prices, "rolled back");
            }
            jta.rollback();
            jta.begin(mcf);
            try (JMSContext context = factory.createContext()) {
                TextMessage eu = context.createTextMessage("to both");
                context.createProducer().setProperty("region", "eu").setPriority(6).send(prices, eu);
                assertNull(eu.getJMSMessageID(), "a copy per subscription, each with its own id: no one id");
                assertEquals(prices, eu.getJMSDestination());
                context.createProducer().setProperty("region", "us").send(prices, "to a only");
            }
            jta.commit();
            assertEquals(List.of("to both", "to a only"), rows(subscriptions.get(0)).stream().map(Row::text).toList());
            List<Row> filtered = rows(subscriptions.get(1));
            assertEquals(List.of("to both"), filtered.stream().map(Row::text).toList(),
                    "the subscription filter reads the properties as headers");
            assertEquals(2, filtered.get(0).priority());
            assertHeader(filtered.get(0), "sqlqueue.jms.bodyType", "text");
            assertEquals(Set.of(queue + "_a", queue + "_b"), Set.copyOf(committedWakeUps));
        } finally {
            for (QueueTable q : subscriptions) {
                drop(q);
            }
            topic.unsubscribe(admin, "a");
            topic.unsubscribe(admin, "b");
        }
    }

    // ---- browsing ------------------------------------------------------------------------------------

    /** The messages an enumeration shows, to its end. */
    private static List<jakarta.jms.Message> shown(QueueBrowser browser) throws JMSException {
        List<jakarta.jms.Message> shown = new ArrayList<>();
        for (Enumeration<?> e = browser.getEnumeration(); e.hasMoreElements(); ) {
            shown.add((jakarta.jms.Message) e.nextElement());
        }
        return shown;
    }

    private static String body(jakarta.jms.Message m) throws JMSException {
        return m instanceof TextMessage t ? t.getText() : "bytes of " + ((BytesMessage) m).getBodyLength();
    }

    /**
     * A browser shows the messages a consumer could take now, in the order the queue delivers
     * them, as the read-only messages a MessageListener bean receives; not a delayed one; and
     * changes nothing. Each enumeration walks from the head again.
     */
    @Test
    void aBrowserShowsTheReadyMessagesInDeliveryOrderAsAMessageListenerReceivesThemAndChangesNothing()
            throws Exception {
        String firstId;
        try (JMSContext context = factory.createContext()) {
            TextMessage first = context.createTextMessage("first");
            context.createProducer().setProperty("region", "eu").setProperty("quantity", 5).send(destination, first);
            firstId = first.getJMSMessageID();
            context.createProducer().send(destination, new byte[] {1, 2, 3});
            context.createProducer().setPriority(9).send(destination, "urgent");
            context.createProducer().setDeliveryDelay(60_000).send(destination, "delayed");

            QueueBrowser browser = context.createBrowser(destination);
            assertEquals(destination, browser.getQueue());
            assertNull(browser.getMessageSelector());
            List<jakarta.jms.Message> shown = shown(browser);
            List<String> bodies = new ArrayList<>();
            for (jakarta.jms.Message m : shown) {
                bodies.add(body(m));
            }
            assertEquals(List.of("urgent", "first", "bytes of 3"), bodies);
            jakarta.jms.Message m = shown.get(1);
            assertEquals(firstId, m.getJMSMessageID(), "the id the sender was given");
            assertEquals("eu", m.getStringProperty("region"));
            assertEquals(5, m.getIntProperty("quantity"), "typed as sent");
            assertEquals(1, m.getIntProperty("JMSXDeliveryCount"));
            assertFalse(m.getJMSRedelivered());
            assertEquals(9, shown.get(0).getJMSPriority());
            assertThrows(MessageNotWriteableException.class, () -> ((TextMessage) m).setText("changed"));
            assertEquals(3, shown(browser).size(), "a second enumeration walks again from the head");
            browser.close();
        }
        List<Row> rows = rows(table);
        assertEquals(4, rows.size(), "nothing taken");
        assertEquals(0, deadLetters());
        assertEquals(List.of("urgent", "first"), table.claim(admin, 2).stream().map(QueueMessage::text).toList(),
                "a consumer takes them as they were");
    }

    /**
     * With a selector, a classic session's browser shows exactly the messages a consumer with it
     * would take, page after page; the selector is given back as written.
     */
    @Test
    void aBrowserWithASelectorShowsExactlyTheMessagesItSelectsAcrossPages() throws Exception {
        jakarta.jms.Connection connection = factory.createConnection();
        try {
            Session session = connection.createSession();
            MessageProducer producer = session.createProducer(destination);
            List<String> expected = new ArrayList<>();
            for (int i = 0; i < Browse.PAGE + 60; i++) {
                TextMessage m = session.createTextMessage("m" + i);
                boolean eu = i % 40 == 39;
                m.setStringProperty("region", eu ? "eu" : "us");
                m.setIntProperty("quantity", i);
                producer.send(m);
                if (eu && i > 50) {
                    expected.add("m" + i);
                }
            }
            String selector = "region = 'eu' AND quantity > 50";
            QueueBrowser browser = session.createBrowser(destination, selector);
            assertEquals(selector, browser.getMessageSelector());
            List<String> bodies = new ArrayList<>();
            for (jakarta.jms.Message m : shown(browser)) {
                bodies.add(body(m));
            }
            assertEquals(expected, bodies);
            assertEquals(3, expected.size());
            assertEquals(Browse.PAGE + 60, rows(table).size(), "nothing taken");
        } finally {
            connection.close();
        }
    }

    /**
     * In a JTA transaction the browser sees the transaction's own sends (they are on its
     * connection) before the commit; a rollback leaves nothing to see.
     */
    @Test
    void aBrowserInATransactionSeesItsOwnUncommittedSends() throws Exception {
        jta.begin(mcf);
        try (JMSContext context = factory.createContext()) {
            context.createProducer().send(destination, "sent in the transaction");
            assertEquals(List.of("sent in the transaction"), bodies(context.createBrowser(destination)));
        }
        jta.rollback();
        try (JMSContext context = factory.createContext()) {
            assertEquals(List.of(), bodies(context.createBrowser(destination)));
        }
    }

    private static List<String> bodies(QueueBrowser browser) throws JMSException {
        List<String> bodies = new ArrayList<>();
        for (jakarta.jms.Message m : shown(browser)) {
            bodies.add(body(m));
        }
        return bodies;
    }

    /**
     * A bad selector is refused when the browser is made, pointing at the bad token, as an
     * activation's is; so is a queue that is no queue name. A closed browser, or one of a closed
     * session, refuses to go on.
     */
    @Test
    void aBadSelectorIsRefusedAtCreationAndAClosedBrowserRefusesToGoOn() throws Exception {
        jakarta.jms.Connection connection = factory.createConnection();
        try (JMSContext context = factory.createContext()) {
            Session session = connection.createSession();
            InvalidSelectorException bad = assertThrows(InvalidSelectorException.class,
                    () -> session.createBrowser(destination, "region = 'eu' AND )"));
            assertTrue(bad.getMessage().contains("unexpected ')'") && bad.getMessage().contains(" at 19 in: region = 'eu'"
                    + " AND )"), bad.getMessage());
            InvalidSelectorRuntimeException badRuntime = assertThrows(InvalidSelectorRuntimeException.class,
                    () -> context.createBrowser(destination, "quantity >< 2"));
            assertTrue(badRuntime.getMessage().contains("quantity >< 2"), badRuntime.getMessage());
            assertThrows(InvalidDestinationException.class, () -> session.createBrowser(null));
            assertThrows(InvalidDestinationRuntimeException.class,
                    () -> context.createBrowser(() -> "no such; table"));
            assertEquals(List.of(), bodies(session.createBrowser(destination, " ")), "blank: no selector, an empty queue");
            Enumeration<?> missing = context.createBrowser(new JmsQueue(queue + "_missing")).getEnumeration();
            JMSRuntimeException noTable = assertThrows(JMSRuntimeException.class, missing::hasMoreElements,
                    "a queue without a table fails when the walk reads");
            assertTrue(noTable.getMessage().startsWith("cannot browse queue '" + queue + "_missing'"),
                    noTable.getMessage());

            context.createProducer().send(destination, "one");
            context.createProducer().send(destination, "two");
            QueueBrowser browser = session.createBrowser(destination);
            Enumeration<?> walk = browser.getEnumeration();
            assertTrue(walk.hasMoreElements());
            assertEquals("one", body((jakarta.jms.Message) walk.nextElement()));
            browser.close();
            browser.close(); // twice does nothing
            assertThrows(IllegalStateException.class, browser::getEnumeration);
            assertThrows(IllegalStateException.class, browser::getMessageSelector);
            assertThrows(IllegalStateRuntimeException.class, walk::hasMoreElements, "a closed browser's walk");

            QueueBrowser other = session.createBrowser(destination);
            Enumeration<?> otherWalk = other.getEnumeration();
            session.close();
            assertThrows(IllegalStateRuntimeException.class, otherWalk::hasMoreElements, "a closed session's walk");
            assertThrows(IllegalStateException.class, () -> session.createBrowser(destination));
        } finally {
            connection.close();
        }
    }

    // ---- what is refused --------------------------------------------------------------------------

    private static void assertRefused(String operation, Executable call) {
        Throwable e = assertThrows(Throwable.class, call, operation);
        String code = e instanceof JMSException j ? j.getErrorCode()
                : e instanceof JMSRuntimeException r ? r.getErrorCode() : null;
        assertEquals("SQLQUEUE_UNSUPPORTED", code, operation + ": " + e);
        assertTrue(e.getMessage().startsWith(operation + " is not supported by the SQL queue adapter: "),
                e.getMessage());
    }

    @Test
    void whatTheSenderDoesNotOfferIsRefusedNamingTheOperationAndWhatToDoInstead() throws Exception {
        jakarta.jms.Connection connection = factory.createConnection();
        try (JMSContext context = factory.createContext()) {
            Session session = connection.createSession();
            JMSProducer producer = context.createProducer();
            assertRefused("createConsumer", () -> session.createConsumer(destination));
            assertRefused("createConsumer", () -> context.createConsumer(destination, "region = 'eu'"));
            assertRefused("createDurableConsumer", () -> context.createDurableConsumer(new JmsTopic("t"), "s"));
            assertRefused("createSharedConsumer", () -> session.createSharedConsumer(new JmsTopic("t"), "s"));
            assertRefused("createDurableSubscriber", () -> session.createDurableSubscriber(new JmsTopic("t"), "s"));
            assertRefused("setMessageListener", () -> session.setMessageListener(m -> { }));
            assertRefused("createConnectionConsumer", () -> connection.createConnectionConsumer(destination, null,
                    null, 1));
            assertRefused("createTemporaryQueue", session::createTemporaryQueue);
            assertRefused("createTemporaryTopic", context::createTemporaryTopic);
            assertRefused("unsubscribe", () -> context.unsubscribe("s"));
            assertRefused("createMapMessage", session::createMapMessage);
            assertRefused("createObjectMessage", context::createObjectMessage);
            assertRefused("createStreamMessage", session::createStreamMessage);
            assertRefused("sending a Map (a MapMessage)", () -> producer.send(destination, Map.of("a", (Object) 1)));
            assertRefused("sending a Serializable (an ObjectMessage)",
                    () -> producer.send(destination, (Serializable) List.of(1)));
            assertRefused("setAsync", () -> producer.setAsync(new jakarta.jms.CompletionListener() {
                @Override
                public void onCompletion(jakarta.jms.Message message) {
                }

                @Override
                public void onException(jakarta.jms.Message message, Exception exception) {
                }
            }));
            assertRefused("send with a CompletionListener", () -> session.createProducer(destination)
                    .send(session.createMessage(), null));
            assertRefused("setJMSReplyTo", () -> producer.setJMSReplyTo(destination));
            assertRefused("setJMSReplyTo", () -> session.createMessage().setJMSReplyTo(destination));
            assertRefused("setJMSCorrelationIDAsBytes", () -> session.createMessage().setJMSCorrelationIDAsBytes(
                    new byte[] {1}));
            assertRefused("setClientID", () -> connection.setClientID("me"));
            assertRefused("setClientID", () -> context.setClientID("me"));
            assertRefused("setExceptionListener", () -> connection.setExceptionListener(e -> { }));
            assertRefused("JMSContext.createContext", () -> context.createContext(JMSContext.AUTO_ACKNOWLEDGE));
            assertRefused("createConnection(userName, password)", () -> factory.createConnection("sa", "x"));
            assertRefused("createContext(userName, password)", () -> factory.createContext("sa", "x"));
        } finally {
            connection.close();
        }
        assertEquals(List.of(), rows(table), "nothing was sent");
    }

    @Test
    void badSettingsPropertiesAndDestinationsFailNamingWhatIsWrongBeforeAnythingIsWritten() throws Exception {
        jakarta.jms.Connection connection = factory.createConnection();
        try (JMSContext context = factory.createContext()) {
            Session session = connection.createSession();
            MessageProducer classic = session.createProducer(destination);
            JMSException priority = assertThrows(JMSException.class, () -> classic.setPriority(10));
            assertEquals("priority must be 0 to 9, was 10", priority.getMessage());
            JMSProducer producer = context.createProducer();
            assertThrows(JMSRuntimeException.class, () -> producer.setPriority(-1));
            assertThrows(JMSRuntimeException.class, () -> producer.setTimeToLive(-5));
            assertThrows(JMSRuntimeException.class, () -> producer.setDeliveryDelay(-5));
            assertThrows(JMSRuntimeException.class, () -> producer.setDeliveryMode(3));

            producer.setDeliveryDelay(10_000).setTimeToLive(5_000);
            JMSRuntimeException expiresFirst = assertThrows(JMSRuntimeException.class,
                    () -> producer.send(destination, "x"));
            assertTrue(expiresFirst.getMessage().startsWith("cannot send: the time to live (PT5S) must be longer than"
                    + " the delivery delay (PT10S)"), expiresFirst.getMessage());
            producer.setTimeToLive(0);

            TextMessage m = session.createTextMessage("x");
            for (String name : List.of("", "a-b", "1st", "JMSXUserID", "JMS_vendor", "AND")) {
                assertThrows(IllegalArgumentException.class, () -> m.setStringProperty(name, "v"), name);
            }
            assertThrows(IllegalArgumentException.class, () -> producer.setProperty(null, "v"));
            MessageFormatException object = assertThrows(MessageFormatException.class,
                    () -> m.setObjectProperty("o", new Object()));
            assertTrue(object.getMessage().startsWith("property o must be a String, Boolean"), object.getMessage());
            assertThrows(MessageFormatRuntimeException.class, () -> producer.setProperty("JMSXGroupID", 5));
            m.setStringProperty("JMSXGroupID", "k".repeat(201));
            MessageFormatException key = assertThrows(MessageFormatException.class, () -> classic.send(m));
            assertTrue(key.getMessage().startsWith("JMSXGroupID is the ordering key: orderingKey must be 1 to 200"
                    + " characters"), key.getMessage());

            InvalidDestinationException badName = assertThrows(InvalidDestinationException.class,
                    () -> session.createQueue("orders; DROP TABLE x"));
            assertTrue(badName.getMessage().startsWith("queue name 'orders; DROP TABLE x' is not valid"),
                    badName.getMessage());
            assertThrows(InvalidDestinationRuntimeException.class, () -> context.createTopic("bad topic"));
            assertThrows(InvalidDestinationRuntimeException.class, () -> producer.send(null, "x"));
            assertThrows(InvalidDestinationRuntimeException.class, () -> producer.send(new JmsQueue(), "x"),
                    "an administered object never configured");
            JMSRuntimeException missing = assertThrows(JMSRuntimeException.class,
                    () -> producer.send(new JmsQueue("no_such_" + queue), "x"));
            assertTrue(missing.getMessage().contains("no_such_" + queue), missing.getMessage());
        } finally {
            connection.close();
        }
        assertEquals(List.of(), rows(table), "nothing was written");
    }

    @Test
    void aJmsMessageIsReadBackByTheEngineWithItsPriorityAndExpiry() throws Exception {
        try (JMSContext context = factory.createContext()) {
            context.createProducer().setPriority(8).setTimeToLive(600_000).send(destination, "read back");
        }
        List<QueueMessage> got = table.claim(admin, 10);
        assertEquals(1, got.size());
        assertEquals(4, got.get(0).priority());
        assertAbout(600_000, got.get(0).expiresAt().toEpochMilli() - got.get(0).enqueuedAt().toEpochMilli(),
                "expiresAt");
        assertEquals("text", got.get(0).headers().get("sqlqueue.jms.bodyType"));
    }
}
