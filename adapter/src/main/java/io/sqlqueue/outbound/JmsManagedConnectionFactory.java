package io.sqlqueue.outbound;

import io.sqlqueue.QueueResourceAdapter;
import io.sqlqueue.api.QueueConnection;
import io.sqlqueue.api.QueueConnectionFactory;
import io.sqlqueue.outbound.jms.JmsConnectionFactory;
import io.sqlqueue.outbound.jms.TransactionProbe;
import jakarta.resource.spi.ConnectionDefinition;
import jakarta.resource.spi.ConnectionManager;
import jakarta.transaction.TransactionSynchronizationRegistry;

/**
 * The managed connection factory behind a Jakarta Messaging {@link jakarta.jms.ConnectionFactory}
 * of this adapter ({@link JmsConnectionFactory}): the same physical connections, properties, pool,
 * enlistment and transaction support as {@link QueueManagedConnectionFactory}, whose every
 * property it has, so that a JMS sender's messages are enqueued exactly as a
 * {@code QueueConnection}'s are; a JMS session holds a {@code QueueConnection} handle.
 *
 * <p>A subclass, not a property, chooses the interface: a server creates a pool from one
 * connection definition, by its connection factory interface, and instantiates that definition's
 * managed connection factory class, but never tells the instance which interface its pool was
 * made for. With both definitions on one class, {@code createConnectionFactory} would have to be
 * told by a second property, which an admin could set against the interface already chosen.
 * (The Artemis adapter has one definition whose factory implements every JMS interface; ours must
 * keep the {@code QueueConnectionFactory} definition as it is.)
 */
@ConnectionDefinition(
        connectionFactory = jakarta.jms.ConnectionFactory.class,
        connectionFactoryImpl = JmsConnectionFactory.class,
        connection = QueueConnection.class,
        connectionImpl = QueueConnectionHandle.class)
public class JmsManagedConnectionFactory extends QueueManagedConnectionFactory {

    private static final long serialVersionUID = 1L;

    @Override
    public Object createConnectionFactory(ConnectionManager cm) {
        return new JmsConnectionFactory((QueueConnectionFactory) super.createConnectionFactory(cm),
                new RegistryProbe(this));
    }

    @Override
    public Object createConnectionFactory() {
        return new JmsConnectionFactory((QueueConnectionFactory) super.createConnectionFactory(),
                new RegistryProbe(this));
    }

    /** Asks the server's transaction registry, through the resource adapter; none (outside a server): no transaction. */
    private record RegistryProbe(QueueManagedConnectionFactory factory) implements TransactionProbe {

        private static final long serialVersionUID = 1L;

        @Override
        public boolean inTransaction() {
            QueueResourceAdapter ra = factory.resourceAdapterOrNull();
            TransactionSynchronizationRegistry registry = ra == null ? null : ra.transactionSynchronizationRegistry();
            return registry != null && registry.getTransactionKey() != null;
        }
    }
}
