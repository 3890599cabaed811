package io.sqlqueue.engine;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A queue or dead-letter table name from configuration, validated so that it can be quoted and
 * placed into SQL safely: {@code orders} or {@code sales.orders} (schema-qualified). Without a
 * schema the connection's default schema is used (SQL Server {@code dbo}, PostgreSQL's
 * {@code search_path}, H2 {@code PUBLIC}). Names are case-sensitive: they are always quoted.
 */
public final class TableName {

    /** Longest table part: leaves room for the suffixes of derived names within PostgreSQL's 63. */
    public static final int MAX_LENGTH = 48;

    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private final String schema;
    private final String table;

    private TableName(String schema, String table) {
        this.schema = schema;
        this.table = table;
    }

    /**
     * Parses {@code table} or {@code schema.table}.
     *
     * @throws IllegalArgumentException naming the problem, for anything that is not one or two
     *         identifiers of letters, digits and underscores
     */
    public static TableName parse(String name) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("queue name must not be null or empty");
        }
        int dot = name.indexOf('.');
        String schema = dot < 0 ? null : name.substring(0, dot);
        String table = dot < 0 ? name : name.substring(dot + 1);
        if ((schema != null && !isIdentifier(schema)) || !isIdentifier(table)) {
            throw new IllegalArgumentException("queue name '" + name + "' is not valid: use a table name of at most "
                    + MAX_LENGTH + " letters, digits and underscores, not starting with a digit,"
                    + " optionally after a schema name and a dot (e.g. orders or sales.orders)");
        }
        return new TableName(schema, table);
    }

    private static boolean isIdentifier(String s) {
        return s.length() <= MAX_LENGTH && IDENTIFIER.matcher(s).matches();
    }

    /** The same schema, the table name plus a suffix: {@code orders} → {@code orders_dlq}. */
    TableName withSuffix(String suffix) {
        return new TableName(schema, table + suffix);
    }

    /** The schema, or {@code null} for the connection's default. */
    public String schema() {
        return schema;
    }

    public String table() {
        return table;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TableName t && Objects.equals(schema, t.schema) && table.equals(t.table);
    }

    @Override
    public int hashCode() {
        return Objects.hash(schema, table);
    }

    /** As configured: {@code orders} or {@code sales.orders}. */
    @Override
    public String toString() {
        return schema == null ? table : schema + "." + table;
    }
}
