package io.sqlqueue.sample;

import io.sqlqueue.api.OutgoingMessage;
import io.sqlqueue.api.QueueConnection;
import io.sqlqueue.api.QueueConnectionFactory;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.ejb.Stateless;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.sql.DataSource;

/**
 * Stores an order, queues it for processing and publishes its "order placed" event to the topic
 * {@link SampleDatabase#EVENTS_TOPIC}, in one transaction. The event's ordering key is the
 * customer: the ledger ({@link CustomerLedger}) takes each customer's orders in the order they were
 * placed.
 */
@Stateless
public class OrderService {

    /** Orders of this amount and more are "large": {@link LargeOrderDesk} sees those. */
    static final BigDecimal LARGE = BigDecimal.valueOf(90);
    private static final AtomicLong NEXT_ID = new AtomicLong(System.currentTimeMillis() * 1000);

    @Resource(lookup = SampleDatabase.JNDI_NAME)
    private DataSource dataSource;

    // Looked up, not injected: Payara Server refuses to deploy an EAR whose bean injects a factory
    // of an adapter embedded in the same EAR ("Naming binding already exists").
    private QueueConnectionFactory queues;

    @PostConstruct
    void lookUpQueues() {
        try {
            queues = InitialContext.doLookup(SampleDatabase.QUEUE_FACTORY);
        } catch (NamingException e) {
            throw new IllegalStateException("the queue connection factory " + SampleDatabase.QUEUE_FACTORY
                    + " is not declared: " + e.getMessage(), e);
        }
    }

    /**
     * Stores, queues and publishes {@code count} orders in one transaction; {@code invalid} of
     * them have a broken payload in the orders queue (their events are whole).
     */
    public void placeOrders(int count, int invalid, String customer) {
        try (Connection c = dataSource.getConnection();
                PreparedStatement insert = c.prepareStatement(
                        "INSERT INTO orders (id, customer, amount, created_at) VALUES (?, ?, ?, ?)");
                QueueConnection queue = queues.getConnection()) {
            for (int i = 0; i < count; i++) {
                long id = NEXT_ID.incrementAndGet();
                BigDecimal amount = BigDecimal.valueOf(10 + i % 90);
                insert.setLong(1, id);
                insert.setString(2, customer);
                insert.setBigDecimal(3, amount);
                insert.setTimestamp(4, Timestamp.from(Instant.now()));
                insert.executeUpdate();
                String payload = i < invalid ? "not an order" : OrderPayload.of(id);
                queue.send(SampleDatabase.QUEUE, OutgoingMessage.text(payload).header("type", "order-placed").build());
                queue.publish(SampleDatabase.EVENTS_TOPIC, OutgoingMessage.text(OrderPayload.of(id))
                        .header("type", "order-placed")
                        .header("size", amount.compareTo(LARGE) >= 0 ? "large" : "regular")
                        .orderingKey(customer)
                        .build());
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot store orders: " + e.getMessage(), e);
        }
    }
}
