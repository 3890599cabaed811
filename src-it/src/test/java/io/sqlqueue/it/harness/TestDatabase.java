package io.sqlqueue.it.harness;

/**
 * The database of a test run, as the test archive's deployment descriptor declares it: the CI's
 * PostgreSQL (SQLQUEUE_PG_URL, _USER, _PASSWORD) in the executions that set
 * {@code it.db=postgresql}, its SQL Server (SQLQUEUE_MSSQL_*) where {@code it.db=sqlserver},
 * otherwise H2 in memory. Read on the client when the archive is built,
 * so the descriptors carry plain values that every server accepts (no server's own
 * {@code ${...}} syntax).
 */
public record TestDatabase(String url, String user, String password, String dataSourceClass) {

    /** This run's database; {@code h2Name} names the in-memory H2 database when it is H2. */
    public static TestDatabase forRun(String h2Name) {
        if (isPostgresql()) {
            return new TestDatabase(required("SQLQUEUE_PG_URL"), required("SQLQUEUE_PG_USER"),
                    required("SQLQUEUE_PG_PASSWORD"), "org.postgresql.ds.PGSimpleDataSource");
        }
        if ("sqlserver".equals(System.getProperty("it.db"))) {
            return new TestDatabase(required("SQLQUEUE_MSSQL_URL"), required("SQLQUEUE_MSSQL_USER"),
                    required("SQLQUEUE_MSSQL_PASSWORD"), "com.microsoft.sqlserver.jdbc.SQLServerDataSource");
        }
        return new TestDatabase("jdbc:h2:mem:" + h2Name + ";DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=10000", "sa", "sa",
                "org.h2.jdbcx.JdbcDataSource");
    }

    /**
     * True on the client of an execution on SQL Server when that is Babelfish (which ignores table
     * hints such as UPDLOCK and READPAST), asked through the driver of {@code it.mssql.jar}; false
     * elsewhere, and in the server, which has no {@code it.db}. For JUnit conditions, which the
     * client evaluates before it sends a test to the server.
     */
    public static boolean isBabelfishOnClient() {
        if (!"sqlserver".equals(System.getProperty("it.db"))) {
            return false;
        }
        TestDatabase db = forRun("unused");
        try (java.net.URLClassLoader loader = new java.net.URLClassLoader(
                new java.net.URL[] {new java.io.File(System.getProperty("it.mssql.jar")).toURI().toURL()})) {
            java.sql.Driver driver = (java.sql.Driver) loader.loadClass("com.microsoft.sqlserver.jdbc.SQLServerDriver")
                    .getConstructor().newInstance();
            java.util.Properties login = new java.util.Properties();
            login.setProperty("user", db.user);
            login.setProperty("password", db.password);
            try (java.sql.Connection c = driver.connect(db.url, login); java.sql.Statement s = c.createStatement();
                    java.sql.ResultSet rs = s.executeQuery("SELECT CAST(SERVERPROPERTY('Babelfish') AS int)")) {
                return rs.next() && rs.getInt(1) == 1;
            }
        } catch (Exception e) {
            throw new IllegalStateException("cannot ask the SQL Server of this run whether it is Babelfish", e);
        }
    }

    /** True in the executions on PostgreSQL. */
    public static boolean isPostgresql() {
        return "postgresql".equals(System.getProperty("it.db"));
    }

    private static String required(String variable) {
        String value = System.getenv(variable);
        if (value == null || value.isEmpty()) {
            throw new IllegalStateException(variable + " must be set when it.db=" + System.getProperty("it.db"));
        }
        return value;
    }

    /**
     * The same database through its driver's XA data source (H2's data source is one already), for
     * a test whose transactions hold a second resource of the server's: Payara's batch runtime
     * writes its checkpoints in the chunk's transaction through its own JDBC resource.
     */
    public TestDatabase withXaDataSource() {
        String xa = switch (dataSourceClass) {
            case "org.postgresql.ds.PGSimpleDataSource" -> "org.postgresql.xa.PGXADataSource";
            case "com.microsoft.sqlserver.jdbc.SQLServerDataSource" -> "com.microsoft.sqlserver.jdbc.SQLServerXADataSource";
            default -> dataSourceClass;
        };
        return new TestDatabase(url, user, password, xa);
    }

    /** A transactional {@code <data-source>} element for web.xml, bound at {@code jndiName}. */
    public String dataSourceXml(String jndiName, int maxPoolSize) {
        return "<data-source><name>" + jndiName + "</name><class-name>" + dataSourceClass + "</class-name>"
                + "<url>" + xml(url) + "</url><user>" + xml(user) + "</user><password>" + xml(password) + "</password>"
                + "<transactional>true</transactional><max-pool-size>" + maxPoolSize + "</max-pool-size>"
                // without it Payara Server warns at deployment ("steadyPoolSize Given, -1, was outside the bounds")
                + "<min-pool-size>0</min-pool-size></data-source>";
    }

    /** Escapes text for an XML element. */
    public static String xml(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
