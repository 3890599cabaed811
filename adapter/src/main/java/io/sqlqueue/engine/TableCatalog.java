package io.sqlqueue.engine;

import io.sqlqueue.engine.TableDefinition.Index;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What the database's catalog says of one table now: its columns, which of them have a default,
 * and its indexes by name with their first key column. Names compare without case (H2 keeps
 * unquoted names in upper case, Babelfish some in lower case). Read in the caller's transaction.
 */
final class TableCatalog {

    private final String table;
    /** The table's name as the catalog holds it; null when there is no such table. */
    private String foundName;
    private final Set<String> columns = new TreeSet<>();
    private final Set<String> withDefault = new TreeSet<>();
    /** Index name → its first key column, both lower case. */
    private final Map<String, String> indexes = new TreeMap<>();
    private Boolean empty;

    private TableCatalog(String table) {
        this.table = table;
    }

    /**
     * Reads the catalog; INFORMATION_SCHEMA.COLUMNS is the one view all three databases have, and
     * names the table's schema for the index look-up when the name has none.
     */
    static TableCatalog read(Connection c, Dialect dialect, TableName name) throws SQLException {
        TableCatalog catalog = new TableCatalog(dialect.qualified(name));
        String schema = null;
        try (PreparedStatement ps = c.prepareStatement("SELECT TABLE_SCHEMA, COLUMN_NAME, COLUMN_DEFAULT, TABLE_NAME"
                + " FROM INFORMATION_SCHEMA.COLUMNS WHERE TABLE_SCHEMA = COALESCE(?, " + dialect.currentSchema() + ")"
                + " AND TABLE_NAME = ?")) {
            ps.setString(1, name.schema());
            ps.setString(2, name.table());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    schema = rs.getString(1);
                    catalog.foundName = rs.getString(4);
                    String column = rs.getString(2).toLowerCase(Locale.ROOT);
                    catalog.columns.add(column);
                    if (rs.getString(3) != null) {
                        catalog.withDefault.add(column);
                    }
                }
            }
        }
        if (schema != null) {
            for (Map.Entry<String, String> index : dialect.indexes(c, schema, name.table()).entrySet()) {
                catalog.indexes.put(index.getKey().toLowerCase(Locale.ROOT), index.getValue().toLowerCase(Locale.ROOT));
            }
        }
        return catalog;
    }

    /**
     * The table's name as the catalog holds it, found as the database compares names: on SQL
     * Server with a collation that ignores case, it may differ from the name asked for in case.
     * INFORMATION_SCHEMA, not sys.tables: Babelfish keeps the name as written only there.
     */
    String foundName() {
        return foundName;
    }

    boolean exists() {
        return !columns.isEmpty();
    }

    boolean hasColumn(String column) {
        return columns.contains(column.toLowerCase(Locale.ROOT));
    }

    boolean hasDefault(String column) {
        return withDefault.contains(column.toLowerCase(Locale.ROOT));
    }

    /**
     * Whether the table has {@code index}: an index led by its first column, ours or one an
     * operator made to the same end (T-SQL engines such as Babelfish keep other names than the
     * one created); by name where another index of the definition has the same first column in
     * this database (H2 leads both the ready index and the index of hidden rows with {@code hidden}).
     */
    boolean hasIndex(TableDefinition definition, TableName name, Index index, Dialect dialect) {
        String lead = dialect.indexLead(definition, index);
        long sharing = definition.indexes().stream()
                .filter(i -> dialect.createIndex(definition, name, i) != null && dialect.indexLead(definition, i).equals(lead))
                .count();
        if (sharing > 1) {
            return indexes.containsKey((name.table() + index.suffix()).toLowerCase(Locale.ROOT));
        }
        return indexes.containsValue(lead.toLowerCase(Locale.ROOT));
    }

    boolean hasIndexNamed(String index) {
        return indexes.containsKey(index.toLowerCase(Locale.ROOT));
    }

    /** Whether the table has no row; read once. */
    boolean isEmpty(Connection c) throws SQLException {
        if (empty == null) {
            try (Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery("SELECT CASE WHEN EXISTS (SELECT 1 FROM " + table + ") THEN 0 ELSE 1 END")) {
                rs.next();
                empty = rs.getInt(1) == 1;
            }
        }
        return empty;
    }
}
