package io.sqlqueue.batch;

import io.sqlqueue.engine.QueueTable;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.sql.DataSource;

/**
 * Creates a queue's tables for a batch artifact when it opens. The tables are created in
 * transactions of their own (DDL, and a lock against other servers creating them at once), but a
 * batch runtime may open its artifacts inside the chunk's transaction (JBeret does, and a managed
 * connection then refuses to leave it): there the work runs on the server's default managed
 * executor, whose tasks run in no transaction, and the artifact waits for it.
 */
final class TableCreation {

    private TableCreation() {
    }

    static void createIfMissing(DataSource resource, QueueTable table) throws SQLException, NamingException {
        TransactionSynchronizationRegistry transactions = InitialContext.doLookup(
                "java:comp/TransactionSynchronizationRegistry");
        if (transactions.getTransactionKey() == null) {
            create(resource, table);
            return;
        }
        ManagedExecutorService executor = InitialContext.doLookup("java:comp/DefaultManagedExecutorService");
        Future<?> done = executor.submit(() -> {
            create(resource, table);
            return null;
        });
        try {
            done.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException("interrupted while creating the tables of " + table.name(), e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof SQLException s) {
                throw s;
            }
            throw new SQLException("could not create the tables of " + table.name() + ": " + e.getCause(), e.getCause());
        }
    }

    private static void create(DataSource resource, QueueTable table) throws SQLException {
        try (Connection c = resource.getConnection()) {
            table.createIfMissing(c);
        }
    }
}
