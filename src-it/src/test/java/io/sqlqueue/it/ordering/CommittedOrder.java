package io.sqlqueue.it.ordering;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What ordered deliveries committed, as beans record them in a table ({@code seq} in commit order,
 * {@code ordering_key}, {@code idx} the message's place in its key, {@code started_us} and
 * {@code ended_us} of the delivery): checked per key.
 */
public final class CommittedOrder {

    private CommittedOrder() {
    }

    /**
     * Asserts that {@code keys} keys were delivered, each in send order (idx 0, 1, 2, …) and with no
     * delivery begun before the one before it had ended.
     */
    public static void assertEachKeyInSendOrderOneAtATime(Connection c, String table, int keys) throws SQLException {
        Map<String, List<long[]>> byKey = new HashMap<>(); // idx, started, ended, in commit order
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT ordering_key, idx, started_us, ended_us FROM " + table + " ORDER BY seq")) {
            while (rs.next()) {
                byKey.computeIfAbsent(rs.getString(1), k -> new ArrayList<>())
                        .add(new long[] {rs.getInt(2), rs.getLong(3), rs.getLong(4)});
            }
        }
        assertEquals(keys, byKey.size(), "keys delivered");
        for (Map.Entry<String, List<long[]>> key : byKey.entrySet()) {
            List<long[]> rows = key.getValue();
            for (int i = 0; i < rows.size(); i++) {
                assertEquals(i, rows.get(i)[0], "message " + i + " of " + key.getKey() + " in send order");
                if (i > 0) {
                    assertTrue(rows.get(i)[1] >= rows.get(i - 1)[2], key.getKey() + ": delivery " + i
                            + " began before delivery " + (i - 1) + " had ended");
                }
            }
        }
    }
}
