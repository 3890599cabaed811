package io.sqlqueue.sample;

import io.sqlqueue.engine.QueueStats;
import io.sqlqueue.engine.QueueTable;
import jakarta.annotation.Resource;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Set;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.sql.DataSource;

/**
 * Counts what the sample did, from the tables themselves (orders, processed orders, the ledger of
 * order events with its entries out of order, the large orders noted), and what the adapter's management bean
 * for the sample's consumer reports (the figures an operator sees in JConsole).
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class OrderStatus {

    @Resource(lookup = SampleDatabase.JNDI_NAME)
    private DataSource dataSource;

    public String json() {
        try (Connection c = dataSource.getConnection()) {
            long sent;
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM orders")) {
                rs.next();
                sent = rs.getLong(1);
            }
            long processed, distinct; // in one query, so both are counted at the same moment
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
                    "SELECT COUNT(*), COUNT(DISTINCT message_id) FROM processed_orders")) {
                rs.next();
                processed = rs.getLong(1);
                distinct = rs.getLong(2);
            }
            long ledger, outOfOrder, large;
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT COUNT(*),"
                    + " SUM(CASE WHEN previous_event_id > event_id THEN 1 ELSE 0 END),"
                    + " (SELECT COUNT(*) FROM large_orders) FROM customer_ledger")) {
                rs.next();
                ledger = rs.getLong(1);
                outOfOrder = rs.getLong(2); // SUM of no rows is NULL: 0
                large = rs.getLong(3);
            }
            QueueStats stats = QueueTable.open(c, SampleDatabase.QUEUE).stats(c);
            return "{\"sent\":" + sent + ",\"processed\":" + distinct + ",\"duplicates\":" + (processed - distinct)
                    + ",\"pending\":" + (stats.ready() + stats.delayed() + stats.leased())
                    + ",\"deadLettered\":" + stats.deadLettered()
                    + ",\"oldestReadyMillis\":" + stats.oldestReadyAge().toMillis()
                    + ",\"ledger\":" + ledger + ",\"ledgerOutOfOrder\":" + outOfOrder + ",\"largeOrders\":" + large
                    + consumerFigures() + "}";
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the sample's counts: " + e.getMessage(), e);
        }
    }

    /** The Consumer bean's figures as more JSON members; none while the bean is not activated. */
    private static String consumerFigures() {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        try {
            Set<ObjectName> names = server.queryNames(
                    new ObjectName("io.sqlqueue:type=Consumer,queue=" + SampleDatabase.QUEUE + ",*"), null);
            if (names.isEmpty()) {
                return "";
            }
            ObjectName consumer = names.iterator().next();
            StringBuilder json = new StringBuilder();
            for (String[] figure : CONSUMER_FIGURES) {
                json.append(",\"").append(figure[0]).append("\":").append(server.getAttribute(consumer, figure[1]));
            }
            return json.toString();
        } catch (JMException e) {
            return ",\"consumerError\":\"" + e.getMessage().replace("\"", "'") + "\"";
        }
    }

    /** JSON member and bean attribute. */
    private static final String[][] CONSUMER_FIGURES = {
        {"consumerCommitted", "Committed"}, {"consumerRolledBack", "RolledBack"},
        {"consumerDeadLettered", "DeadLettered"}, {"inFlight", "InFlight"}, {"paused", "Paused"},
        {"latencyP50Ms", "LatencyP50Millis"}, {"latencyP99Ms", "LatencyP99Millis"},
        {"processingP50Ms", "ProcessingP50Millis"}, {"processingP99Ms", "ProcessingP99Millis"}};
}
