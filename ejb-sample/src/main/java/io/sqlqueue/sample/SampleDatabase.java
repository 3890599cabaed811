package io.sqlqueue.sample;

import io.sqlqueue.engine.QueueTable;
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
 * record and the queue; the connection factory and the message-driven bean both go through it
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
            QueueTable.open(c, QUEUE).createIfMissing(c);
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
