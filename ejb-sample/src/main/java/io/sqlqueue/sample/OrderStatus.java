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
            long sent = count(c, "SELECT COUNT(*) FROM orders");
            long processed = count(c, "SELECT COUNT(*) FROM processed_orders");
            long distinct = count(c, "SELECT COUNT(DISTINCT message_id) FROM processed_orders");
            QueueStats stats = QueueTable.open(c, SampleDatabase.QUEUE).stats(c);
            return "{\"sent\":" + sent + ",\"processed\":" + distinct + ",\"duplicates\":" + (processed - distinct)
                    + ",\"pending\":" + (stats.ready() + stats.delayed() + stats.leased())
                    + ",\"deadLettered\":" + stats.deadLettered()
                    + ",\"oldestReadyMillis\":" + stats.oldestReadyAge().toMillis() + "}";
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the sample's counts: " + e.getMessage(), e);
        }
    }

    private static long count(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
