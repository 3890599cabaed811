package io.sqlqueue.engine;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A SQL statement with named parameters ({@code :name}), turned into JDBC's positional {@code ?}
 * once. Dialects put their parameters in different places (T-SQL's CTE comes before the
 * UPDATE's SET), so the engine binds by name and each dialect writes its natural SQL.
 * Immutable and thread-safe; a {@link Bound} statement is not.
 */
final class SqlTemplate {

    private static final int[] NONE = {};
    private static final Pattern PARAMETER = Pattern.compile(":([A-Za-z][A-Za-z0-9_]*)");

    private final String namedSql;
    private final String jdbcSql;
    /** For each parameter name, its 1-based JDBC positions. */
    private final Map<String, int[]> positions;

    SqlTemplate(String namedSql) {
        this.namedSql = namedSql;
        Matcher m = PARAMETER.matcher(namedSql);
        StringBuilder sql = new StringBuilder();
        List<String> found = new ArrayList<>();
        while (m.find()) {
            found.add(m.group(1));
            m.appendReplacement(sql, "?");
        }
        m.appendTail(sql);
        this.jdbcSql = sql.toString();
        Map<String, int[]> byName = new HashMap<>();
        for (int i = 0; i < found.size(); i++) {
            int[] old = byName.getOrDefault(found.get(i), new int[0]);
            int[] grown = Arrays.copyOf(old, old.length + 1);
            grown[old.length] = i + 1;
            byName.put(found.get(i), grown);
        }
        this.positions = Map.copyOf(byName);
    }

    /**
     * This statement with {@code :name} replaced by an integer literal. For claim sizes: a literal
     * LIMIT / TOP lets the database cache one plan per size instead of planning anew for an unknown
     * row count on every execution. The value is an int, so no text from outside reaches the SQL.
     */
    SqlTemplate withLiteral(String name, int value) {
        return new SqlTemplate(namedSql.replaceAll(":" + name + "(?![A-Za-z0-9_])", Integer.toString(value)));
    }

    /**
     * This statement with {@code :name} replaced by {@code count} parameters {@code :name_1, …},
     * for a list bound by {@link Bound#setLongList}: one statement per count, as for a literal
     * size, where the database has no array parameter (T-SQL).
     */
    SqlTemplate withList(String name, int count) {
        return new SqlTemplate(namedSql.replaceAll(":" + name + "(?![A-Za-z0-9_])", list(name, count)));
    }

    /** The {@code count} parameters {@code :name_1, …} of a list, as {@link #withList} writes them. */
    static String list(String name, int count) {
        StringBuilder list = new StringBuilder();
        for (int i = 1; i <= count; i++) {
            list.append(i == 1 ? "" : ", ").append(':').append(name).append('_').append(i);
        }
        return list.toString();
    }

    /** The statement as sent to the driver. */
    String jdbcSql() {
        return jdbcSql;
    }

    Bound prepare(Connection connection) throws SQLException {
        return new Bound(connection.prepareStatement(jdbcSql));
    }

    /** Binds by name on a statement prepared elsewhere from {@link #jdbcSql()} (e.g. with generated keys). */
    Bound wrap(PreparedStatement statement) {
        return new Bound(statement);
    }

    @Override
    public String toString() {
        return jdbcSql;
    }

    /** A prepared statement whose parameters are set by name; unknown names are ignored. */
    final class Bound implements AutoCloseable {
        private final PreparedStatement statement;

        private Bound(PreparedStatement statement) {
            this.statement = statement;
        }

        Bound setInt(String name, int value) throws SQLException {
            return each(name, i -> statement.setInt(i, value));
        }

        Bound setLong(String name, long value) throws SQLException {
            return each(name, i -> statement.setLong(i, value));
        }

        /** Sets a string, or SQL NULL for {@code null}. */
        Bound setString(String name, String value) throws SQLException {
            return each(name, i -> {
                if (value == null) {
                    statement.setNull(i, Types.VARCHAR);
                } else {
                    statement.setString(i, value);
                }
            });
        }

        /** Sets an SQL ARRAY of BIGINT (H2). */
        Bound setLongs(String name, Long[] values) throws SQLException {
            return each(name, i -> statement.setObject(i, values));
        }

        /**
         * Sets the list {@link #withList} made of {@code count} parameters: {@code values} (at most
         * {@code count}), the last repeated in the parameters left over, all NULL when there is none
         * (an IN list of them then matches nothing).
         */
        Bound setLongList(String name, List<Long> values, int count) throws SQLException {
            if (values.size() > count) {
                throw new IllegalArgumentException(values.size() + " values for a list of " + count);
            }
            for (int i = 1; i <= count; i++) {
                Long value = values.isEmpty() ? null : values.get(Math.min(i, values.size()) - 1);
                each(name + "_" + i, p -> {
                    if (value == null) {
                        statement.setNull(p, Types.BIGINT);
                    } else {
                        statement.setLong(p, value);
                    }
                });
            }
            return this;
        }

        Bound setBytes(String name, byte[] value) throws SQLException {
            return each(name, i -> statement.setBytes(i, value));
        }

        /**
         * Sets a value the driver converts by its Java type: timestamps as the {@code java.time}
         * value of {@link Dialect#timestampParameter}.
         */
        Bound setObject(String name, Object value) throws SQLException {
            return each(name, i -> statement.setObject(i, value));
        }

        /**
         * Sets a duration in milliseconds. Besides {@code :name} it sets {@code :name_s} (whole
         * seconds) and {@code :name_ms} (the remaining milliseconds), for T-SQL's DATEADD, whose
         * argument is an INT.
         */
        /** A duration in ms, or SQL NULL for a null duration (as {@link #setMillis(String, long)}). */
        Bound setMillis(String name, java.time.Duration duration) throws SQLException {
            if (duration != null) {
                return setMillis(name, duration.toMillis());
            }
            each(name, i -> statement.setNull(i, java.sql.Types.BIGINT));
            each(name + "_s", i -> statement.setNull(i, java.sql.Types.INTEGER));
            return each(name + "_ms", i -> statement.setNull(i, java.sql.Types.INTEGER));
        }

        Bound setMillis(String name, long millis) throws SQLException {
            setLong(name, millis);
            setInt(name + "_s", Math.toIntExact(millis / 1000));
            return setInt(name + "_ms", (int) (millis % 1000));
        }

        ResultSet executeQuery() throws SQLException {
            return statement.executeQuery();
        }

        int executeUpdate() throws SQLException {
            return statement.executeUpdate();
        }

        private Bound each(String name, ParameterSetter setter) throws SQLException {
            for (int position : positions.getOrDefault(name, NONE)) {
                setter.set(position);
            }
            return this;
        }

        PreparedStatement statement() {
            return statement;
        }

        @Override
        public void close() throws SQLException {
            statement.close();
        }
    }

    @FunctionalInterface
    private interface ParameterSetter {
        void set(int index) throws SQLException;
    }
}
