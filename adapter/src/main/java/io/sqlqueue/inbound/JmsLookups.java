package io.sqlqueue.inbound;

import io.sqlqueue.JndiLookup;
import io.sqlqueue.jms.JmsQueue;
import io.sqlqueue.jms.JmsTopic;
import io.sqlqueue.outbound.jms.JmsConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.resource.spi.InvalidPropertyException;
import javax.naming.NamingException;

/**
 * What the JMS activation properties {@code destinationLookup} and {@code connectionFactoryLookup}
 * name in JNDI. Looked up when the activation is validated: the deploying thread on every server
 * tried, but a server may validate again where the application's own names ({@code java:app/},
 * {@code java:module/}, {@code java:comp/}) are not visible, so the spec keeps what it found.
 * Objects are recognised by class name, not {@code instanceof}: an administered object made by
 * another deployment of this adapter (another class loader) names a table just as well.
 */
final class JmsLookups {

    /** What {@code destinationLookup} resolved to: a queue table, or a topic. */
    record Destination(String queue, String topic) {
    }

    private static final String NOT_VISIBLE = " (the adapter looks it up at activation: name the object by a"
            + " java:global/ or server-wide JNDI name where the application's java:app/ names are not visible)";

    private JmsLookups() {
    }

    /**
     * The queue or topic of the {@code Queue} or {@code Topic} administered object of this adapter
     * bound at {@code name}.
     *
     * @throws InvalidPropertyException naming the property and {@code name}: nothing bound there, an
     *         object of another JMS provider, or one without a name
     */
    static Destination destination(String name) throws InvalidPropertyException {
        Object found = lookup("destinationLookup", name);
        try {
            if (found.getClass().getName().equals(JmsQueue.class.getName())) {
                return new Destination(((jakarta.jms.Queue) found).getQueueName(), "");
            }
            if (found.getClass().getName().equals(JmsTopic.class.getName())) {
                return new Destination("", ((jakarta.jms.Topic) found).getTopicName());
            }
        } catch (JMSException e) {
            throw new InvalidPropertyException("activation property destinationLookup '" + name + "': "
                    + e.getMessage(), e);
        }
        throw new InvalidPropertyException("activation property destinationLookup '" + name + "' names a "
                + found.getClass().getName() + ", not a Queue or Topic of this adapter (" + JmsQueue.class.getName()
                + " or " + JmsTopic.class.getName() + "): define the administered object with this adapter's class,"
                + " or name the table with queue (or topic and subscriptionName)");
    }

    /**
     * Checks that {@code name} is bound to a connection factory of this adapter, the JMS one or the
     * {@code QueueConnectionFactory}. It only checks: the bean's messages come from the database
     * its own activation properties name, as a JMS bean's come from its destination.
     *
     * @throws InvalidPropertyException naming the property and {@code name}: nothing bound there, or
     *         another provider's factory
     */
    static void connectionFactory(String name) throws InvalidPropertyException {
        Object found = lookup("connectionFactoryLookup", name);
        String type = found.getClass().getName();
        if (!type.equals(JmsConnectionFactory.class.getName())
                && !type.equals(io.sqlqueue.outbound.QueueConnectionFactoryImpl.class.getName())) {
            throw new InvalidPropertyException("activation property connectionFactoryLookup '" + name + "' names a "
                    + type + ", not a connection factory of this adapter: leave it empty (the bean's database is"
                    + " dataSourceJndiName or jdbcUrl) or name this adapter's connection factory");
        }
    }

    private static Object lookup(String property, String name) throws InvalidPropertyException {
        try {
            return JndiLookup.find("activation property " + property, name, Object.class);
        } catch (NamingException e) {
            throw new InvalidPropertyException(e.getMessage() + NOT_VISIBLE, e);
        }
    }
}
