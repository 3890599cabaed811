package io.sqlqueue.it.unmodified;

import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.Archive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The JMS application of {@link UnmodifiedApp} on the server's own broker, a plain WAR without the
 * adapter: WildFly's Artemis in standalone-full (the wildfly execution), Payara Server's OpenMQ
 * embedded in the domain, bound to 127.0.0.1 (the payara-server execution). Payara Micro has no
 * broker.
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
