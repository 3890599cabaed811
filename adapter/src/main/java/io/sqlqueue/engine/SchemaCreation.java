package io.sqlqueue.engine;

import io.sqlqueue.engine.TableDefinition.Column;
import io.sqlqueue.engine.TableDefinition.Index;
import io.sqlqueue.engine.TableDefinition.Kind;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Logger;

/**
 * The one way the engine makes its tables: each table of a {@link TableDefinition} is created
 * where it is missing, and an existing one is compared with its definition in the catalog and
 * given what it lacks (columns and indexes added by later releases, the database-clock defaults),
 * then the work commits. Safe when several servers start at once: a database lock makes them take
 * turns where the database has one, and a losing creator tries again where it does not.
 */
final class SchemaCreation {

    private static final Logger LOG = Logger.getLogger(SchemaCreation.class.getName());

    private static final int TRIES = 6;

    /** One table to make: its definition and name. */
    record Table(TableDefinition definition, TableName name) {
    }

    /** What runs first, under the lock: refuses existing tables the dialect cannot use ({@link Dialect#checkExisting}). */
    @FunctionalInterface
    interface Check {
        void run(Connection c) throws SQLException;
    }

    /** An index left for {@link Dialect#buildIndexOnline}, after the commit. */
    private record Deferred(Table table, Index index) {
    }

    private SchemaCreation() {
    }

    /**
     * Creates what is missing and commits; restores the connection's auto-commit mode. Call it on
     * a connection that is not part of another transaction.
     *
     * @param resource what the creation lock is named after, e.g. {@code sqlqueue:orders}
     * @param check    run before anything is read or changed, under the lock
     */
    static void createIfMissing(Connection c, Dialect dialect, String resource, Check check, List<Table> tables)
            throws SQLException {
        boolean autoCommit = c.getAutoCommit();
        c.setAutoCommit(false);
        List<Deferred> deferred;
        try {
            for (int attempt = 1; ; attempt++) {
                try {
                    deferred = createOnce(c, dialect, resource, check, tables);
                    break;
                } catch (SQLException e) {
                    c.rollback();
                    if (attempt == TRIES) {
                        throw e;
                    }
                    // Another creator made an object between our look at the catalog and our CREATE
                    // (H2 has no lock for this: seen when an application and its bean's activation
                    // create the same queue as it deploys). Let it finish; the next attempt finds it.
                    pause(Duration.ofMillis(25L * attempt));
                }
            }
        } finally {
            c.setAutoCommit(autoCommit);
        }
        for (Deferred d : deferred) {
            dialect.buildIndexOnline(c, d.table().definition(), d.table().name(), d.index());
        }
    }

    static void createIfMissing(Connection c, Dialect dialect, String resource, Table table) throws SQLException {
        createIfMissing(c, dialect, resource, x -> { }, List.of(table));
    }

    private static void pause(Duration d) throws SQLException {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException("interrupted while creating the queue's tables", e);
        }
    }

    private static List<Deferred> createOnce(Connection c, Dialect dialect, String resource, Check check,
            List<Table> tables) throws SQLException {
        dialect.lockForCreation(c, resource);
        check.run(c);
        List<Deferred> deferred = new ArrayList<>();
        for (Table table : tables) {
            TableCatalog catalog = TableCatalog.read(c, dialect, table.name());
            List<String> ddl = catalog.exists()
                    ? upgrade(c, dialect, table, catalog, deferred)
                    : dialect.createTable(table.definition(), table.name());
            try (Statement s = c.createStatement()) {
                for (String statement : ddl) {
                    s.execute(statement);
                }
            }
            if (catalog.exists() && !ddl.isEmpty()) {
                LOG.info(() -> "brought " + table.definition().what() + " " + table.name() + " up to date: " + ddl);
            }
        }
        c.commit();
        return deferred;
    }

    /**
     * What an existing table lacks: nullable columns (a catalog change only, no rewrite), defaults,
     * and indexes, each only where missing (H2's ALTER TABLE waits for every transaction on the
     * table even when it has nothing to do). A missing NOT NULL column cannot be added to a table
     * with rows: that table was not made by the adapter, and it is refused. Not added: a clustered
     * index where the database clusters (a table has one physical order), and computed columns
     * ({@code dedup_key_length}: admin/sqlserver-exact-keys.sql adds it with the key index).
     */
    private static List<String> upgrade(Connection c, Dialect dialect, Table table, TableCatalog catalog,
            List<Deferred> deferred) throws SQLException {
        TableDefinition definition = table.definition();
        TableName name = table.name();
        List<String> ddl = new ArrayList<>();
        for (Column column : definition.columns()) {
            if (column.type() == TableDefinition.Type.KEY_LENGTH) {
                continue;
            }
            if (!catalog.hasColumn(column.name())) {
                if (column.notNull()) {
                    throw new SQLException(definition.what() + " " + name + " has no column " + column.name()
                            + ", which the adapter needs and cannot add to an existing table (it must be NOT NULL);"
                            + " was the table made by hand? Compare it with the table the adapter makes");
                }
                ddl.add(dialect.addColumn(name, column));
            } else if (column.defaultValue() != null && !catalog.hasDefault(column.name())) {
                ddl.add(dialect.addDefault(name, column));
            }
        }
        for (Index index : definition.indexes()) {
            String indexName = name.table() + index.suffix();
            if (index.kind() == Kind.TABLE_ORDER && !dialect.clusters() && catalog.hasIndexNamed(indexName)) {
                // Not dropped here: the claims of a server still on the earlier release read it.
                LOG.info(() -> definition.what() + " " + name + " has the index " + indexName + " of an earlier"
                        + " release, which this release does not read; once no server runs an earlier release,"
                        + " drop it");
            }
            boolean clustered = index.kind() == Kind.CLUSTERED || index.kind() == Kind.TABLE_ORDER;
            String create = dialect.createIndex(definition, name, index);
            if (create == null || (clustered && dialect.clusters()) || catalog.hasIndex(definition, name, index, dialect)) {
                continue;
            }
            if (dialect.buildsIndexesOnline() && !catalog.isEmpty(c)) {
                deferred.add(new Deferred(table, index));
            } else {
                ddl.add(create);
            }
        }
        return ddl;
    }
}
