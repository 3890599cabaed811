package io.sqlqueue.sample;

import io.sqlqueue.engine.QueueTable;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.annotation.sql.DataSourceDefinition;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.resource.ConnectionFactoryDefinition;
import jakarta.resource.spi.TransactionSupport.TransactionSupportLevel;
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
 * <p>The database is embedded H2 unless SQLQUEUE_SAMPLE_URL (and SQLQUEUE_SAMPLE_DATASOURCE, the
 * driver's DataSource class) say otherwise, read by Payara when it deploys the sample.
 */
@DataSourceDefinition(
        name = SampleDatabase.JNDI_NAME,
        className = "${ENV=SQLQUEUE_SAMPLE_DATASOURCE:org.h2.jdbcx.JdbcDataSource}",
        url = "${ENV=SQLQUEUE_SAMPLE_URL:jdbc:h2:mem:sample;DB_CLOSE_DELAY=-1}",
        user = "${ENV=SQLQUEUE_SAMPLE_USER:sa}",
        password = "${ENV=SQLQUEUE_SAMPLE_PASSWORD:sa}",
        transactional = true,
        minPoolSize = 2,
        maxPoolSize = 32,
        // Payara: check each connection before handing it out. Without it the pool hands out
        // connections that died in a database outage for ever after (LifecycleIT's outage test
        // never recovered). "meta-data" catches those a failed call has marked broken; both
        // alternatives tried failed redeployments in LifecycleIT: custom-validation with
        // JDBC40ConnectionValidation (it rejected healthy PostgreSQL connections used from the
        // adapter's threads) and fail-all-connections (one failed clean-up destroyed every
        // connection of the pool, those in use too).
        properties = {
            "fish.payara.is-connection-validation-required=true",
            "fish.payara.connection-validation-method=meta-data"})
@ConnectionFactoryDefinition(
        name = SampleDatabase.QUEUE_FACTORY,
        interfaceName = "io.sqlqueue.api.QueueConnectionFactory",
        resourceAdapter = "sqlqueue-adapter",
        transactionSupport = TransactionSupportLevel.NoTransaction,
        maxPoolSize = 32,
        properties = {"dataSourceJndiName=" + SampleDatabase.JNDI_NAME})
@Singleton
@Startup
public class SampleDatabase {

    public static final String JNDI_NAME = "java:global/jdbc/sample";
    public static final String QUEUE_FACTORY = "java:app/queue/sample";
    public static final String QUEUE = "orders_queue";

    @Resource(lookup = JNDI_NAME)
    private DataSource dataSource;

    /** Creates the tables before the first request: the queue too, so the first order can be sent. */
    @PostConstruct
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    void createTables() {
        try (Connection c = dataSource.getConnection()) {
            if (!exists(c, "orders")) {
                execute(c, "CREATE TABLE orders (id BIGINT PRIMARY KEY, customer VARCHAR(200) NOT NULL,"
                        + " amount DECIMAL(12,2) NOT NULL, created_at TIMESTAMP NOT NULL)");
            }
            if (!exists(c, "processed_orders")) {
                // No unique key on message_id: a duplicate delivery would show as a second row.
                execute(c, "CREATE TABLE processed_orders (order_id BIGINT NOT NULL, message_id BIGINT NOT NULL,"
                        + " processed_at TIMESTAMP NOT NULL)");
            }
            QueueTable.open(c, QUEUE).createIfMissing(c);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create the sample's tables: " + e.getMessage(), e);
        }
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
