package io.sqlqueue.engine;

import io.sqlqueue.api.OutgoingMessage;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * The SQL of one database product. All SQL the adapter runs is written by the dialects; the rest
 * of the engine only binds parameters and reads results. Stateless and thread-safe.
 */
public abstract class Dialect {

    /** Message columns in the order every claim, lease and insert returns them. */
    static final String[] MESSAGE_COLUMNS = {"id", "priority", "headers", "body", "enqueued_at", "attempts"};

    /** The columns a dead-letter row is written with, in order. */
    static final String DEAD_LETTER_COLUMNS =
            "id, priority, visible_at, enqueued_at, attempts, dedup_key, headers, body, last_error, failed_at";

    /** Longest error text stored (the column is NVARCHAR(2000)). */
    static final int MAX_ERROR_LENGTH = 2000;

    /** The dialect of the database behind this connection. */
    public static Dialect of(Connection connection) throws SQLException {
        return forProductName(connection.getMetaData().getDatabaseProductName());
    }

    /** The dialect for a JDBC {@code DatabaseMetaData.getDatabaseProductName()}. */
    public static Dialect forProductName(String product) {
        String p = product == null ? "" : product.toLowerCase(Locale.ROOT);
        if (p.contains("sql server")) {
            return new SqlServerDialect();
        }
        if (p.contains("postgresql")) {
            return new PostgresDialect();
        }
        if (p.equals("h2")) {
            return new H2Dialect();
        }
        throw new IllegalArgumentException("unsupported database '" + product
                + "': the adapter supports Microsoft SQL Server, PostgreSQL and H2");
    }

    /** A short name for logs and benchmarks: {@code sqlserver}, {@code postgresql}, {@code h2}. */
    public abstract String name();

    /** Quotes one validated identifier: the SQL standard's double quotes by default. */
    String quote(String identifier) {
        return "\"" + identifier + "\"";
    }

    /** The quoted, possibly schema-qualified name of a table. */
    public String qualified(TableName table) {
        return table.schema() == null ? quote(table.table()) : quote(table.schema()) + "." + quote(table.table());
    }

    /** The database clock, in UTC. */
    abstract String now();

    /** The database clock plus the milliseconds of the named duration parameter. */
    abstract String nowPlus(String parameter);

    /**
     * Reads a timestamp column written from {@link #now()}: a timestamp with time zone by default,
     * which {@code getTimestamp} returns as its instant. Not {@code getObject(column,
     * OffsetDateTime.class)}: Payara's JDBC wrapper calls that by reflection, which took 7% of a
     * delivery's CPU in the end-to-end benchmark.
     */
    Instant readInstant(ResultSet rs, int column) throws SQLException {
        return rs.getTimestamp(column).toInstant();
    }

    /** Whether this exception is a unique-key violation (a duplicate dedup key): SQLSTATE 23505 by default. */
    boolean isUniqueViolation(SQLException e) {
        return "23505".equals(e.getSQLState());
    }

    /** All the statements of one queue. */
    final QueueSql queueSql(TableName queue, TableName deadLetters) {
        String q = qualified(queue);
        String dlq = qualified(deadLetters);
        return new QueueSql(
                q,
                createStatements(queue, deadLetters),
                createLock(),
                new SqlTemplate(insert(q)),
                new SqlTemplate(insertIfAbsent(q)),
                insertForBatch(q) == null ? null : new SqlTemplate(insertForBatch(q)),
                new SqlTemplate("SELECT id FROM " + q + " WHERE dedup_key = :dedupKey"),
                candidates(q) == null ? null : new SqlTemplate(candidates(q)),
                new SqlTemplate(claim(q)),
                new SqlTemplate(lease(q)),
                new SqlTemplate("DELETE FROM " + q + " WHERE id = :id AND lease_token = :token"),
                new SqlTemplate("UPDATE " + q + " SET attempts = :newAttempts, last_error = :error, visible_at = "
                        + nowPlus("delay") + ", lease_token = NULL WHERE id = :id AND attempts = :attempts"),
                new SqlTemplate("UPDATE " + q + " SET last_error = :error, visible_at = " + nowPlus("delay")
                        + ", lease_token = NULL WHERE id = :id AND lease_token = :token"),
                new SqlTemplate(deadLetter(q, dlq, "CAST(:newAttempts AS INTEGER)", "attempts = :attempts")),
                new SqlTemplate(deadLetter(q, dlq, "attempts", "lease_token = :token")),
                new SqlTemplate(peek(q)),
                new SqlTemplate(stats(q)),
                new SqlTemplate("SELECT COUNT(*) FROM " + dlq + readUncommitted()));
    }

    /** CREATE TABLE and CREATE INDEX for the queue and its dead-letter table. */
    abstract List<String> createStatements(TableName queue, TableName deadLetters);

    /** A statement taking a transaction-scoped lock on :resource (or :key, a hash of it); null if none. */
    abstract SqlTemplate createLock();

    /** :priority :delay :headers :body :dedupKey, returning id. */
    abstract String insert(String q);

    /** As {@link #insert}, returning no row (or failing with a unique violation) on a duplicate dedup key. */
    abstract String insertIfAbsent(String q);

    /** The plain INSERT for JDBC batches with generated keys, or null to use {@link #insertBatch}'s own way. */
    String insertForBatch(String q) {
        return "INSERT INTO " + q + " (priority, visible_at, enqueued_at, headers, body) VALUES (:priority, "
                + nowPlus("delay") + ", " + now() + ", :headers, :body)";
    }

    /** A query for the next :n ready ids after :offset, without locks; null where the claim needs none. */
    String candidates(String q) {
        return null;
    }

    /** Deletes up to :n ready messages, highest priority first, FIFO within a priority, skipping locked rows. */
    abstract String claim(String q);

    /** Like {@link #claim}, but hides the rows for :lease ms, increments attempts and sets :token. */
    abstract String lease(String q);

    /**
     * Moves row :id to the dead-letter table with :error, if {@code fence} holds; one statement.
     * {@code attempts} is the value to record: the column {@code attempts} or a parameter expression.
     */
    abstract String deadLetter(String q, String dlq, String attempts, String fence);

    /** A cheap query returning a row when a message is ready. */
    abstract String peek(String q);

    /** ready, delayed, leased counts and the oldest ready message's age in ms. */
    String stats(String q) {
        return "SELECT COUNT(CASE WHEN visible_at <= " + now() + " THEN 1 END),"
                + " COUNT(CASE WHEN visible_at > " + now() + " AND lease_token IS NULL THEN 1 END),"
                + " COUNT(CASE WHEN visible_at > " + now() + " AND lease_token IS NOT NULL THEN 1 END),"
                + " " + millisSince("MIN(CASE WHEN visible_at <= " + now() + " THEN enqueued_at END)")
                + " FROM " + q + readUncommitted();
    }

    /** Milliseconds from a timestamp expression to now, as a BIGINT. */
    abstract String millisSince(String timestamp);

    /** A table hint that keeps monitoring reads from blocking on in-flight claims, where needed. */
    String readUncommitted() {
        return "";
    }

    /** The column list of an insert, shared by all dialects. */
    static String insertColumns() {
        return "(priority, visible_at, enqueued_at, headers, body, dedup_key)";
    }

    /** The message columns, each with a prefix ({@code deleted.}, {@code q.}, or none). */
    static String messageColumns(String prefix) {
        StringBuilder s = new StringBuilder();
        for (String c : MESSAGE_COLUMNS) {
            s.append(s.length() == 0 ? "" : ", ").append(prefix).append(c);
        }
        return s.toString();
    }

    /** Truncates an error text to what the column holds. */
    static String truncateError(String error) {
        return error == null || error.length() <= MAX_ERROR_LENGTH ? error : error.substring(0, MAX_ERROR_LENGTH);
    }

    /**
     * Runs a claim, lease or peek under an isolation level where skipping locked rows is legal.
     * The default runs it as it is.
     */
    <T> T withClaimIsolation(Connection c, SqlCall<T> call) throws SQLException {
        return call.run();
    }

    /**
     * Prepares a claim or lease of up to {@code n} messages (the template already holds {@code n}
     * as a literal); the caller binds the remaining parameters and executes it. The default runs
     * the single-statement form as it is.
     */
    SqlTemplate.Bound prepareClaim(Connection c, QueueSql sql, SqlTemplate claimOrLease, int n) throws SQLException {
        return claimOrLease.prepare(c);
    }

    /**
     * Inserts messages without dedup keys, returning their ids in order. The default uses a JDBC
     * batch with generated keys; a dialect whose driver cannot do that overrides it.
     */
    long[] insertBatch(Connection c, QueueSql sql, List<OutgoingMessage> messages) throws SQLException {
        long[] ids = new long[messages.size()];
        String[] keyColumn = {generatedKeyColumn()};
        try (PreparedStatement ps = c.prepareStatement(sql.insertForBatch().jdbcSql(), keyColumn)) {
            SqlTemplate.Bound b = sql.insertForBatch().wrap(ps);
            for (OutgoingMessage m : messages) {
                b.setInt("priority", m.priority())
                        .setMillis("delay", m.delay().toMillis())
                        .setString("headers", HeadersJson.write(m.headers()))
                        .setBytes("body", m.body());
                ps.addBatch();
            }
            ps.executeBatch();
            try (ResultSet keys = ps.getGeneratedKeys()) {
                int i = 0;
                while (keys.next()) {
                    ids[i++] = keys.getLong(1);
                }
                if (i != ids.length) {
                    throw new SQLException("the driver returned " + i + " generated ids for " + ids.length + " rows");
                }
            }
        }
        return ids;
    }

    /** How the driver names the id column for generated keys. */
    String generatedKeyColumn() {
        return "id";
    }

    /** A piece of JDBC work that returns a value. */
    @FunctionalInterface
    interface SqlCall<T> {
        T run() throws SQLException;
    }
}
