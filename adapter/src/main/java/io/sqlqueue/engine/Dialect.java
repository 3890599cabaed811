package io.sqlqueue.engine;

import io.sqlqueue.api.OutgoingMessage;
import io.sqlqueue.engine.TableDefinition.Column;
import io.sqlqueue.engine.TableDefinition.Index;
import io.sqlqueue.engine.TableDefinition.Kind;
import io.sqlqueue.engine.TableDefinition.Type;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * The SQL of one database product: what every database shares is written here once, and each
 * subclass writes only what differs (types, the clock, quoting, the skip-locked pick, the
 * row-returning DML, error codes, isolation). The tables are declared in {@link TableDefinition} and
 * rendered here; a queue's statements are built by name in {@link QueueSql}. All SQL the adapter
 * runs is in this package. Stateless and thread-safe.
 */
public abstract class Dialect {

    /**
     * Message columns in the order every claim and lease returns them: what a delivery needs, and
     * what moving an undeliverable row to the dead-letter table needs besides; then
     * {@code expires_at} and the database's clock ({@link #messageColumns}).
     */
    static final String[] MESSAGE_COLUMNS =
            {"id", "priority", "headers", "body", "enqueued_at", "attempts", "visible_at", "dedup_key", "ordering_key",
                "leased_by"};

    /** The columns a dead-letter row is written with, in order. */
    static final String DEAD_LETTER_COLUMNS =
            "id, priority, visible_at, enqueued_at, attempts, dedup_key, headers, body, last_error, failed_at, ordering_key,"
            + " error_class";

    /**
     * The queue columns a requeued dead letter is written with, in order; {@code id} is left to the
     * identity column (PostgreSQL's is GENERATED ALWAYS, SQL Server's takes explicit values only
     * under IDENTITY_INSERT, which needs ALTER permission), so a requeued message gets a new id.
     */
    static final String REQUEUE_COLUMNS =
            "priority, visible_at, enqueued_at, attempts, dedup_key, headers, body, last_error, ordering_key";

    /** The journal's columns, in the order of every insert. */
    static final String JOURNAL_COLUMNS =
            "message_id, enqueued_at, claimed_at, completed_at, attempts, outcome, consumer, trace_id";

    /** Longest error text stored (the column is NVARCHAR(2000)). */
    static final int MAX_ERROR_LENGTH = 2000;

    /** Longest list of lease holders a queue row's {@code leased_by} keeps. */
    static final int MAX_LEASED_BY_LENGTH = 1000;

    /** Longest exception class name stored in a dead-letter row's {@code error_class}. */
    static final int MAX_ERROR_CLASS_LENGTH = 255;

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
     * delivery's CPU in the end-to-end benchmark. Null for SQL NULL, checked rather than caught (a
     * NullPointerException per message without an expiry, thrown through Payara's deep stacks,
     * took 11% of a delivery's CPU).
     */
    Instant readInstant(ResultSet rs, int column) throws SQLException {
        Timestamp t = rs.getTimestamp(column);
        return t == null ? null : t.toInstant();
    }

    /**
     * An {@link Instant} as the driver binds it to a timestamp column of this dialect's tables: a
     * timestamp with time zone by default.
     */
    Object timestampParameter(Instant instant) {
        return OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
    }

    /** Whether this exception is a unique-key violation (a duplicate dedup key): SQLSTATE 23505 by default. */
    boolean isUniqueViolation(SQLException e) {
        return "23505".equals(e.getSQLState());
    }

    /**
     * Whether this exception says the statement lost a lock conflict (chosen as a deadlock victim,
     * or a lock wait timed out): its transaction is rolled back or must be, and nothing of it
     * stays; trying again later is safe. SQLSTATE 40001 and 40P01 by default.
     */
    public boolean isLockConflict(SQLException e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SQLException s && isLockConflictCode(s)) {
                return true;
            }
        }
        return false;
    }

    /** One exception of a {@link #isLockConflict} chain, by its own code. */
    boolean isLockConflictCode(SQLException e) {
        String state = e.getSQLState();
        return "40001".equals(state) || "40P01".equals(state);
    }

    /** All the statements of one queue's completion journal. */
    final JournalSql journalSql(TableName journal) {
        String j = qualified(journal);
        return new JournalSql(
                j,
                new SqlTemplate("INSERT INTO " + j + " (" + JOURNAL_COLUMNS + ") VALUES (:messageId, :enqueuedAt,"
                        + " :claimedAt, :completedAt, :attempts, :outcome, :consumer, :traceId)"),
                new SqlTemplate(deleteBefore(j, "completed_at")));
    }

    /**
     * The condition that picks one queue row by {@code :id} in the statements that change a row
     * the caller took (ack, retry, release, dead-letter): {@code id = :id} by default.
     */
    String byId(String q) {
        return "id = :id";
    }

    /** The column's type as this database names it; null for a column it does not need ({@link Type#KEY_LENGTH}). */
    abstract String typeOf(Column column);

    /** The schema an unqualified table name is created in, as an SQL expression. */
    abstract String currentSchema();

    /** Whether tables have a physical order of their own, set by one clustered index (SQL Server). */
    boolean clusters() {
        return false;
    }

    /** Whether an index can hold only the rows of a condition; where it cannot, {@link #indexColumns} leads with its column. */
    boolean partialIndexes() {
        return true;
    }

    /** Whether an index can carry non-key columns ({@code INCLUDE}). */
    boolean includedColumns() {
        return true;
    }

    /**
     * CREATE TABLE and the CREATE statements of its indexes and options, for a table that does not
     * exist yet. Nullable columns say NULL: on SQL Server a column that says nothing is NOT NULL
     * under ANSI_NULL_DFLT_OFF.
     */
    final List<String> createTable(TableDefinition table, TableName name) {
        List<String> parts = new ArrayList<>();
        for (Column column : table.columns()) {
            String definition = columnDefinition(name, column);
            if (definition != null) {
                parts.add(definition);
            }
        }
        if (!table.primaryKey().isEmpty()) {
            boolean clusteredElsewhere = clusters() && table.indexes().stream()
                    .anyMatch(i -> i.kind() == Kind.CLUSTERED || i.kind() == Kind.TABLE_ORDER);
            parts.add(primaryKey(name, table.primaryKey(), clusteredElsewhere));
        }
        List<String> ddl = new ArrayList<>();
        ddl.add("CREATE TABLE " + qualified(name) + " (" + String.join(", ", parts) + ")");
        for (Index index : table.indexes()) {
            String create = createIndex(table, name, index);
            if (create != null) {
                ddl.add(create);
            }
        }
        ddl.addAll(tableOptions(table, name));
        return ddl;
    }

    /** A column as CREATE TABLE and ADD write it; null where this database does not need it. */
    final String columnDefinition(TableName table, Column column) {
        String type = typeOf(column);
        if (type == null) {
            return null;
        }
        if (column.type() == Type.KEY_LENGTH) {
            return column.name() + " " + type; // computed: no nullability of its own
        }
        return column.name() + " " + type + (column.defaultValue() == null ? "" : defaultClause(table, column))
                + (column.notNull() ? " NOT NULL" : " NULL")
                + (column.check() == null ? "" : " CHECK (" + column.check() + ")");
    }

    /** The value a column defaults to: the clock ({@link #now()}) or a literal. */
    final String defaultValue(Column column) {
        return TableDefinition.CLOCK.equals(column.defaultValue()) ? now() : column.defaultValue();
    }

    /** The DEFAULT clause of a column in CREATE TABLE; SQL Server names it, so that it can be found and changed. */
    String defaultClause(TableName table, Column column) {
        return " DEFAULT " + defaultValue(column);
    }

    /** The primary key constraint; {@code nonclustered} where another index orders the table. */
    String primaryKey(TableName table, List<String> columns, boolean nonclustered) {
        return "PRIMARY KEY (" + String.join(", ", columns) + ")";
    }

    /** Statements that set a new table's options ({@link TableDefinition#rowLocksOnly()}); none by default. */
    List<String> tableOptions(TableDefinition table, TableName name) {
        return List.of();
    }

    /** ALTER TABLE adding a nullable column to an existing table. */
    String addColumn(TableName table, Column column) {
        return "ALTER TABLE " + qualified(table) + " ADD COLUMN " + columnDefinition(table, column);
    }

    /** ALTER TABLE giving an existing column its default. */
    String addDefault(TableName table, Column column) {
        return "ALTER TABLE " + qualified(table) + " ALTER COLUMN " + column.name() + " SET DEFAULT " + defaultValue(column);
    }

    /**
     * CREATE INDEX for {@code index} of {@code table} named {@code name}; null where this database
     * does not make it ({@link Kind#TABLE_ORDER} where tables are not clustered).
     */
    final String createIndex(TableDefinition table, TableName name, Index index) {
        if (index.kind() == Kind.TABLE_ORDER && !clusters()) {
            return null;
        }
        boolean unique = index.kind() == Kind.UNIQUE || index.kind() == Kind.TABLE_ORDER;
        StringBuilder s = new StringBuilder("CREATE ").append(unique ? "UNIQUE " : "").append(indexKind(index))
                .append("INDEX ").append(quote(name.table() + index.suffix())).append(" ON ").append(qualified(name))
                .append(" (").append(String.join(", ", indexColumns(table, index))).append(')');
        if (!index.include().isEmpty() && includedColumns()) {
            s.append(" INCLUDE (").append(String.join(", ", index.include())).append(')');
        }
        if (index.filter() != null && partialIndexes()) {
            TableDefinition.Filter f = index.filter();
            s.append(" WHERE ").append(f == TableDefinition.Filter.READY ? notHidden() : f.column() + " IS NOT NULL");
        }
        return s.toString();
    }

    /** CLUSTERED or NONCLUSTERED where the database clusters tables ({@link #clusters()}); nothing by default. */
    String indexKind(Index index) {
        return "";
    }

    /**
     * The key columns of an index as this database has them: without the columns it does not
     * need, and led by the filter's column where it has no partial indexes.
     */
    final List<String> indexColumns(TableDefinition table, Index index) {
        List<String> columns = new ArrayList<>();
        if (index.filter() != null && !partialIndexes()
                && index.columns().stream().noneMatch(c -> c.split(" ")[0].equals(index.filter().column()))) {
            columns.add(index.filter().column());
        }
        for (String c : index.columns()) {
            String column = c.split(" ")[0];
            if (table.columns().stream().noneMatch(d -> d.name().equals(column) && typeOf(d) == null)) {
                columns.add(c);
            }
        }
        return columns;
    }

    /** The first key column of an index as this database has it. */
    final String indexLead(TableDefinition table, Index index) {
        return indexColumns(table, index).get(0).split(" ")[0];
    }

    /**
     * The valid indexes of a table, read from the catalog: name → first key column. Not JDBC's
     * index information: on Babelfish it merges indexes whose long names it truncates.
     */
    final Map<String, String> indexes(Connection c, String schema, String table) throws SQLException {
        Map<String, String> indexes = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement(indexLeads())) {
            ps.setString(1, schema);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    indexes.put(rs.getString(1), rs.getString(2));
                }
            }
        }
        return indexes;
    }

    /** A query of the valid indexes of table (schema ?, name ?): index name, first key column. */
    abstract String indexLeads();

    /**
     * Whether an index missing from a populated table is built by {@link #buildIndexOnline} after
     * the creation has committed, without blocking writes; otherwise it is built with the rest,
     * holding the table until it is done (H2 has no online build; SQL Server's needs an edition
     * that has it, so an administrator builds it first where that matters: admin/sqlserver-schema.sql).
     */
    boolean buildsIndexesOnline() {
        return false;
    }

    /**
     * Builds a missing index of a populated table after the creation has committed (called only
     * where {@link #buildsIndexesOnline}). Without an online build of its own, a database builds it
     * the plain way, under the creation lock, as a creation does.
     */
    void buildIndexOnline(Connection c, TableDefinition definition, TableName table, Index index) throws SQLException {
        SchemaCreation.createIfMissing(c, this, "sqlqueue:" + table, new SchemaCreation.Table(definition, table));
    }

    /** A statement taking a transaction-scoped lock on :resource (or :key, a hash of it); null if none. */
    SqlTemplate createLock() {
        return null;
    }

    /**
     * Refuses, with an error naming the table and the fix, existing tables this dialect cannot use
     * as they are (made by hand, by a DBA's script, or changed since). Reads the catalog only. By
     * default: a table whose name differs from the configured one in case alone, which a database
     * that compares names without case (SQL Server's usual collations) finds; the queues
     * {@code orders} and {@code Orders} would otherwise be one table.
     */
    void checkExisting(Connection c, TableName queue, TableName deadLetters) throws SQLException {
        for (TableName table : List.of(queue, deadLetters)) {
            String found = TableCatalog.read(c, this, table).foundName();
            if (found != null && !found.equals(table.table())) {
                throw new SQLException("the configured name " + table + " finds the table " + found + ": this"
                        + " database compares names without case, so names that differ only in case are one"
                        + " table; configure the name exactly as the table's (" + found + "), or give the"
                        + " queue a name no other differs from in case alone");
            }
        }
    }

    /**
     * The exception to throw for {@code e}, from a statement on {@code queue}'s tables: {@code e}
     * itself by default, or one that says what happened and what to do, keeping its SQLSTATE and
     * code (callers classify by them).
     */
    SQLException explained(SQLException e, TableName queue) {
        return e;
    }

    /**
     * Takes the lock that makes concurrent creators of {@code resource}'s tables take turns, in the
     * connection's transaction (auto-commit off), until it ends; nothing where the database has no
     * such lock ({@link #createLock()} null).
     */
    void lockForCreation(Connection c, String resource) throws SQLException {
        SqlTemplate lock = createLock();
        if (lock != null) {
            try (SqlTemplate.Bound b = lock.prepare(c)) {
                b.setString("resource", resource).setLong("key", resource.hashCode());
                b.statement().execute();
            }
        }
    }

    /**
     * The condition that two key expressions (dedup keys, ordering keys) hold the same key, as
     * Java's {@code String.equals} compares them: case, accents and trailing spaces count. Plain
     * {@code =} where the database compares text exactly (PostgreSQL's deterministic collations,
     * H2); SQL Server's collations do not, so its dialect says more.
     */
    String sameKey(String a, String b) {
        return a + " = " + b;
    }

    /** A key parameter ({@code :name}) as {@link #sameKey} compares it with a key column. */
    String keyParameter(String name) {
        return ":" + name;
    }

    /**
     * Rows whose {@code visible_at} is set at least this far ahead (a delay, a retry back-off, a
     * lease) are written hidden: {@code hidden = 1}. Claims, holds and peeks read only rows whose
     * {@code hidden} is NULL ({@link #ready()}), through an index of those alone, so rows that wait
     * lie in no claim's way however many they are (a claim behind 200,000 of them read them all,
     * 0.01× its rate on a clean queue). {@link QueueTable#revealDue} makes them claimable once their
     * time has passed. A nearer time is not hidden: for that moment claims pass over the row, and
     * it is delivered without waiting for a reveal. ({@link QueueTable#HIDDEN_FROM} publishes it.)
     */
    static final long HIDDEN_FROM_MILLIS = 1000;

    /** The {@code hidden} value of a row made visible after the milliseconds of the named parameter. */
    static String hiddenFor(String parameter) {
        return "CASE WHEN :" + parameter + " >= " + HIDDEN_FROM_MILLIS + " THEN 1 END";
    }

    /**
     * The dequeue order, highest priority first and FIFO within a priority. It leads with
     * {@code hidden}, NULL in every row a claim reads, so that it is the order of the ready index
     * {@code (hidden, priority DESC, id)}: H2 and PostgreSQL read an index in order only for an
     * ORDER BY of its leading columns, and do not count {@code hidden IS NULL} as fixing the first.
     */
    static final String DEQUEUE_ORDER = "hidden, priority DESC, id";

    /** The rows a claim may take, on a row aliased {@code m} or unaliased: not hidden, and visible now. */
    final String ready() {
        return notHidden() + " AND visible_at <= " + now();
    }

    /** The condition of a row that is not hidden: the one that the ready index is filtered on, where it is. */
    String notHidden() {
        return "hidden IS NULL";
    }

    /** The hidden rows whose time has passed, for the reveal ({@link QueueSql#reveal}). */
    String hiddenAndDue() {
        return "hidden IS NOT NULL AND visible_at <= " + now();
    }

    // --- The primitives the queue's statements are built from (QueueSql): what differs by database. ---

    /**
     * An insert returning the new row's id: {@code columns} and then {@code source} (VALUES or
     * SELECT), wrapped in the database's row-returning form.
     */
    abstract String insertReturningId(String q, String columns, String source);

    /**
     * The source of an insert of {@code values} that inserts nothing, returning no row (or failing
     * with a unique violation), when a queued message has the row's dedup key.
     */
    abstract String ifKeyAbsent(String q, String values);

    /**
     * {@code change} applied to the first :n (a literal) rows of {@code q}, aliased {@code m}, that are
     * {@link #ready()} and meet {@code and}, in {@link #DEQUEUE_ORDER}, skipping rows other
     * transactions hold and locking those taken until the transaction ends: the pick of a claim and
     * a lease. A dialect whose database cannot pick and lock in the statement itself picks before it
     * ({@link #pick}) and writes here a change of the rows picked.
     */
    abstract Dml nextReady(Dml.Change change, String q, String and);

    /**
     * A query of {@code columns} from the first :n rows of {@code from} that meet {@code where}, in
     * {@code order}, skipping rows other transactions hold and locking those it returns until the
     * transaction ends: a hold; in the dialects that pick in one statement, also the pick inside
     * their other statements.
     */
    abstract String lockedRead(String columns, String from, String where, String order);

    /**
     * A query of {@code columns} from one row of {@code from} that meets {@code where}, any one (the
     * caller asks whether there is one), not locking it, and not waiting for rows other transactions
     * hold where the database can skip them; {@code order} is the order of the index to read, for a
     * planner that needs to be told.
     */
    abstract String anyRow(String columns, String from, String where, String order);

    /**
     * {@code change} applied to up to :n (a literal) rows of its table that meet {@code where}, in no
     * promised order, skipping rows other transactions hold where the database can: the batches of
     * reveals, sweeps and purges. {@code order} is the index order to read them in, where the
     * database needs one to pick a batch; {@code key} the column that finds a picked row again, null
     * for a table without a key.
     */
    abstract Dml someRows(Dml.Change change, String where, String order, String key);

    /**
     * A delete ({@code change}) of the first :n (a literal) rows of a table without a unique key,
     * aliased {@code alias}, that meet {@code where}, in {@code order}, skipping rows other
     * transactions hold and locking the rest: the pick of a requeue. {@code match} are the columns
     * that find a picked row again where the database has no address of its own for a row (two rows
     * sharing all of them, written by hand, go together).
     */
    abstract Dml oldestRows(Dml.Change change, String alias, String where, String order, String... match);

    /** The rows {@code dml} changes, returned as {@link #messageColumns}. */
    abstract String returningMessages(Dml dml);

    /**
     * Inserts the rows {@code delete} deletes into {@code into} (a table and its column list), in
     * the same statement: {@code values} are the inserted values, written for a row whose columns
     * are read with the prefix it is given; {@code order} the order to insert in (its identity
     * values follow it where the database can), or null.
     */
    abstract String moveRows(Dml delete, String into, UnaryOperator<String> values, String order);

    /**
     * Deletes the one row of {@code q} that meets {@code where} (a unique key's condition and
     * whatever else the row must meet) unless another transaction holds it, in the caller's
     * transaction: then it deletes nothing, and does not wait for the row where the database can
     * pass over it. By default one statement, {@link #someRows} of one row. A cancel.
     */
    UnheldDelete unheldDelete(String q, String where) {
        SqlTemplate delete = new SqlTemplate(someRows(Dml.Change.delete(q), where, "id", "id").statement())
                .withLiteral("n", 1);
        return (c, parameters) -> {
            try (SqlTemplate.Bound b = delete.prepare(c)) {
                parameters.bind(b);
                return b.executeUpdate();
            }
        };
    }

    /** A delete of {@link #unheldDelete}: binds its parameters, runs it, returns the deleted count (0 or 1). */
    @FunctionalInterface
    interface UnheldDelete {
        int delete(Connection c, Binding parameters) throws SQLException;
    }

    /** Binds the named parameters of a statement the caller does not prepare itself. */
    @FunctionalInterface
    interface Binding {
        void bind(SqlTemplate.Bound b) throws SQLException;
    }

    /**
     * A query of {@code columns} from the rows of {@code q} that meet {@code where}, each as last
     * committed, not waiting for a transaction that holds it: what a cancel that deleted nothing
     * reads, to tell a message in delivery from one that is not in the queue. A plain query by
     * default: PostgreSQL and H2 read the last committed version of a row another transaction
     * holds (has locked, changed or deleted), and do not see rows it inserted.
     */
    String lastCommitted(String columns, String q, String where) {
        return "SELECT " + columns + " FROM " + q + " WHERE " + where;
    }

    /**
     * The start of a statement that reads with table hints skipping held rows, where the database
     * needs an isolation level for them: "" by default.
     */
    String skippingIsolation() {
        return "";
    }

    /**
     * The pick of a claim, lease or hold where the database cannot pick in the statement: by default
     * {@link #IN_STATEMENT}. {@code and} as in {@link #nextReady}.
     */
    Pick pick(String q, String and) {
        return IN_STATEMENT;
    }

    /**
     * Prepares a claim, lease or hold of up to {@code n} rows ({@code take} holds {@code n} as a
     * literal; a hold after a place binds it); the caller binds the remaining parameters and executes it.
     */
    @FunctionalInterface
    interface Pick {
        SqlTemplate.Bound prepare(Connection c, SqlTemplate take, int n, Place after) throws SQLException;
    }

    /**
     * The pick of a claim, lease or hold that takes only the ready rows meeting {@code and} that
     * {@code selection} selects ({@link SelectingPick}); the statement it prepares was written with
     * {@link #pickedIds} added to {@code and}. By default the statement's own skip-locked read
     * takes the rows picked.
     */
    Pick selectingPick(String q, String and, Predicate<SelectingPick.Candidate> selection) {
        return new SelectingPick(this, q, and, selection, null);
    }

    /**
     * The condition, on a row aliased {@code m}, that it is one of the rows a {@link #selectingPick}
     * picked: {@code :picked}, a list of the take's size ({@link SqlTemplate#withList}).
     */
    String pickedIds() {
        return " AND m.id IN (:picked)";
    }

    /**
     * A query of {@code columns} from the first :n (a literal) rows of {@code from} that meet
     * {@code where}, in {@code order}, locking none, and not waiting for rows other transactions
     * hold where the database can skip them: the candidates of a {@link #selectingPick}.
     */
    String firstRows(String columns, String from, String where, String order) {
        return "SELECT " + columns + " FROM " + from + " WHERE " + where + " ORDER BY " + order
                + " FETCH FIRST :n ROWS ONLY";
    }

    /** The statement picks its own rows: it is prepared as it is. */
    static final Pick IN_STATEMENT = (c, take, n, after) -> after == null ? take.prepare(c) : bindAfter(take.prepare(c), after);

    /**
     * Moves up to {@code n} dead letters back into the queue in the caller's transaction (not in
     * auto-commit) and returns how many it moved; on failure nothing of the batch has moved.
     */
    @FunctionalInterface
    interface Requeue {
        int move(Connection c, int n, Binding parameters) throws SQLException;

        /** Moves the dead letters without a further condition ({@link #requeue(String, String)}). */
        default int move(Connection c, int n) throws SQLException {
            return move(c, n, b -> { });
        }
    }

    /**
     * The requeue of {@link QueueSql#requeue}: by default the one statement of
     * {@link #requeueStatement}.
     */
    final Requeue requeue(String q, String dlq) {
        return requeue(q, dlq, "");
    }

    /**
     * The requeue of the dead letters that also meet {@code and} (as in
     * {@link #requeueStatement(String, String, String)}), its parameters bound by the caller's
     * {@link Binding}: by default one statement.
     */
    Requeue requeue(String q, String dlq, String and) {
        SqlTemplate move = new SqlTemplate(requeueStatement(q, dlq, and));
        return (c, n, parameters) -> withClaimIsolation(c, () -> {
            try (SqlTemplate.Bound b = move.withLiteral("n", n).prepare(c)) {
                parameters.bind(b);
                return b.executeUpdate();
            }
        });
    }

    /**
     * The condition of ordered delivery on a row aliased {@code m}: it has no ordering key, or no
     * row of its key with a smaller id is in the table. Whatever holds that earlier row keeps
     * the key: a transaction that deleted it and has not committed (the database still shows the
     * row to others), a lease, a retry back-off, a delay. So one message per key is in flight and
     * the next is taken only once the one before it is gone for good: delivered and committed, or
     * dead-lettered. One claim takes at most one message per key, since it sees the others behind
     * it. A probe of the index on {@code (ordering_key, id)} per row looked at; the rows a
     * claim passes over are the waiting messages of keys in flight ahead of the first free ones.
     * The redundant {@code IS NOT NULL} lets SQL Server use its filtered index.
     */
    String headOfKey(String q) {
        return " AND (m.ordering_key IS NULL OR NOT EXISTS (SELECT 1 FROM " + q + " AS earlier"
                + " WHERE earlier.ordering_key IS NOT NULL AND " + sameKey("earlier.ordering_key", "m.ordering_key")
                + " AND earlier.id < m.id))";
    }

    /**
     * The rows after (:afterPriority, :afterId) in the dequeue order {@code priority DESC, id}; the
     * first condition a range of the ready index, so a scan starts at the place.
     */
    static final String AND_AFTER = " AND priority <= :afterPriority AND (priority < :afterPriority OR id > :afterId)";

    /** The :error parameter as a dead-letter row's {@code last_error}. */
    String errorValue() {
        return "CAST(:error AS VARCHAR(" + MAX_ERROR_LENGTH + "))";
    }

    /** The :errorClass parameter as a dead-letter row's {@code error_class}. */
    String errorClassValue() {
        return "CAST(:errorClass AS VARCHAR(" + MAX_ERROR_CLASS_LENGTH + "))";
    }

    /**
     * Moves up to :n (a literal) dead letters back into the queue in one statement, oldest failure
     * first, and reports the moved count as its update count. A moved message gets a new id,
     * {@code attempts} 0, {@code visible_at} now and no lease; it keeps priority, enqueued_at,
     * dedup_key, headers, body and last_error. Left behind: rows other transactions hold, and
     * rows that fail {@link #requeueable} (so the move never breaks the queue's unique dedup index).
     * The dead-letter table has no unique key: see {@link #oldestRows}.
     */
    final String requeueStatement(String q, String dlq) {
        return requeueStatement(q, dlq, "");
    }

    /**
     * As {@link #requeueStatement(String, String)}, of the dead letters (aliased {@code d}) that
     * also meet {@code and} (empty, or starting with {@code " AND "}), whose named parameters the
     * caller binds: the console's requeue of a selection or a group.
     */
    final String requeueStatement(String q, String dlq, String and) {
        Dml oldest = oldestRows(Dml.Change.delete(dlq), "d", requeueable(q, dlq) + and, OLDEST_FAILURE_FIRST, "id",
                "failed_at");
        return moveRows(oldest, q + " (" + REQUEUE_COLUMNS + ")", this::requeuedValues, "failed_at, id");
    }

    /** The order of a requeue, on dead letters aliased {@code d}. */
    static final String OLDEST_FAILURE_FIRST = "d.failed_at, d.id";

    /** The values of a requeued dead letter, in the order of {@link #REQUEUE_COLUMNS}, its columns read with {@code prefix}. */
    final String requeuedValues(String prefix) {
        return prefix + "priority, " + now() + ", " + prefix + "enqueued_at, 0, " + prefix + "dedup_key, " + prefix
                + "headers, " + prefix + "body, " + prefix + "last_error, " + prefix + "ordering_key";
    }

    /**
     * The condition on a dead letter aliased {@code d} for a requeue: no queued message has its
     * dedup key, and no older dead letter has it either (one message per key per statement; the
     * older goes first, the younger waits until the queued one is consumed, as a duplicate
     * enqueue would). The redundant {@code IS NOT NULL} lets SQL Server use its filtered indexes on
     * {@code dedup_key}, which it matches only against a predicate that states the filter.
     */
    final String requeueable(String q, String dlq) {
        return "NOT EXISTS (SELECT 1 FROM " + q + " AS q WHERE q.dedup_key IS NOT NULL AND "
                + sameKey("q.dedup_key", "d.dedup_key") + ")"
                + " AND NOT EXISTS (SELECT 1 FROM " + dlq + " AS e WHERE e.dedup_key IS NOT NULL AND "
                + sameKey("e.dedup_key", "d.dedup_key")
                + " AND (e.failed_at < d.failed_at OR (e.failed_at = d.failed_at AND e.id < d.id)))";
    }

    /**
     * Deletes up to :n (a literal) rows of {@code table} whose {@code column} is before :cutoff, in
     * one statement, skipping rows other transactions hold where the database can.
     */
    final String deleteBefore(String table, String column) {
        return someRows(Dml.Change.delete(table), column + " < :cutoff", column, null).statement();
    }

    /**
     * Runs one batch of a {@link #deleteBefore} statement: deletes up to {@code size} rows before
     * {@code cutoff} in the caller's transaction and returns how many it deleted.
     */
    final int deleteBatchBefore(Connection c, SqlTemplate deleteBefore, int size, Instant cutoff) throws SQLException {
        SqlTemplate batch = deleteBefore.withLiteral("n", size);
        return withClaimIsolation(c, () -> {
            try (SqlTemplate.Bound b = batch.prepare(c)) {
                return b.setObject("cutoff", timestampParameter(cutoff)).executeUpdate();
            }
        });
    }

    /**
     * Per minute of {@code completed_at} over the last {@code minutes} minutes (by the database
     * clock), oldest first: {@code minute_start, messages, dead_lettered, avg_queue_ms,
     * p95_queue_ms, avg_processing_ms, p95_processing_ms}. The default uses PERCENTILE_CONT as an
     * ordered-set aggregate; a dialect that only has it as a window function overrides it.
     */
    String perMinuteTimings(String journal, int minutes) {
        return "SELECT minute_start, COUNT(*) AS messages,"
                + " COUNT(CASE WHEN outcome = 'dead_lettered' THEN 1 END) AS dead_lettered,"
                + " AVG(queue_ms) AS avg_queue_ms,"
                + " PERCENTILE_CONT(0.95) WITHIN GROUP (ORDER BY queue_ms) AS p95_queue_ms,"
                + " AVG(processing_ms) AS avg_processing_ms,"
                + " PERCENTILE_CONT(0.95) WITHIN GROUP (ORDER BY processing_ms) AS p95_processing_ms"
                + " FROM (" + journalTimings(journal, minutes, "DOUBLE PRECISION") + ") AS t"
                + " GROUP BY minute_start ORDER BY minute_start";
    }

    /** Each journal row of the window as {@code minute_start, queue_ms, processing_ms, outcome}. */
    final String journalTimings(String journal, int minutes, String doubleType) {
        return "SELECT " + minuteOf("completed_at") + " AS minute_start,"
                + " CAST(" + millisBetween("enqueued_at", "claimed_at") + " AS " + doubleType + ") AS queue_ms,"
                + " CAST(" + millisBetween("claimed_at", "completed_at") + " AS " + doubleType + ") AS processing_ms,"
                + " outcome FROM " + journal + " WHERE completed_at >= " + minutesAgo(minutes);
    }

    /** A timestamp expression truncated to its minute. */
    abstract String minuteOf(String timestamp);

    /** Milliseconds from one timestamp expression to another. */
    abstract String millisBetween(String from, String to);

    /** The database clock {@code minutes} minutes ago. */
    abstract String minutesAgo(int minutes);

    /**
     * Queued messages that were claimed and did not complete, oldest first: {@code id, attempts,
     * enqueued_at, visible_at, last_error, reason}, where reason is {@code lease_expired} (leased,
     * never acknowledged nor given back: the consumer died, hung or outlived its lease),
     * {@code retry_scheduled} (a failed delivery waiting out its back-off) or {@code retry_ready}
     * (a failed delivery visible again). Deliveries in progress are not listed: live leases are
     * excluded, and a transacted claim in progress counts no attempt until it fails.
     */
    String unfinishedDeliveries(String q) {
        return "SELECT id, attempts, enqueued_at, visible_at, last_error,"
                + " CASE WHEN lease_token IS NOT NULL THEN 'lease_expired'"
                + " WHEN visible_at > " + now() + " THEN 'retry_scheduled' ELSE 'retry_ready' END AS reason"
                + " FROM " + q + readUncommitted()
                + " WHERE attempts > 0 AND (lease_token IS NULL OR visible_at <= " + now() + ")"
                + " ORDER BY enqueued_at, id";
    }

    /**
     * {@code :table} (the qualified name as written in SQL) → the number of the queue table's
     * columns the planner has statistics of, or null where the database gathers them itself when
     * it first compiles a statement that needs them (SQL Server's AUTO_CREATE_STATISTICS, H2).
     */
    String columnStatistics() {
        return null;
    }

    /** The statement that gathers the planner's statistics of table {@code q}, where {@link #columnStatistics} is not null. */
    String gatherStatistics(String q) {
        throw new UnsupportedOperationException("no statistics statement for " + getClass().getSimpleName());
    }

    /** ready, delayed, leased counts, the oldest ready message's age in ms, and the expired count. */
    String stats(String q) {
        return "SELECT COUNT(CASE WHEN visible_at <= " + now() + " THEN 1 END),"
                + " COUNT(CASE WHEN visible_at > " + now() + " AND lease_token IS NULL THEN 1 END),"
                + " COUNT(CASE WHEN visible_at > " + now() + " AND lease_token IS NOT NULL THEN 1 END),"
                + " " + millisSince("MIN(CASE WHEN visible_at <= " + now() + " THEN enqueued_at END)") + ","
                + " COUNT(CASE WHEN expires_at <= " + now() + " THEN 1 END)"
                + " FROM " + q + readUncommitted();
    }

    /** Milliseconds from a timestamp expression to now, as a BIGINT. */
    abstract String millisSince(String timestamp);

    /** A table hint that keeps monitoring reads from blocking on in-flight claims, where needed. */
    String readUncommitted() {
        return "";
    }

    /**
     * The attempt count a lease writes: one more, but never below 1 (a row written by hand with a
     * negative count) and never past the largest INTEGER (which would fail the whole lease).
     */
    static String nextAttempts(String column) {
        return "CASE WHEN " + column + " < 0 THEN 1 WHEN " + column + " >= 2147483647 THEN " + column
                + " ELSE " + column + " + 1 END";
    }

    /** The column list of an insert, shared by all dialects; its values end with {@link #insertTail()}. */
    static String insertColumns() {
        return "(priority, visible_at, enqueued_at, headers, body, dedup_key, expires_at, ordering_key, hidden)";
    }

    /**
     * The last values of an insert: {@code expires_at}, now plus :ttl ms (NULL when :ttl is NULL),
     * {@code ordering_key}, :orderingKey, and {@code hidden} by :delay.
     */
    final String insertTail() {
        return nowPlus("ttl") + ", :orderingKey, " + hiddenFor("delay");
    }

    /** The plain INSERT for JDBC batches with generated keys, or null to use {@link #insertBatch}'s own way. */
    String insertForBatch(String q) {
        return "INSERT INTO " + q + " (priority, visible_at, enqueued_at, headers, body, expires_at, ordering_key, hidden)"
                + " VALUES (:priority, " + nowPlus("delay") + ", " + now() + ", :headers, :body, " + insertTail() + ")";
    }

    /** The values of one message's insert, in the order of {@link #insertColumns()}. */
    final String insertValues() {
        return ":priority, " + nowPlus("delay") + ", " + now() + ", :headers, :body, :dedupKey, " + insertTail();
    }

    /**
     * The message columns, each with a prefix ({@code deleted.}, {@code q.}, or none), then
     * {@code expires_at} and the database's clock, to tell an expired row by that clock alone.
     * (Not a CASE on the two: Babelfish refuses an expression on {@code deleted.} in OUTPUT.)
     */
    final String messageColumns(String prefix) {
        StringBuilder s = new StringBuilder();
        for (String c : MESSAGE_COLUMNS) {
            s.append(s.length() == 0 ? "" : ", ").append(prefix).append(c);
        }
        return s.append(", ").append(prefix).append("expires_at, ").append(now()).toString();
    }

    /** Truncates an error text to what the column holds. */
    static String truncateError(String error) {
        if (error == null) {
            return null;
        }
        String text = error.replace('\0', ' '); // PostgreSQL rejects NUL in text: the failure would not be recorded
        return text.length() <= MAX_ERROR_LENGTH ? text : text.substring(0, MAX_ERROR_LENGTH);
    }

    /** An exception class name cut to what {@code error_class} holds; null stays null. */
    static String truncateErrorClass(String className) {
        return className == null || className.length() <= MAX_ERROR_CLASS_LENGTH ? className
                : className.substring(0, MAX_ERROR_CLASS_LENGTH);
    }

    /**
     * Runs a claim, lease, peek or any other statement that skips locked rows under an isolation
     * level where that is legal. The default runs it as it is.
     */
    <T> T withClaimIsolation(Connection c, SqlCall<T> call) throws SQLException {
        return call.run();
    }

    static SqlTemplate.Bound bindAfter(SqlTemplate.Bound b, Place after) throws SQLException {
        return b.setInt("afterPriority", after.priority()).setLong("afterId", after.id());
    }

    /** A row's place in the dequeue order {@code priority DESC, id}. */
    record Place(int priority, long id) {
    }

    /**
     * Deletes the rows of :ids (an array), run by {@link #deleteHeld(Connection, QueueSql, Long[])};
     * null where that builds its own statement.
     */
    String deleteHeld(String q) {
        return "DELETE FROM " + q + " WHERE id = ANY(:ids)";
    }

    /**
     * Deletes the rows of {@code ids}, which the caller's transaction holds, and returns how many it
     * deleted. The default is one statement: a JDBC batch of deletes by id costs PostgreSQL a third
     * more than the claim it follows.
     */
    int deleteHeld(Connection c, QueueSql sql, Long[] ids) throws SQLException {
        try (SqlTemplate.Bound b = sql.deleteHeld.prepare(c)) {
            return b.setLongs("ids", ids).executeUpdate();
        }
    }

    /**
     * Inserts messages without dedup keys, returning their ids in order. The default uses a JDBC
     * batch with generated keys; a dialect whose driver cannot do that overrides it.
     */
    long[] insertBatch(Connection c, QueueSql sql, List<OutgoingMessage> messages) throws SQLException {
        long[] ids = new long[messages.size()];
        String[] keyColumn = {generatedKeyColumn()};
        try (PreparedStatement ps = c.prepareStatement(sql.insertForBatch.jdbcSql(), keyColumn)) {
            SqlTemplate.Bound b = sql.insertForBatch.wrap(ps);
            for (OutgoingMessage m : messages) {
                b.setInt("priority", m.priority())
                        .setMillis("delay", m.delay().toMillis())
                        .setMillis("ttl", m.timeToLive())
                        .setString("headers", HeadersJson.write(m.headers()))
                        .setBytes("body", m.body())
                        .setString("orderingKey", m.orderingKey());
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
