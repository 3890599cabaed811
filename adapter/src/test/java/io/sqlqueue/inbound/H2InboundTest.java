package io.sqlqueue.inbound;

import io.sqlqueue.engine.DriverDataSources;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** The inbound side on embedded H2 (XA through H2's JdbcDataSource). */
class H2InboundTest extends InboundContract {

    @Override
    protected String[] database() {
        return new String[] {"jdbc:h2:mem:inbound;DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=10000", "sa", ""};
    }

    /** H2 numbers its sessions one after another: a new session's id counts those opened before it. */
    @Override
    protected long sessionsOpened() throws SQLException {
        String[] db = database();
        try (Connection c = DriverDataSources.plain(db[0], db[1], db[2]).getConnection();
                Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT SESSION_ID()")) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
