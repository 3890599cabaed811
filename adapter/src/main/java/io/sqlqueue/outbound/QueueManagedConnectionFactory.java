package io.sqlqueue.outbound;

import io.sqlqueue.DatabaseLogin;
import io.sqlqueue.JndiLookup;
import io.sqlqueue.QueueResourceAdapter;
import io.sqlqueue.api.QueueConnection;
import io.sqlqueue.api.QueueConnectionFactory;
import io.sqlqueue.engine.ConnectionHealth;
import io.sqlqueue.engine.Dialect;
import io.sqlqueue.engine.DriverDataSources;
import io.sqlqueue.engine.QueueTable;
import io.sqlqueue.engine.RetryPolicy;
import io.sqlqueue.engine.Topic;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.ConfigProperty;
import jakarta.resource.spi.ConnectionDefinition;
import jakarta.resource.spi.ConnectionManager;
import jakarta.resource.spi.ConnectionRequestInfo;
import jakarta.resource.spi.InvalidPropertyException;
import jakarta.resource.spi.ManagedConnection;
import jakarta.resource.spi.ManagedConnectionFactory;
import jakarta.resource.spi.ResourceAdapter;
import jakarta.resource.spi.ResourceAdapterAssociation;
import jakarta.resource.spi.ResourceAllocationException;
import jakarta.resource.spi.TransactionSupport;
import jakarta.resource.spi.security.PasswordCredential;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.naming.NamingException;
import javax.security.auth.Subject;
import javax.sql.DataSource;
import javax.sql.XAConnection;
import javax.sql.XADataSource;

/**
 * Makes the physical connections behind {@link QueueConnectionFactory}: to the database named by
 * {@code jdbcUrl} (XA or plain), or, with {@code dataSourceJndiName}, through a server JDBC
 * resource. Its properties are what an admin sets on the connection pool; unset connection
 * properties fall back to the resource adapter's.
 */
@ConnectionDefinition(
        connectionFactory = QueueConnectionFactory.class,
        connectionFactoryImpl = QueueConnectionFactoryImpl.class,
        connection = QueueConnection.class,
        connectionImpl = QueueConnectionHandle.class)
public class QueueManagedConnectionFactory implements ManagedConnectionFactory, ResourceAdapterAssociation,
        TransactionSupport {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = Logger.getLogger(QueueManagedConnectionFactory.class.getName());

    @ConfigProperty(description = "JDBC URL of the queue database: jdbc:sqlserver:..., jdbc:postgresql:... or"
            + " jdbc:h2:... Empty: the resource adapter's jdbcUrl. Ignored when dataSourceJndiName is set.")
    private String jdbcUrl = "";

    @ConfigProperty(description = "Database user. Empty: the resource adapter's user.")
    private String user = "";

    @ConfigProperty(description = "Database password. Empty: the resource adapter's password.", confidential = true)
    private String password = "";

    @ConfigProperty(description = "JNDI name of a server JDBC resource to enqueue through instead of jdbcUrl"
            + " (e.g. java:global/jdbc/orders, or java:/jdbc/orders on WildFly). Sends then join the caller's"
            + " transaction the way that resource does: with a non-XA pool, the application's writes and the"
            + " enqueue share one connection and one local transaction, without XA. Use the connection pool"
            + " with NoTransaction support in this mode.")
    private String dataSourceJndiName = "";

    @ConfigProperty(description = "Open XA connections, for two-phase commit with other resources. Set to false"
            + " where the database has no XA (SQL Server without MS DTC); the pool must then use LocalTransaction"
            + " or NoTransaction.", defaultValue = "true")
    private Boolean useXA = Boolean.TRUE;

    @ConfigProperty(description = "XATransaction, LocalTransaction or NoTransaction. Servers take this over the"
            + " pool's own setting (Connectors 2.1, 7.13). Empty: XATransaction, LocalTransaction when useXA is"
            + " false, NoTransaction with dataSourceJndiName. NoTransaction: every send commits at once, whatever"
            + " the caller's transaction does.")
    private String transactionSupportLevel = "";

    /** Raised each time a physical connection is found broken: idle ones are checked before reuse. */
    private transient volatile long breakages;

    private transient volatile QueueResourceAdapter resourceAdapter;
    private transient volatile PrintWriter logWriter;
    private transient volatile Object dataSource; // XADataSource, DataSource or the JNDI resource, made once
    private transient ProducerMonitor monitor; // guarded by this
    private transient volatile Dialect dialect;
    private transient ConcurrentMap<String, QueueTable> queues = new ConcurrentHashMap<>();
    private transient ConcurrentMap<String, Topic> topics = new ConcurrentHashMap<>();

    @Override
    public Object createConnectionFactory(ConnectionManager cm) {
        return new QueueConnectionFactoryImpl(this, cm);
    }

    @Override
    public Object createConnectionFactory() {
        return new QueueConnectionFactoryImpl(this, new UnmanagedConnectionManager());
    }

    /** This factory's management bean (made on first use: the server sets the properties first). */
    synchronized ProducerMonitor monitor() {
        if (monitor == null) {
            monitor = new ProducerMonitor(usesServerDataSource() ? dataSourceJndiName : login().database(),
                    this::databaseAnswers);
        }
        return monitor;
    }

    @Override
    public ManagedConnection createManagedConnection(Subject subject, ConnectionRequestInfo info)
            throws ResourceException {
        if (usesServerDataSource()) {
            return new QueueManagedConnection(this, null, null, null); // the server resource has its own user
        }
        DatabaseLogin login = login();
        String url = login.jdbcUrl();
        String dbUser = login.user();
        String dbPassword = login.password();
        PasswordCredential credential = credential(subject);
        if (credential != null) { // container-managed sign-on: the pool's user wins
            dbUser = credential.getUserName();
            dbPassword = new String(credential.getPassword());
        }
        try {
            if (Boolean.FALSE.equals(useXA)) {
                DataSource ds = (DataSource) dataSource(url, dbUser, dbPassword, false);
                Connection c = credential == null ? ds.getConnection() : ds.getConnection(dbUser, dbPassword);
                return new QueueManagedConnection(this, null, c, dbUser);
            }
            XADataSource ds = (XADataSource) dataSource(url, dbUser, dbPassword, true);
            XAConnection xa = credential == null ? ds.getXAConnection() : ds.getXAConnection(dbUser, dbPassword);
            return new QueueManagedConnection(this, xa, xa.getConnection(), dbUser);
        } catch (IllegalArgumentException e) {
            throw new InvalidPropertyException(e.getMessage(), e);
        } catch (SQLException e) {
            // The driver's message names the cause (unknown host, authentication failed, ...) and
            // no driver puts the password into it; the URL is printed without secrets.
            throw new ResourceAllocationException("cannot connect to the queue database "
                    + DriverDataSources.withoutSecrets(url) + " as user '" + dbUser + "': " + e.getMessage(), e);
        }
    }

    /** The subject's credential, if it names a user (servers pass empty ones for pools without sign-on). */
    private static PasswordCredential credential(Subject subject) {
        if (subject == null) {
            return null;
        }
        for (PasswordCredential c : subject.getPrivateCredentials(PasswordCredential.class)) {
            if (c.getUserName() != null && !c.getUserName().isEmpty()) {
                return c;
            }
        }
        return null;
    }

    /** The driver's data source for the configured URL and user, made once. */
    private Object dataSource(String url, String dbUser, String dbPassword, boolean xa) {
        Object ds = dataSource;
        if (ds == null) {
            ds = xa ? DriverDataSources.xa(url, dbUser, dbPassword) : DriverDataSources.plain(url, dbUser, dbPassword);
            dataSource = ds;
        }
        return ds;
    }

    /** The server JDBC resource named by dataSourceJndiName, looked up once. */
    DataSource serverDataSource() throws ResourceException {
        Object ds = dataSource;
        if (ds == null) {
            try {
                ds = JndiLookup.find("dataSourceJndiName", dataSourceJndiName, DataSource.class);
            } catch (NamingException e) {
                throw new ResourceException(e.getMessage(), e);
            }
            dataSource = ds;
        }
        return (DataSource) ds;
    }

    /**
     * Whether the database answers a connection of this factory's data source, opened outside the
     * server's pool for the readiness probe ({@link FactoryReadiness}) and closed at once; false
     * when the factory has made no data source yet (no connection was ever asked for).
     */
    boolean databaseAnswers() {
        try {
            if (usesServerDataSource()) {
                try (Connection c = serverDataSource().getConnection()) {
                    return ConnectionHealth.answers(c);
                }
            }
            Object ds = dataSource;
            if (ds instanceof XADataSource xa) {
                XAConnection x = xa.getXAConnection();
                try {
                    return ConnectionHealth.answers(x.getConnection());
                } finally {
                    x.close();
                }
            }
            if (ds instanceof DataSource plain) {
                try (Connection c = plain.getConnection()) {
                    return ConnectionHealth.answers(c);
                }
            }
            return false;
        } catch (SQLException | ResourceException | RuntimeException e) {
            log().log(Level.FINE, "the readiness probe found the database away", e);
            return false;
        }
    }

    boolean usesServerDataSource() {
        return dataSourceJndiName != null && !dataSourceJndiName.isBlank();
    }

    /** The engine's view of a queue, by name, in the database behind {@code c}. */
    QueueTable queue(Connection c, String name) throws SQLException {
        Dialect found = dialect(c);
        return queues.computeIfAbsent(name, n -> new QueueTable(found, n, null, RetryPolicy.DEFAULT));
    }

    /** The engine's view of a topic, by name, in the database behind {@code c}. */
    Topic topic(Connection c, String name) throws SQLException {
        Dialect found = dialect(c);
        return topics.computeIfAbsent(name, n -> new Topic(found, n));
    }

    private Dialect dialect(Connection c) throws SQLException {
        Dialect d = dialect;
        if (d == null) {
            d = Dialect.of(c);
            dialect = d;
        }
        return d;
    }

    /**
     * A physical connection broke (the database restarted, or killed our sessions): the pool's idle
     * connections may be broken too, so each is checked once before it is handed out again.
     */
    void connectionBroke() {
        breakages++;
    }

    long breakages() {
        return breakages;
    }

    /** Tells the resource adapter (and through it the queue's pollers) that an enqueue committed. */
    void enqueueCommitted(String queue) {
        QueueResourceAdapter ra = resourceAdapter;
        if (ra != null) {
            ra.enqueueCommitted(queue);
        }
    }

    QueueResourceAdapter resourceAdapterOrNull() {
        return resourceAdapter;
    }

    /** This factory's own jdbcUrl, user and password, else the resource adapter's. */
    private DatabaseLogin login() {
        return DatabaseLogin.of(jdbcUrl, user, password, resourceAdapter);
    }

    /** The level the server must use: the configured one, or the most the configuration allows. */
    @Override
    public TransactionSupport.TransactionSupportLevel getTransactionSupport() {
        if (!transactionSupportLevel.isEmpty()) {
            return TransactionSupportLevel.valueOf(transactionSupportLevel);
        }
        // Through a server JDBC resource the resource does the enlisting: the pool must not.
        if (usesServerDataSource()) {
            return TransactionSupportLevel.NoTransaction;
        }
        return Boolean.FALSE.equals(useXA) ? TransactionSupportLevel.LocalTransaction
                : TransactionSupportLevel.XATransaction;
    }

    @Override
    @SuppressWarnings("rawtypes")
    public ManagedConnection matchManagedConnections(Set connections, Subject subject, ConnectionRequestInfo info) {
        PasswordCredential credential = credential(subject);
        // A connection through a server resource has no user of its own and matches any subject.
        for (Object o : connections) {
            // By configuration, not identity: servers may match through another, equal instance.
            if (o instanceof QueueManagedConnection mc && equals(mc.factory()) && mc.isUsableAfterBreakages()
                    && (credential == null || mc.user() == null || credential.getUserName().equals(mc.user()))) {
                return mc;
            }
        }
        return null;
    }

    @Override
    public void setLogWriter(PrintWriter out) {
        this.logWriter = out;
    }

    @Override
    public PrintWriter getLogWriter() {
        return logWriter;
    }

    @Override
    public ResourceAdapter getResourceAdapter() {
        return resourceAdapter;
    }

    @Override
    public void setResourceAdapter(ResourceAdapter ra) {
        if (!(ra instanceof QueueResourceAdapter q)) {
            throw new IllegalArgumentException("expected the SQL queue resource adapter, got " + ra);
        }
        this.resourceAdapter = q;
    }

    private void readObject(java.io.ObjectInputStream in) throws java.io.IOException, ClassNotFoundException {
        in.defaultReadObject();
        queues = new ConcurrentHashMap<>();
        topics = new ConcurrentHashMap<>();
    }

    // ---- configuration properties (JavaBean accessors) ----------------------------------------

    public String getJdbcUrl() {
        return jdbcUrl;
    }

    public void setJdbcUrl(String jdbcUrl) {
        this.jdbcUrl = jdbcUrl == null ? "" : jdbcUrl.trim();
    }

    public String getUser() {
        return user;
    }

    public void setUser(String user) {
        this.user = user == null ? "" : user;
    }

    public String getPassword() {
        return password;
    }

    public void setPassword(String password) {
        this.password = password == null ? "" : password;
    }

    public String getDataSourceJndiName() {
        return dataSourceJndiName;
    }

    public void setDataSourceJndiName(String dataSourceJndiName) {
        this.dataSourceJndiName = dataSourceJndiName == null ? "" : dataSourceJndiName.trim();
    }

    public String getTransactionSupportLevel() {
        return transactionSupportLevel;
    }

    /** @throws IllegalArgumentException naming the allowed values */
    public void setTransactionSupportLevel(String level) {
        String value = level == null ? "" : level.trim();
        if (!value.isEmpty() && !value.equals("XATransaction") && !value.equals("LocalTransaction")
                && !value.equals("NoTransaction")) {
            throw new IllegalArgumentException("transactionSupportLevel must be XATransaction, LocalTransaction or"
                    + " NoTransaction, was '" + level + "'");
        }
        this.transactionSupportLevel = value;
    }

    public Boolean getUseXA() {
        return useXA;
    }

    public void setUseXA(Boolean useXA) {
        this.useXA = useXA == null ? Boolean.TRUE : useXA;
    }

    @Override
    public boolean equals(Object o) {
        // the class too: the JMS definition's factory is another resource, whatever a server compares
        return o instanceof QueueManagedConnectionFactory f && o.getClass() == getClass() && jdbcUrl.equals(f.jdbcUrl) && user.equals(f.user)
                && password.equals(f.password) && dataSourceJndiName.equals(f.dataSourceJndiName)
                && useXA.equals(f.useXA)
                && transactionSupportLevel.equals(f.transactionSupportLevel);
    }

    @Override
    public int hashCode() {
        return Objects.hash(getClass().getName(), jdbcUrl, user, password, dataSourceJndiName, useXA,
                transactionSupportLevel);
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + (usesServerDataSource() ? "dataSourceJndiName=" + dataSourceJndiName
                : "jdbcUrl=" + DriverDataSources.withoutSecrets(jdbcUrl) + ", user=" + user + ", useXA=" + useXA) + "]";
    }

    static Logger log() {
        return LOG;
    }
}
