package io.sqlqueue.outbound;

import io.sqlqueue.api.OutgoingMessage;
import io.sqlqueue.api.QueueConnection;
import io.sqlqueue.api.QueueException;
import io.sqlqueue.api.QueueMessage;
import io.sqlqueue.engine.Browse;
import io.sqlqueue.engine.MessageSelector;
import io.sqlqueue.engine.TableName;
import java.util.List;
import java.util.Objects;

/** What an application holds: a handle on a pooled {@link QueueManagedConnection}. */
final class QueueConnectionHandle implements QueueConnection, QueueBrowsing {

    private volatile QueueManagedConnection managed;
    private volatile boolean closed;

    QueueConnectionHandle(QueueManagedConnection managed) {
        this.managed = managed;
    }

    @Override
    public long send(String queue, OutgoingMessage message) {
        Objects.requireNonNull(message, "message");
        return live().send(queue, List.of(message), false)[0];
    }

    @Override
    public long[] sendAll(String queue, List<OutgoingMessage> messages) {
        Objects.requireNonNull(messages, "messages");
        return live().send(queue, messages, true);
    }

    @Override
    public int publish(String topic, OutgoingMessage message) {
        Objects.requireNonNull(message, "message");
        return live().publish(topic, message);
    }

    @Override
    public boolean cancel(String queue, long messageId) {
        TableName.parse(queue); // a bad name fails before a connection is borrowed, as it does for a send
        return live().cancel(queue, messageId);
    }

    @Override
    public boolean cancelByDedupKey(String queue, String dedupKey) {
        TableName.parse(queue);
        return live().cancelByDedupKey(queue, dedupKey);
    }

    @Override
    public Browse browse(String queue, MessageSelector selector) {
        TableName.parse(queue);
        return live().browse(queue, selector);
    }

    @Override
    public List<QueueMessage> next(Browse browse) {
        Objects.requireNonNull(browse, "browse");
        return live().next(browse);
    }

    private QueueManagedConnection live() {
        QueueManagedConnection mc = managed;
        if (closed || mc == null) {
            throw new QueueException("this queue connection is closed");
        }
        return mc;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        QueueManagedConnection mc = managed;
        if (mc != null) {
            mc.closed(this);
        }
    }

    /** Moves the handle to another managed connection; returns the one it had. */
    QueueManagedConnection reassociate(QueueManagedConnection to) {
        QueueManagedConnection previous = managed;
        managed = to;
        return previous;
    }

    /** The server cleaned up the managed connection: this handle is dead. */
    void invalidate() {
        managed = null;
    }
}
