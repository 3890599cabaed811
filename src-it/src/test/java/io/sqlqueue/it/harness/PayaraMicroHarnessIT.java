package io.sqlqueue.it.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.UUID;

import javax.naming.InitialContext;
import javax.sql.DataSource;

import jakarta.ejb.EJB;
import jakarta.ejb.EJBException;

import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Proves the harness runs real transactional code inside Payara Micro: the test runs in the
 * container (Arquillian servlet protocol), calls a stateless EJB and reads the H2 table back.
 */
@ExtendWith(ArquillianExtension.class)
class PayaraMicroHarnessIT {

    /** Class path resource in the WAR holding the H2 version the pom manages. */
    private static final String EXPECTED_H2_VERSION = "io/sqlqueue/it/harness/expected-h2-version";

    @Deployment
    static WebArchive deployment() {
        // Runs on the client side: the pom copies the H2 driver to target/ and names it here.
        String h2 = System.getProperty("it.h2.jar");
        assertNotNull(h2, "system property it.h2.jar (set by failsafe in src-it/pom.xml)");
        File h2Jar = new File(h2);
        assertTrue(h2Jar.isFile(), "H2 driver not found at " + h2Jar);
        String h2Version = System.getProperty("it.h2.version");
        assertNotNull(h2Version, "system property it.h2.version (set by failsafe in src-it/pom.xml)");
        return ShrinkWrap.create(WebArchive.class, "harness.war")
                .addClass(HarnessBean.class)
                .addAsLibraries(h2Jar)
                // child-first class loading, so the pool uses this H2 and not Micro's own
                .addAsWebInfResource("harness/glassfish-web.xml", "glassfish-web.xml")
                .addAsResource(new StringAsset(h2Version), EXPECTED_H2_VERSION);
    }

    @EJB
    private HarnessBean bean;

    @Test
    void committedRowStaysAndRolledBackRowIsGone() throws Exception {
        assertNotNull(bean, "EJB not injected into the in-container test");
        bean.createTable();

        String committed = "commit-" + UUID.randomUUID();
        String rolledBack = "rollback-" + UUID.randomUUID();

        bean.insert(committed);

        EJBException thrown = assertThrows(EJBException.class, () -> bean.insertThenFail(rolledBack));
        Throwable cause = rootCause(thrown);
        assertEquals("rollback on purpose; rows inside the transaction: 1", cause.getMessage(),
                "the insert must have been visible inside the transaction before it failed");

        // Read back through the bean (no transaction) and, independently, through a JNDI lookup.
        assertEquals(1, bean.countCommitted(committed), "committed row (via bean)");
        assertEquals(0, bean.countCommitted(rolledBack), "rolled-back row (via bean)");
        DataSource ds = InitialContext.doLookup(HarnessBean.DATA_SOURCE);
        assertEquals(1, count(ds, committed), "committed row (via JNDI)");
        assertEquals(0, count(ds, rolledBack), "rolled-back row (via JNDI)");
    }

    /** The pool must run the H2 the project manages (WEB-INF/lib), not the one inside Micro. */
    @Test
    void poolRunsTheProjectsH2() throws Exception {
        String expected;
        try (InputStream in = getClass().getClassLoader().getResourceAsStream(EXPECTED_H2_VERSION)) {
            assertNotNull(in, EXPECTED_H2_VERSION + " missing from the test WAR");
            expected = new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
        }
        DataSource ds = InitialContext.doLookup(HarnessBean.DATA_SOURCE);
        try (Connection c = ds.getConnection()) {
            String actual = c.getMetaData().getDatabaseProductVersion();
            System.out.println("HARNESS: database " + c.getMetaData().getDatabaseProductName() + " " + actual);
            assertTrue(actual.startsWith(expected + " "),
                    "H2 engine behind the pool is " + actual + ", expected " + expected);
        }
    }

    private static int count(DataSource ds, String value) throws Exception {
        try (Connection c = ds.getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM harness_row WHERE v = ?")) {
            ps.setString(1, value);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }

    private static Throwable rootCause(Throwable t) {
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t;
    }
}
