package io.sqlqueue.it.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sqlqueue.api.OutgoingMessage;
import io.sqlqueue.engine.QueueTable;
import java.io.File;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.locks.LockSupport;
import javax.naming.InitialContext;
import javax.sql.DataSource;
import jakarta.ejb.EJB;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Batch, leased and ordered delivery to message-driven beans in Payara Micro, observed in the
 * table the beans write.
 */
@ExtendWith(ArquillianExtension.class)
class DeliveryIT {

    @Deployment
    static WebArchive deployment() {
        return ShrinkWrap.create(WebArchive.class, "delivery-it.war")
                .addClasses(DeliveryBeans.class, DeliveryBeans.Batches.class, DeliveryBeans.Leased.class,
                        DeliveryBeans.Ordered.class, DeliveryBeans.Woken.class, DeliveryBeans.WakeSender.class)
                .addAsLibraries(new File(System.getProperty("it.h2.jar")))
                .addAsWebInfResource("harness/glassfish-web.xml", "glassfish-web.xml");
    }

    private DataSource ds;

    @BeforeEach
    void tables() throws Exception {
        ds = InitialContext.doLookup(DeliveryBeans.DS);
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS deliveries (seq BIGINT AUTO_INCREMENT PRIMARY KEY,"
                    + " queue_name VARCHAR(50), message_id BIGINT, body VARCHAR(200), attempt INT, batch_size INT)");
            for (String q : new String[] {"batch_q", "leased_q", "ordered_q", "wake_q"}) {
                QueueTable.open(c, q).createIfMissing(c); // the activations create them too; make sure before sending
            }
        }
    }

    private long count(String sql) throws Exception {
        try (Connection c = ds.getConnection(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private void send(String queue, List<OutgoingMessage> messages) throws Exception {
        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(false);
            QueueTable.open(c, queue).sendAll(c, messages);
            c.commit(); // all visible at once
        }
    }

    private static void await(String what, Callable<Boolean> condition) throws Exception {
        long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
        while (!condition.call()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting until " + what);
            }
            LockSupport.parkNanos(Duration.ofMillis(50).toNanos());
        }
    }

    @Test
    void aBatchListenerGetsUpToBatchSizeMessagesPerTransaction() throws Exception {
        List<OutgoingMessage> messages = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            messages.add(OutgoingMessage.text("b" + i).build());
        }
        send("batch_q", messages);
        await("300 batched messages recorded", () -> count(
                "SELECT COUNT(DISTINCT message_id) FROM deliveries WHERE queue_name = 'batch_q'") == 300);
        assertEquals(300, count("SELECT COUNT(*) FROM deliveries WHERE queue_name = 'batch_q'"), "each once");
        long largest = count("SELECT MAX(batch_size) FROM deliveries WHERE queue_name = 'batch_q'");
        assertTrue(largest > 1 && largest <= 20, "batches of 2 to 20, largest " + largest);
    }

    @Test
    void aBeanWithoutATransactionGetsLeasedMessagesRetriedOnFailure() throws Exception {
        List<OutgoingMessage> messages = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            messages.add(OutgoingMessage.text((i % 5 == 0 ? "flaky" : "fine") + i).build());
        }
        send("leased_q", messages);
        await("30 leased messages recorded", () -> count(
                "SELECT COUNT(DISTINCT message_id) FROM deliveries WHERE queue_name = 'leased_q'") == 30);
        assertEquals(30, count("SELECT COUNT(*) FROM deliveries WHERE queue_name = 'leased_q'"), "each once");
        assertEquals(6, count("SELECT COUNT(*) FROM deliveries WHERE queue_name = 'leased_q' AND body LIKE 'flaky%'"
                + " AND attempt = 2"), "the flaky ones on their second delivery");
        assertEquals(0, count("SELECT COUNT(*) FROM \"leased_q\""), "all acknowledged");
    }

    @Test
    void higherPriorityFirstThenFifoAndDelayedMessagesLast() throws Exception {
        send("ordered_q", List.of(
                OutgoingMessage.text("later").delay(Duration.ofMillis(1500)).priority(9).build(),
                OutgoingMessage.text("first of 0").build(),
                OutgoingMessage.text("urgent").priority(5).build(),
                OutgoingMessage.text("second of 0").build()));
        await("4 ordered messages recorded",
                () -> count("SELECT COUNT(*) FROM deliveries WHERE queue_name = 'ordered_q'") == 4);
        List<String> order = new ArrayList<>();
        try (Connection c = ds.getConnection(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT body FROM deliveries WHERE queue_name = 'ordered_q' ORDER BY seq")) {
            while (rs.next()) {
                order.add(rs.getString(1));
            }
        }
        assertEquals(List.of("urgent", "first of 0", "second of 0", "later"), order);
    }

    @EJB
    private DeliveryBeans.WakeSender wakeSender;

    @Test
    void aCommittedEnqueueWakesAnIdlePollerLongBeforeItsPollInterval() throws Exception {
        LockSupport.parkNanos(Duration.ofMillis(500).toNanos()); // the poller has found the queue empty and sleeps 10 s+
        List<Long> latencies = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            String text = "wake " + i;
            long start = System.nanoTime();
            wakeSender.send(text);
            await(text + " delivered", () -> count("SELECT COUNT(*) FROM deliveries WHERE queue_name = 'wake_q'"
                    + " AND body = '" + text + "'") == 1);
            latencies.add((System.nanoTime() - start) / 1_000_000);
            LockSupport.parkNanos(Duration.ofMillis(200).toNanos()); // idle again between messages
        }
        latencies.sort(null);
        assertTrue(latencies.get(latencies.size() - 1) < 3000,
                "every message delivered within 3 s, long before the 10 s poll interval; ms: " + latencies);
        System.out.println("wake-up latency ms (send to recorded delivery, sorted): " + latencies);
    }
}
