package io.sqlqueue.outbound;

import io.sqlqueue.api.QueueConnection;
import io.sqlqueue.api.QueueConnectionFactory;
import io.sqlqueue.api.QueueException;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.ConnectionManager;
import javax.naming.Reference;

/** The {@link QueueConnectionFactory} the server binds in JNDI. Serializable and Referenceable. */
public class QueueConnectionFactoryImpl implements QueueConnectionFactory, jakarta.resource.Referenceable {

    private static final long serialVersionUID = 1L;

    private final QueueManagedConnectionFactory factory;
    private final ConnectionManager connectionManager;
    private Reference reference;

    QueueConnectionFactoryImpl(QueueManagedConnectionFactory factory, ConnectionManager connectionManager) {
        this.factory = factory;
        this.connectionManager = connectionManager;
    }

    @Override
    public QueueConnection getConnection() {
        try {
            return (QueueConnection) connectionManager.allocateConnection(factory, null);
        } catch (ResourceException e) {
            throw new QueueException("cannot get a queue connection: " + innermostMessage(e), e);
        }
    }

    /**
     * The message of the innermost ResourceException: the adapter's own reason (a bad jdbcUrl, a
     * refused login), which WildFly wraps in its generic "IJ000453: Unable to get managed connection".
     */
    private static String innermostMessage(ResourceException e) {
        ResourceException innermost = e;
        for (Throwable c = e.getCause(); c != null && c != c.getCause(); c = c.getCause()) {
            if (c instanceof ResourceException r) {
                innermost = r;
            }
        }
        return innermost.getMessage();
    }

    @Override
    public void setReference(Reference reference) {
        this.reference = reference;
    }

    @Override
    public Reference getReference() {
        return reference;
    }
}
