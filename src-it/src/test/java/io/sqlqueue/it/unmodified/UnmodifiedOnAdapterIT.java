package io.sqlqueue.it.unmodified;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sqlqueue.engine.QueueTable;
import io.sqlqueue.it.harness.TargetServer;
import java.sql.Connection;
import javax.sql.DataSource;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.Archive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The JMS application of {@link UnmodifiedApp}, unchanged, on this adapter: only its descriptors
 * differ from {@link UnmodifiedOnBrokerIT}'s, and it passes the same check; the queue table is
 * left empty, nothing dead-lettered. On Payara Micro, Payara Server and WildFly.
 */
@ExtendWith(ArquillianExtension.class)
class UnmodifiedOnAdapterIT {

    @Deployment
    static Archive<?> deployment() {
        return TargetServer.current().deployable(UnmodifiedOnAdapterIT.class,
                UnmodifiedApp.onAdapter(UnmodifiedApp.classes("unmodified-adapter.war", UnmodifiedOnAdapterIT.class)));
    }

    @Test
    void theJmsApplicationRunsOnTheQueueTableByConfigurationAlone() throws Exception {
        DataSource ds = UnmodifiedApp.freshTable();
        try (Connection c = ds.getConnection()) {
            // the activation creates it too, but its first query waits 5 s for an application's own data source
            QueueTable.open(c, UnmodifiedApp.QUEUE_NAME).createIfMissing(c);
        }
        UnmodifiedApp.sendAndCheck(ds);
        assertEquals(0, UnmodifiedApp.count(ds, "SELECT COUNT(*) FROM \"" + UnmodifiedApp.QUEUE_NAME + "\""),
                "the queue table drained");
        assertEquals(0, UnmodifiedApp.count(ds, "SELECT COUNT(*) FROM \"" + UnmodifiedApp.QUEUE_NAME + "_dlq\""),
                "none dead-lettered");
    }
}
