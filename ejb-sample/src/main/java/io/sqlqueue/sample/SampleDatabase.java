package io.sqlqueue.sample;

import io.sqlqueue.engine.QueueTable;
import io.sqlqueue.engine.Topic;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/**
 * The sample's resources and tables. One JDBC resource holds the orders, the processed-orders
 * record, the queue, the order events' topic with its two subscriptions and what their beans
 * record; the connection factory and the message-driven beans all go through it
 * ({@code dataSourceJndiName}), so storing an order and queueing it, and processing a message and
 * recording it, are each one local transaction on one connection: exactly once, without XA.
 *
 * <p>The WAR comes in two versions. For the adapter deployed on its own (Payara Micro), web.xml
 * ({@code src/main/webapp}) declares the factory for {@code sqlqueue-adapter} and
 * {@link StandaloneDatabase} the JDBC resource (embedded H2 unless the SQLQUEUE_SAMPLE_*
 * variables say otherwise). Inside the EAR, web.xml ({@code src/main/ear-war}) declares both: the
 * factory for {@code #sqlqueue-adapter}, the adapter of the same EAR on Payara Server and WildFly
 * alike, and embedded H2.
 */
@Singleton
@Startup
public class SampleDatabase {

    public static final String JNDI_NAME = "java:global/jdbc/sample";
    /** The queue connection factory (NoTransaction pool; its connections join the JDBC resource's transaction). */
    public static final String QUEUE_FACTORY = "java:app/queue/sample";
    public static final String QUEUE = "orders_queue";
    /** Where every order's "order placed" event is published; its subscribers are beans of the sample. */
    public static final String EVENTS_TOPIC = "order_events";
    public static final String LEDGER_SUBSCRIPTION = "ledger";
    public static final String LARGE_ORDERS_SUBSCRIPTION = "large_orders";
    public static final String LARGE_ORDERS_FILTER = "size = 'large'";

    @Resource(lookup = JNDI_NAME)
    private DataSource dataSource;

    /** Creates the tables before the first request: the queue too, so the first order can be sent. */
    @PostConstruct
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    void createTables() {
        try (Connection c = dataSource.getConnection()) {
            String timestamp = timestampType(c);
            if (!exists(c, "orders")) {
                execute(c, "CREATE TABLE orders (id BIGINT PRIMARY KEY, customer VARCHAR(200) NOT NULL,"
                        + " amount DECIMAL(12,2) NOT NULL, created_at " + timestamp + " NOT NULL)");
            }
            if (!exists(c, "processed_orders")) {
                // No unique key on message_id: a duplicate delivery would show as a second row.
                execute(c, "CREATE TABLE processed_orders (order_id BIGINT NOT NULL, message_id BIGINT NOT NULL,"
                        + " processed_at " + timestamp + " NOT NULL)");
            }
            if (!exists(c, "customer_ledger")) {
                execute(c, "CREATE TABLE customer_ledger (customer VARCHAR(200) NOT NULL, order_id BIGINT NOT NULL,"
                        + " event_id BIGINT NOT NULL, previous_event_id BIGINT)");
                execute(c, "CREATE INDEX customer_ledger_last ON customer_ledger (customer, event_id)");
            }
            if (!exists(c, "large_orders")) {
                execute(c, "CREATE TABLE large_orders (order_id BIGINT NOT NULL, event_id BIGINT NOT NULL)");
            }
            QueueTable.open(c, QUEUE).createIfMissing(c);
            // The subscriptions too (their beans' activations would make them a moment later), so
            // that the events of the first orders already reach them.
            Topic events = Topic.open(c, EVENTS_TOPIC);
            events.createIfMissing(c);
            for (String[] subscription : new String[][] {{LEDGER_SUBSCRIPTION, null},
                    {LARGE_ORDERS_SUBSCRIPTION, LARGE_ORDERS_FILTER}}) {
                QueueTable.open(c, events.queueOf(subscription[0]).toString()).createIfMissing(c);
                events.subscribe(c, subscription[0], subscription[1]);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create the sample's tables: " + e.getMessage(), e);
        }
    }

    /** SQL Server's TIMESTAMP is a row version, not a point in time: DATETIME2 there. */
    private static String timestampType(Connection c) throws SQLException {
        return c.getMetaData().getDatabaseProductName().contains("SQL Server") ? "DATETIME2" : "TIMESTAMP";
    }

    private static boolean exists(Connection c, String table) throws SQLException {
        for (String name : new String[] {table, table.toUpperCase()}) {
            try (ResultSet rs = c.getMetaData().getTables(null, null, name, new String[] {"TABLE"})) {
                if (rs.next()) {
                    return true;
                }
            }
        }
        return false;
    }

    private static void execute(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }
}
