package io.sqlqueue.engine;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.logging.Logger;

/**
 * What SQL Server's catalog says about existing queue tables that the adapter must refuse or warn
 * of at startup, naming the table and the fix. Reads the catalog only.
 */
final class SqlServerTableCheck {

    private static final Logger LOG = Logger.getLogger(SqlServerTableCheck.class.getName());

    private final SqlServerDialect dialect;
    private final Connection c;

    SqlServerTableCheck(SqlServerDialect dialect, Connection c) {
        this.dialect = dialect;
        this.c = c;
    }

    /**
     * Refuses a table with an enabled trigger: claims and sends return their rows with OUTPUT,
     * which SQL Server refuses on such a table (error 334), and dead letters are moved with OUTPUT
     * … INTO, refused on such a target (error 331). A trigger added later makes those statements
     * fail ({@link SqlServerDialect#explained} names it then). Warns of key columns made by an
     * earlier release.
     */
    void check(TableName queue, TableName deadLetters) throws SQLException {
        refuseTriggers(queue, "the queue table", "claims and sends return their rows with OUTPUT, which SQL"
                + " Server refuses on a table with an enabled trigger (error 334)");
        refuseTriggers(deadLetters, "the dead-letter table", "dead letters are moved into it with OUTPUT … INTO,"
                + " which SQL Server refuses on a table with an enabled trigger (error 331)");
        warnOfLooseKeys(queue, deadLetters);
    }

    private void refuseTriggers(TableName table, String named, String why) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT name FROM sys.triggers WHERE parent_id = OBJECT_ID(?)"
                + " AND is_disabled = 0")) {
            ps.setString(1, dialect.qualified(table));
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    throw new SQLException(named + " " + table + " has an enabled trigger, " + rs.getString(1)
                            + ": the adapter cannot use it, because " + why + "; disable or drop the trigger");
                }
            }
        }
    }

    /**
     * Tables made by an earlier release have key columns of the database's collation, which may
     * ignore case. Claims and look-ups still compare exactly ({@link SqlServerDialect#sameKey}), but
     * the unique index on {@code dedup_key} refuses a key that differs from a queued one only in
     * case or trailing spaces: such a send fails (never answered with the other message's id) until
     * an administrator runs admin/sqlserver-exact-keys.sql, which rebuilds the key indexes. Not done
     * here: changing a column's collation means dropping the indexes and statistics on it and
     * rebuilding them, under a schema lock that stops every sender and consumer of the queue for as
     * long as that takes.
     */
    private void warnOfLooseKeys(TableName queue, TableName deadLetters) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT name, collation_name FROM sys.columns"
                + " WHERE object_id IN (OBJECT_ID(?), OBJECT_ID(?)) AND name IN ('dedup_key', 'ordering_key')"
                + " AND UPPER(collation_name) NOT LIKE '%BIN2'")) {
            ps.setString(1, dialect.qualified(queue));
            ps.setString(2, dialect.qualified(deadLetters));
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    String column = rs.getString(1);
                    String collation = rs.getString(2);
                    LOG.warning(() -> "queue " + queue + ": its key column " + column + " has the collation " + collation
                            + " (tables made by an earlier release): keys still compare exactly, but a send whose dedup"
                            + " key differs from a queued message's only in case or trailing spaces fails until"
                            + " admin/sqlserver-exact-keys.sql has been run for this queue");
                }
            }
        }
    }
}
