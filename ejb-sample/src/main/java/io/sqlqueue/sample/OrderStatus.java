package io.sqlqueue.sample;

import io.sqlqueue.engine.QueueStats;
import io.sqlqueue.engine.QueueTable;
import io.sqlqueue.engine.Topic;
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
 * order events with its entries out of order and the events still waiting in its subscription's
 * queue, the large orders noted), and what the adapter's
 * management bean for the sample's consumer reports (the figures an operator sees in JConsole).
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class OrderStatus {

    @Resource(lookup = SampleDatabase.JNDI_NAME)
    private DataSource dataSource;

    /**
     * The counts as JSON. The consumer's figures are read first and the sample's tables then in one
     * statement, so an answer never shows the bean having committed more than the tables hold.
     */
    public String json() {
        String consumer = consumerFigures();
        try (Connection c = dataSource.getConnection()) {
            long sent, processed, distinct, ledger, outOfOrder, large;
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT"
                    + " (SELECT COUNT(*) FROM orders),"
                    + " (SELECT COUNT(*) FROM processed_orders),"
                    + " (SELECT COUNT(DISTINCT message_id) FROM processed_orders),"
                    + " (SELECT COUNT(*) FROM customer_ledger),"
                    + " (SELECT COUNT(*) FROM customer_ledger WHERE previous_event_id > event_id),"
                    + " (SELECT COUNT(*) FROM large_orders)")) {
                rs.next();
                sent = rs.getLong(1);
                processed = rs.getLong(2);
                distinct = rs.getLong(3);
                ledger = rs.getLong(4);
                outOfOrder = rs.getLong(5);
                large = rs.getLong(6);
            }
            QueueStats stats = QueueTable.open(c, SampleDatabase.QUEUE).stats(c);
            QueueStats ledgerQueue = QueueTable.open(c, Topic.queueOf(SampleDatabase.EVENTS_TOPIC,
                    SampleDatabase.LEDGER_SUBSCRIPTION).toString()).stats(c);
            return "{\"sent\":" + sent + ",\"processed\":" + distinct + ",\"duplicates\":" + (processed - distinct)
                    + ",\"pending\":" + pending(stats)
                    + ",\"deadLettered\":" + stats.deadLettered()
                    + ",\"oldestReadyMillis\":" + stats.oldestReadyAge().toMillis()
                    + ",\"ledger\":" + ledger + ",\"ledgerPending\":" + pending(ledgerQueue)
                    + ",\"ledgerOutOfOrder\":" + outOfOrder + ",\"largeOrders\":" + large
                    + consumer + "}";
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the sample's counts: " + e.getMessage(), e);
        }
    }

    /** Messages in a queue's table: ready, delayed and leased. */
    private static long pending(QueueStats stats) {
        return stats.ready() + stats.delayed() + stats.leased();
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
            return ",\"consumerError\":" + Problem.json(e.getMessage());
        }
    }

    /** JSON member and bean attribute. */
    private static final String[][] CONSUMER_FIGURES = {
        {"consumerCommitted", "Committed"}, {"consumerRolledBack", "RolledBack"},
        {"consumerDeadLettered", "DeadLettered"}, {"inFlight", "InFlight"}, {"paused", "Paused"},
        {"latencyP50Ms", "LatencyP50Millis"}, {"latencyP99Ms", "LatencyP99Millis"},
        {"processingP50Ms", "ProcessingP50Millis"}, {"processingP99Ms", "ProcessingP99Millis"}};
}
