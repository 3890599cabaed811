package io.sqlqueue.sample;

import io.sqlqueue.engine.QueueStats;
import io.sqlqueue.engine.QueueTable;
import jakarta.annotation.Resource;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/** Counts what the sample did, from the tables themselves. */
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
            QueueStats stats = QueueTable.open(c, SampleDatabase.QUEUE).stats(c);
            return "{\"sent\":" + sent + ",\"processed\":" + distinct + ",\"duplicates\":" + (processed - distinct)
                    + ",\"pending\":" + (stats.ready() + stats.delayed() + stats.leased())
                    + ",\"deadLettered\":" + stats.deadLettered()
                    + ",\"oldestReadyMillis\":" + stats.oldestReadyAge().toMillis() + "}";
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the sample's counts: " + e.getMessage(), e);
        }
    }
}
