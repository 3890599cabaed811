package io.sqlqueue.outbound;

import jakarta.resource.ResourceException;
import jakarta.resource.spi.ConnectionEvent;
import jakarta.resource.spi.ConnectionEventListener;
import jakarta.resource.spi.ConnectionManager;
import jakarta.resource.spi.ConnectionRequestInfo;
import jakarta.resource.spi.ManagedConnection;
import jakarta.resource.spi.ManagedConnectionFactory;
import java.util.logging.Level;

/**
 * Outside an application server (tests, tools): one new physical connection per
 * {@code getConnection()}, closed with the handle; sends commit at once.
 */
final class UnmanagedConnectionManager implements ConnectionManager {

    private static final long serialVersionUID = 1L;

    @Override
    public Object allocateConnection(ManagedConnectionFactory factory, ConnectionRequestInfo info)
            throws ResourceException {
        ManagedConnection mc = factory.createManagedConnection(null, info);
        mc.addConnectionEventListener(new ConnectionEventListener() {
            @Override
            public void connectionClosed(ConnectionEvent event) {
                destroy(mc);
            }

            @Override
            public void connectionErrorOccurred(ConnectionEvent event) {
                destroy(mc);
            }

            @Override
            public void localTransactionStarted(ConnectionEvent event) {
            }

            @Override
            public void localTransactionCommitted(ConnectionEvent event) {
            }

            @Override
            public void localTransactionRolledback(ConnectionEvent event) {
            }
        });
        return mc.getConnection(null, info);
    }

    private static void destroy(ManagedConnection mc) {
        try {
            mc.destroy();
        } catch (ResourceException e) {
            QueueManagedConnectionFactory.log().log(Level.FINE, "closing an unmanaged queue connection failed", e);
        }
    }
}
