package io.sqlqueue.it.unmodified;

import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.Archive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The JMS application of {@link UnmodifiedApp} on the server's own broker: WildFly's Artemis in
 * standalone-full, a plain WAR without the adapter. Run only by the wildfly execution (Payara
 * Micro has no broker; the payara-server execution's domain runs with its jms-service disabled).
 */
@ExtendWith(ArquillianExtension.class)
class UnmodifiedOnBrokerIT {

    @Deployment
    static Archive<?> deployment() {
        return UnmodifiedApp.onBroker(UnmodifiedApp.classes("unmodified-broker.war", UnmodifiedOnBrokerIT.class));
    }

    @Test
    void theJmsApplicationPassesTheCheckOnTheServersBroker() throws Exception {
        UnmodifiedApp.sendAndCheck(UnmodifiedApp.freshTable());
    }
}
