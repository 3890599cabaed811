package io.sqlqueue.batch;

import io.sqlqueue.Tracing;
import io.sqlqueue.api.OutgoingMessage;
import io.sqlqueue.api.QueueConnection;
import io.sqlqueue.api.QueueConnectionFactory;
import io.sqlqueue.engine.QueueTable;
import jakarta.batch.api.BatchProperty;
import jakarta.batch.api.chunk.AbstractItemWriter;
import jakarta.inject.Inject;
import java.io.Serializable;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;

/**
 * A Jakarta Batch {@code ItemWriter} that enqueues each item of a chunk in the chunk's
 * transaction: the messages are in the queue when the chunk commits, and none of them when it
 * rolls back. Use it from job XML by class name, {@code <writer ref="io.sqlqueue.batch.QueueItemWriter">}.
 * An item is a {@code String} (a text message), a {@code byte[]} or an {@link OutgoingMessage}
 * (sent as it is: the properties below do not apply to it); anything else fails the chunk,
 * naming the item's class and position.
 *
 * <p>Batch properties: {@code queue} (required); exactly one of {@code dataSource} (the JNDI name
 * of the JDBC resource holding the queue: the chunk's statements and the enqueue share its
 * transaction) and {@code connectionFactory} (the JNDI name of a {@link QueueConnectionFactory},
 * enlisted as its pool's transaction support says); {@code priority} (default 0), {@code delay}
 * (ms, default 0), {@code headers} ({@code name=value} pairs separated by commas) for text and
 * bytes items; {@code createQueue} (default true, with {@code dataSource}: create the tables when
 * missing). A bad value fails the step when the writer opens, naming the property.
 */
public class QueueItemWriter extends AbstractItemWriter {

    @Inject
    @BatchProperty
    String queue;
    @Inject
    @BatchProperty
    String dataSource;
    @Inject
    @BatchProperty
    String connectionFactory;
    @Inject
    @BatchProperty
    String priority;
    @Inject
    @BatchProperty
    String delay;
    @Inject
    @BatchProperty
    String headers;
    @Inject
    @BatchProperty
    String createQueue;

    private String name;
    private DataSource resource;
    private QueueTable table;
    private QueueConnectionFactory factory;
    private int itemPriority;
    private Duration itemDelay;
    private final Map<String, String> itemHeaders = new LinkedHashMap<>();

    @Override
    public void open(Serializable checkpoint) throws Exception {
        BatchProperties p = new BatchProperties("QueueItemWriter");
        name = p.required("queue", queue);
        itemPriority = (int) p.number("priority", priority, 0, OutgoingMessage.MIN_PRIORITY, OutgoingMessage.MAX_PRIORITY);
        itemDelay = Duration.ofMillis(p.number("delay", delay, 0, 0, OutgoingMessage.MAX_DELAY.toMillis()));
        if (headers != null && !headers.isBlank()) {
            for (String pair : headers.split(",")) {
                int eq = pair.indexOf('=');
                if (eq < 1) {
                    throw p.invalid("headers", headers, "must be name=value pairs separated by commas");
                }
                itemHeaders.put(pair.substring(0, eq).trim(), pair.substring(eq + 1).trim());
            }
        }
        boolean viaDataSource = dataSource != null && !dataSource.isBlank();
        boolean viaFactory = connectionFactory != null && !connectionFactory.isBlank();
        if (viaDataSource == viaFactory) {
            throw p.invalid("dataSource", dataSource, "or connectionFactory" + (connectionFactory == null ? ""
                    : " ('" + connectionFactory + "')") + ": set exactly one of them");
        }
        if (viaFactory) {
            factory = p.lookup("connectionFactory", connectionFactory.trim(), QueueConnectionFactory.class);
            return;
        }
        boolean create = p.flag("createQueue", createQueue, true);
        resource = p.lookup("dataSource", dataSource.trim(), DataSource.class);
        try (Connection c = resource.getConnection()) {
            table = QueueTable.open(c, name);
        } catch (IllegalArgumentException e) {
            throw p.invalid("queue", name, e.getMessage());
        }
        if (create) {
            TableCreation.createIfMissing(resource, table);
        }
    }

    @Override
    public void writeItems(List<Object> items) throws Exception {
        List<OutgoingMessage> messages = new ArrayList<>(items.size());
        for (int i = 0; i < items.size(); i++) {
            messages.add(toMessage(items.get(i), i));
        }
        if (factory != null) {
            try (QueueConnection c = factory.getConnection()) {
                c.sendAll(name, messages);
            }
        } else {
            try (Connection c = resource.getConnection()) {
                table.sendAll(c, Tracing.withCurrentContext(messages)); // as the connection factory's send does
            }
        }
    }

    private OutgoingMessage toMessage(Object item, int index) {
        OutgoingMessage.Builder b;
        if (item instanceof OutgoingMessage m) {
            return m;
        } else if (item instanceof String text) {
            b = OutgoingMessage.text(text);
        } else if (item instanceof byte[] bytes) {
            b = OutgoingMessage.bytes(bytes);
        } else {
            throw new IllegalArgumentException("QueueItemWriter: item " + index + " of the chunk is a "
                    + (item == null ? "null" : item.getClass().getName()) + "; it writes String, byte[] or "
                    + OutgoingMessage.class.getName() + " items");
        }
        return b.priority(itemPriority).delay(itemDelay).headers(itemHeaders).build();
    }
}
