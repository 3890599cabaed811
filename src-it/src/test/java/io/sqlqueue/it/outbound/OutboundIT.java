package io.sqlqueue.it.outbound;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sqlqueue.api.OutgoingMessage;
import io.sqlqueue.api.QueueException;
import io.sqlqueue.api.QueueMessage;
import io.sqlqueue.engine.DriverDataSources;
import io.sqlqueue.engine.QueueTable;
import jakarta.ejb.EJB;
import jakarta.ejb.EJBException;
import io.sqlqueue.it.harness.TargetServer;
import io.sqlqueue.it.harness.TestDatabase;
import io.sqlqueue.it.harness.WebXml;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.Archive;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The connection factory on each {@link TargetServer}, through the adapter's own JDBC settings: the
 * enqueue commits and rolls back with the caller's transaction under XA and local pools, commits
 * at once under NoTransaction, reports a bad URL or password clearly, and returns its connections.
 * Runs on H2, and on PostgreSQL in the execution that sets {@code it.db=postgresql}. The tables are
 * read through the adapter's own classes, so through the same driver as the factories.
 */
@ExtendWith(ArquillianExtension.class)
class OutboundIT {

    /** The database of this run: url, user, password (in the WAR as it-db.properties). */
    private static final String DB_FILE = "it-db.properties";

    @Deployment
    static Archive<?> deployment() {
        TestDatabase db = TestDatabase.forRun("outbound_it");
        Properties props = new Properties();
        props.setProperty("url", db.url());
        props.setProperty("user", db.user());
        props.setProperty("password", db.password());
        StringWriter dbFile = new StringWriter();
        try {
            props.store(dbFile, null);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        WebArchive war = ShrinkWrap.create(WebArchive.class, "outbound-it.war")
                .addClass(Sender.class)
                .addAsResource(new StringAsset(dbFile.toString()), DB_FILE);
        Map<String, String> own = Map.of("jdbcUrl", db.url(), "user", db.user(), "password", db.password());
        new WebXml(war.getName())
                .connectionFactory(Sender.XA, "XATransaction", 8, own)
                .connectionFactory(Sender.LOCAL, "LocalTransaction", 8, with(own, "useXA", "false"))
                .connectionFactory(Sender.NONE, "NoTransaction", 8,
                        with(with(own, "useXA", "false"), "transactionSupportLevel", "NoTransaction"))
                .connectionFactory(Sender.WRONG_PASSWORD, "XATransaction", 2, with(own, "password", Sender.SECRET))
                .connectionFactory(Sender.BAD_URL, "XATransaction", 2,
                        with(with(own, "password", Sender.SECRET), "jdbcUrl", "jdbc:mysql://127.0.0.1:1/orders"))
                .addTo(war);
        return TargetServer.current().deployable(OutboundIT.class, war);
    }

    private static Map<String, String> with(Map<String, String> properties, String name, String value) {
        Map<String, String> copy = new TreeMap<>(properties);
        copy.put(name, value);
        return copy;
    }

    @EJB
    private Sender sender;

    /** The sessions open on the test's database. */
    private long sessions() throws Exception {
        try (Connection c = db(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
                c.getMetaData().getDatabaseProductName().equals("H2") ? "SELECT COUNT(*) FROM INFORMATION_SCHEMA.SESSIONS"
                        : "SELECT COUNT(*) FROM pg_stat_activity WHERE datname = current_database()")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** PostgreSQL's sessions on this database by state and the start of their last statement ("" on H2). */
    private String sessionsByState() throws Exception {
        StringBuilder out = new StringBuilder();
        try (Connection c = db(); Statement s = c.createStatement()) {
            if (c.getMetaData().getDatabaseProductName().equals("H2")) {
                return "";
            }
            try (ResultSet rs = s.executeQuery("SELECT state, left(query, 60), COUNT(*) FROM pg_stat_activity"
                    + " WHERE datname = current_database() GROUP BY 1, 2 ORDER BY 3 DESC")) {
                while (rs.next()) {
                    out.append(rs.getLong(3)).append(' ').append(rs.getString(1)).append(" [").append(rs.getString(2))
                            .append("]; ");
                }
            }
        }
        return out.toString();
    }

    private Connection db() throws Exception {
        Properties db = new Properties();
        try (var in = getClass().getClassLoader().getResourceAsStream(DB_FILE)) {
            db.load(in);
        }
        return DriverDataSources.plain(db.getProperty("url"), db.getProperty("user"), db.getProperty("password"))
                .getConnection();
    }

    private String queue;

    @BeforeEach
    void newQueue() throws Exception {
        queue = "out_" + Long.toHexString(System.nanoTime());
        try (Connection c = db()) {
            QueueTable.open(c, queue).createIfMissing(c);
        }
    }

    private List<QueueMessage> drain() throws Exception {
        try (Connection c = db()) {
            return QueueTable.open(c, queue).claim(c, 1000);
        }
    }

    @Test
    void xaAndLocalSendsCommitWithTheCallerAndRollBackWithIt() throws Exception {
        for (String factory : new String[] {Sender.XA, Sender.LOCAL}) {
            long id = sender.send(factory, queue, OutgoingMessage.text("order 42").header("type", "order")
                    .priority(7).build());
            EJBException thrown = assertThrows(EJBException.class, () -> sender.sendThenThrow(factory, queue));
            assertTrue(String.valueOf(thrown.getCause()).contains("fails after the send"), String.valueOf(thrown));
            sender.sendThenSetRollbackOnly(factory, queue);

            List<QueueMessage> got = drain();
            assertEquals(1, got.size(), factory + ": only the committed send is there");
            QueueMessage m = got.get(0);
            assertEquals(id, m.id());
            assertEquals("order 42", m.text());
            assertEquals(Map.of("type", "order"), m.headers());
        }
    }

    @Test
    void delayAndPriorityArriveIntact() throws Exception {
        sender.send(Sender.XA, queue, OutgoingMessage.text("low").build());
        sender.send(Sender.XA, queue, OutgoingMessage.text("high").priority(9).build());
        sender.send(Sender.XA, queue, OutgoingMessage.text("later").delay(Duration.ofHours(1)).build());
        assertEquals(List.of("high", "low"), drain().stream().map(QueueMessage::text).toList());
        try (Connection c = db(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT visible_at, enqueued_at FROM \"" + queue + "\"")) { // both written from one clock reading
            assertTrue(rs.next());
            Instant visible = rs.getObject(1, java.time.OffsetDateTime.class).toInstant();
            Instant enqueued = rs.getObject(2, java.time.OffsetDateTime.class).toInstant();
            assertEquals(Duration.ofHours(1), Duration.between(enqueued, visible), "the delay");
        }
    }

    @Test
    void withoutTransactionSupportASendCommitsAtOnce() throws Exception {
        EJBException thrown = assertThrows(EJBException.class, () -> sender.sendThenThrow(Sender.NONE, queue));
        assertTrue(String.valueOf(thrown.getCause()).contains("fails after the send"), "the send itself failed: "
                + thrown + " / " + thrown.getCause());
        assertEquals(List.of("rolled back by an exception"), drain().stream().map(QueueMessage::text).toList(),
                "NoTransaction: the send committed although the caller rolled back (as documented)");
    }

    @Test
    void aWrongPasswordIsAClearErrorWithoutThePassword() {
        QueueException e = queueException(Sender.WRONG_PASSWORD);
        assertTrue(e.getMessage().startsWith("cannot get a queue connection"), e.getMessage());
        assertTrue(e.getMessage().contains("cannot connect to the queue database"), e.getMessage());
    }

    @Test
    void aBadJdbcUrlIsAClearErrorNamingTheProperty() {
        QueueException e = queueException(Sender.BAD_URL);
        assertTrue(e.getMessage().contains("jdbcUrl must start with jdbc:sqlserver:, jdbc:postgresql: or jdbc:h2:"),
                e.getMessage());
    }

    /** The QueueException a send through this factory ends in; no message in its chain holds the password. */
    private QueueException queueException(String factory) {
        EJBException e = assertThrows(EJBException.class,
                () -> sender.send(factory, queue, OutgoingMessage.text("x").build()));
        QueueException found = null;
        for (Throwable c = e; c != null; c = c.getCause()) {
            assertFalse(String.valueOf(c.getMessage()).contains(Sender.SECRET), "the password leaked: " + c);
            if (c instanceof QueueException q && found == null) {
                found = q;
            }
        }
        assertTrue(found != null, "a QueueException reaches the caller: " + e);
        return found;
    }

    /**
     * Counted as the sessions the sends added to those the database had before them: sessions
     * of the test classes before this one in the same server (their pools, closed some time after
     * their undeployment) are not this factory's.
     */
    @Test
    void tenThousandSendsKeepThePoolAtItsSize() throws Exception {
        long before = sessions();
        String open = sessionsByState();
        sender.sendMany(Sender.XA, queue, 10_000);
        long after = sessions();
        System.out.println("OutboundIT: " + before + " sessions on the database before 10,000 sends (" + open + "), "
                + after + " after");
        assertTrue(after - before <= 8 + 8 + 4, "sessions the sends opened on the database: " + (after - before)
                + " (each pool holds at most 8, plus this test's and other sessions); now: " + sessionsByState());
        long sent = 0;
        for (List<QueueMessage> got; !(got = drain()).isEmpty(); ) {
            sent += got.size();
        }
        assertEquals(10_000, sent);
    }
}
