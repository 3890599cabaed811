package io.sqlqueue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import javax.naming.NamingException;
import org.junit.jupiter.api.Test;

/** One rule for every component's login: its own value where set, else the resource adapter's. */
class DatabaseLoginTest {

    private static QueueResourceAdapter adapter() {
        QueueResourceAdapter ra = new QueueResourceAdapter();
        ra.setJdbcUrl("jdbc:postgresql://db/queues");
        ra.setUser("adapter_user");
        ra.setPassword("adapter-secret");
        return ra;
    }

    @Test
    void eachValueLeftEmptyOrBlankIsTheAdapters() {
        assertEquals(new DatabaseLogin("jdbc:postgresql://db/queues", "adapter_user", "adapter-secret"),
                DatabaseLogin.of(null, "", "  ", adapter()));
        assertEquals(new DatabaseLogin("jdbc:h2:mem:own", "own_user", "adapter-secret"),
                DatabaseLogin.of(" jdbc:h2:mem:own ", "own_user", null, adapter()));
    }

    @Test
    void withoutAnAdapterUnsetValuesAreEmpty() {
        DatabaseLogin login = DatabaseLogin.of(null, null, null, null);
        assertEquals(new DatabaseLogin("", "", ""), login);
        assertFalse(login.hasUrl());
        assertTrue(DatabaseLogin.of("jdbc:h2:mem:x", null, null, null).hasUrl());
    }

    @Test
    void itsTextNeverShowsThePassword() {
        DatabaseLogin login = DatabaseLogin.of("jdbc:postgresql://db/queues?password=in-url", "u", "secret", null);
        assertFalse(login.toString().contains("secret"), login.toString());
        assertFalse(login.toString().contains("in-url"), login.toString());
        assertTrue(login.toString().contains("as user 'u'"), login.toString());
    }

    @Test
    void aLookupThatFindsNothingNamesThePropertyAndTheName() {
        NamingException e = assertThrows(NamingException.class,
                () -> JndiLookup.find("dataSourceJndiName", "jdbc/missing", javax.sql.DataSource.class));
        assertTrue(e.getMessage().startsWith("dataSourceJndiName 'jdbc/missing' names nothing in JNDI"), e.getMessage());
    }
}
