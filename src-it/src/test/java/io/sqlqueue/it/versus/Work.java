package io.sqlqueue.it.versus;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * The work both sides' beans do for one message, in the delivery transaction: one row into the
 * application's table {@code vs_done}, whose {@code done_at} (the database's clock at the insert)
 * times the drain.
 */
final class Work {

    static final String TABLE_DDL = "CREATE TABLE IF NOT EXISTS vs_done"
            + " (n BIGINT NOT NULL, done_at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp())";

    private Work() {
    }

    static void record(DataSource work, String number) {
        try (Connection c = work.getConnection();
                PreparedStatement ps = c.prepareStatement("INSERT INTO vs_done (n) VALUES (?)")) {
            ps.setLong(1, Long.parseLong(number));
            ps.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("could not record message " + number, e);
        }
    }
}
