package io.sqlqueue.it.batch;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.sql.DataSource;

/**
 * What this package's artifacts share: the JDBC resource {@link #DS} (declared in the test's
 * web.xml, for the database of the run) and the table {@code batch_rows}, in which the test job's
 * writer and the message-driven bean record each message they consume.
 */
final class BatchRows {

    static final String DS = "java:global/jdbc/batch";
    /** The queue the message-driven bean {@link BatchConsumer} consumes. */
    static final String MDB_QUEUE = "batch_mdb_q";

    private BatchRows() {
    }

    static DataSource dataSource() {
        try {
            return InitialContext.doLookup(DS);
        } catch (NamingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Creates batch_rows where it is missing (plain DDL every database of the tests accepts). */
    static void createTable(Connection c) throws SQLException {
        for (String name : new String[] {"batch_rows", "BATCH_ROWS"}) {
            try (ResultSet rs = c.getMetaData().getTables(null, null, name, new String[] {"TABLE"})) {
                if (rs.next()) {
                    return;
                }
            }
        }
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE batch_rows (message_id BIGINT NOT NULL, consumer VARCHAR(20) NOT NULL,"
                    + " body VARCHAR(100) NOT NULL)");
        }
    }
}
