package io.sqlqueue.it.harness;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import javax.sql.DataSource;

import jakarta.annotation.Resource;
import jakarta.annotation.sql.DataSourceDefinition;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.transaction.Status;
import jakarta.transaction.TransactionSynchronizationRegistry;

/**
 * A stateless EJB whose inserts run in container-managed transactions on an H2 database declared
 * by the application itself (the H2 driver travels in the test WAR's WEB-INF/lib).
 */
@Stateless
@DataSourceDefinition(
        name = HarnessBean.DATA_SOURCE,
        className = "org.h2.jdbcx.JdbcDataSource",
        url = "jdbc:h2:mem:harness;DB_CLOSE_DELAY=-1")
public class HarnessBean {

    public static final String DATA_SOURCE = "java:global/jdbc/harness";

    @Resource(lookup = DATA_SOURCE)
    private DataSource dataSource;

    @Resource
    private TransactionSynchronizationRegistry registry;

    /** DDL commits in H2, so it gets a call (and transaction) of its own. */
    public void createTable() throws SQLException {
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS harness_row (v VARCHAR(100) PRIMARY KEY)");
        }
    }

    /** Inserts a row; the container commits on return. */
    public void insert(String value) throws SQLException {
        requireActiveTransaction();
        insertRow(value);
    }

    /**
     * Inserts a row, checks it is visible inside the transaction, then throws a system exception:
     * the container must roll the insert back. The exception message carries the row count seen
     * inside the transaction so the caller can tell that the insert really happened.
     */
    public void insertThenFail(String value) throws SQLException {
        requireActiveTransaction();
        insertRow(value);
        throw new IllegalStateException("rollback on purpose; rows inside the transaction: " + count(value));
    }

    /** Counts rows with this value, outside any transaction. */
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public int countCommitted(String value) throws SQLException {
        return count(value);
    }

    private void insertRow(String value) throws SQLException {
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement("INSERT INTO harness_row (v) VALUES (?)")) {
            ps.setString(1, value);
            ps.executeUpdate();
        }
    }

    private int count(String value) throws SQLException {
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM harness_row WHERE v = ?")) {
            ps.setString(1, value);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }

    private void requireActiveTransaction() {
        int status = registry.getTransactionStatus();
        if (status != Status.STATUS_ACTIVE) {
            throw new IllegalStateException("expected an active JTA transaction, status " + status);
        }
    }
}
