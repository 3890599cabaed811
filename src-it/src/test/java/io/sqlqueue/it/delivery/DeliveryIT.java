package io.sqlqueue.it.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sqlqueue.api.OutgoingMessage;
import io.sqlqueue.engine.CompletionJournal;
import io.sqlqueue.engine.QueueTable;
import io.sqlqueue.engine.Topic;
import io.sqlqueue.it.harness.TargetServer;
import io.sqlqueue.it.harness.TestDatabase;
import io.sqlqueue.it.harness.WebXml;
import java.io.File;
import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.locks.LockSupport;
import javax.management.ObjectName;
import javax.naming.InitialContext;
import javax.sql.DataSource;
import jakarta.ejb.EJB;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.Archive;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Batch, failing, dead-lettered, leased, ordered and woken deliveries to message-driven beans,
 * observed in the table the beans write; the management beans and the journal. On each
 * {@link TargetServer}, on H2 and on PostgreSQL; its Jakarta Messaging cases (tagged {@code jms})
 * also on SQL Server in WildFly: the wildfly-sqlserver execution selects them by these tags.
 */
@ExtendWith(ArquillianExtension.class)
@Tag("delivery")
class DeliveryIT {

    @Deployment
    static Archive<?> deployment() {
        WebArchive war = ShrinkWrap.create(WebArchive.class, "delivery-it.war")
                .addClasses(DeliveryBeans.class, Batches.class, Flaky.class, Counted.class, Leased.class,
                        Ordered.class, Woken.class, WakeSender.class, JmsFlaky.class, JmsLooked.class,
                        JmsSelective.class, JmsSubscriber.class, JmsLookedTopic.class, JmsRecord.class,
                        JmsBrowsing.class)
                .addAsLibraries(new File(System.getProperty("it.h2.jar")), new File(System.getProperty("it.pg.jar")),
                        new File(System.getProperty("it.mssql.jar")))
                .addAsWebInfResource("harness/glassfish-web.xml", "glassfish-web.xml");
        new WebXml(war.getName())
                .dataSource(DeliveryBeans.DS, TestDatabase.forRun("delivery"), 32)
                .connectionFactory(WakeSender.FACTORY, "NoTransaction", 8,
                        Map.of("dataSourceJndiName", DeliveryBeans.DS))
                .connectionFactory(JmsBrowsing.FACTORY, "jakarta.jms.ConnectionFactory", "NoTransaction", 4,
                        Map.of("dataSourceJndiName", DeliveryBeans.DS))
                .administeredObject(DeliveryBeans.LOOKUP_QUEUE, jakarta.jms.Queue.class, "io.sqlqueue.jms.JmsQueue",
                        "lookup_q")
                .administeredObject(DeliveryBeans.LOOKUP_TOPIC, jakarta.jms.Topic.class, "io.sqlqueue.jms.JmsTopic",
                        JmsLookedTopic.TOPIC)
                .addTo(war);
        TargetServer server = TargetServer.current();
        if (server != TargetServer.WILDFLY) { // (WildFly: the archive's jboss-ejb3.xml binds every bean)
            // Payara binds a MessageListener bean to its own JMS adapter unless told; the adapter in an EAR
            // is <application>#<module> here (the "#<module>" of resource definitions is not found)
            String adapter = (server == TargetServer.PAYARA_SERVER ? "delivery-it" : "")
                    + server.resourceAdapter("delivery-it");
            StringBuilder beans = new StringBuilder();
            for (Class<?> bean : List.of(JmsFlaky.class, JmsLooked.class, JmsSelective.class, JmsSubscriber.class,
                    JmsLookedTopic.class)) {
                beans.append("<ejb><ejb-name>").append(bean.getSimpleName()).append("</ejb-name><mdb-resource-adapter>"
                        + "<resource-adapter-mid>").append(adapter).append("</resource-adapter-mid></mdb-resource-adapter></ejb>");
            }
            war.addAsWebInfResource(new StringAsset("<glassfish-ejb-jar><enterprise-beans>" + beans
                    + "</enterprise-beans></glassfish-ejb-jar>"), "glassfish-ejb-jar.xml");
        }
        return server.deployable(DeliveryIT.class, war);
    }

    private DataSource ds;

    @BeforeEach
    void tables() throws Exception {
        ds = InitialContext.doLookup(DeliveryBeans.DS);
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            DeliveryBeans.createTable(c);
            s.execute("DELETE FROM deliveries"); // a database kept from an earlier run (PostgreSQL)
            for (String q : new String[] {"batch_q", "counted_q", "flaky_q", "jms_q", "leased_q", "lookup_q", "ordered_q",
                    "wake_q", JmsSelective.QUEUE, JmsBrowsing.QUEUE}) {
                QueueTable.open(c, q).createIfMissing(c); // the activations create them too; make sure before sending
            }
            s.execute("DELETE FROM \"" + JmsSelective.QUEUE + "\""); // its unselected messages of an earlier run
            s.execute("DELETE FROM \"" + JmsBrowsing.QUEUE + "\""); // no bean consumes it
            CompletionJournal journal = new CompletionJournal(QueueTable.open(c, "counted_q"));
            journal.createIfMissing(c);
            s.execute("DELETE FROM \"counted_q_journal\"");
            s.execute("DELETE FROM \"counted_q_dlq\"");
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

    /**
     * Waits until a bean's activation has made its subscription: until then the subscriptions
     * table may not exist yet (the first subscriber's activation creates it).
     */
    private void awaitSubscription(String topic, String subscription) throws Exception {
        await("the subscription " + subscription + " of " + topic + " made by the bean's activation", () -> {
            try (Connection c = ds.getConnection()) {
                return Topic.open(c, topic).subscriptions(c).stream().anyMatch(s -> s.name().equals(subscription));
            } catch (java.sql.SQLException noSubscriptionsTableYet) {
                return false;
            }
        });
    }

    /**
     * A MessageListener bean with a message selector on a queue, in order per JMSXGroupID: it gets
     * each of its messages once, in each group's order, and the messages it does not select (of
     * other groups) stay queued.
     */
    @Test
    @Tag("jms")
    void aJmsBeanWithASelectorTakesItsMessagesOnceInGroupOrderAndLeavesTheOthers() throws Exception {
        List<OutgoingMessage> messages = new ArrayList<>();
        for (int i = 0; i < 60; i++) { // keys of their own: an unselected head would hold its key (semantics.md)
            String region = i % 2 == 0 ? "eu" : "us";
            messages.add(OutgoingMessage.text("m" + i).header("region", region).orderingKey(region + i % 3).build());
        }
        send(JmsSelective.QUEUE, messages);
        String mine = "FROM deliveries WHERE queue_name = '" + JmsSelective.QUEUE + "'";
        await("the 30 selected messages recorded", () -> count("SELECT COUNT(DISTINCT message_id) " + mine) == 30);
        assertEquals(30, count("SELECT COUNT(*) " + mine), "each once");
        assertEquals(0, count("SELECT COUNT(*) FROM deliveries a, deliveries b WHERE a.queue_name = '"
                + JmsSelective.QUEUE + "' AND b.queue_name = a.queue_name AND a.body = b.body"
                + " AND a.message_id < b.message_id AND a.seq > b.seq"), "in send order within each JMSXGroupID");
        assertEquals(3, count("SELECT COUNT(DISTINCT body) " + mine), "three groups");
        assertEquals(30, count("SELECT COUNT(*) FROM \"" + JmsSelective.QUEUE + "\" WHERE headers LIKE '%\"us\"%'"),
                "the unselected stay queued");
        assertEquals(30, count("SELECT COUNT(*) FROM \"" + JmsSelective.QUEUE + "\""), "and nothing else");
    }

    /** A MessageListener bean on a topic subscription whose filter is its message selector. */
    @Test
    @Tag("jms")
    void aJmsSubscriberGetsThePublishedMessagesItsSelectorSelects() throws Exception {
        awaitSubscription(JmsSubscriber.TOPIC, JmsSubscriber.SUBSCRIPTION);
        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(false);
            Topic topic = Topic.open(c, JmsSubscriber.TOPIC);
            for (int i = 0; i < 20; i++) {
                topic.publish(c, OutgoingMessage.text("p" + i).header("region", i % 2 == 0 ? "eu" : "us").build());
            }
            c.commit();
        }
        String mine = "FROM deliveries WHERE queue_name = '" + JmsSubscriber.TOPIC + "'";
        await("the 10 selected messages recorded", () -> count("SELECT COUNT(*) " + mine) >= 10);
        assertEquals(10, count("SELECT COUNT(DISTINCT message_id) " + mine), "each once");
        assertEquals(10, count("SELECT COUNT(*) " + mine + " AND body = 'eu'"), "only the selected ones");
        await("the subscription's queue drained", () -> count("SELECT COUNT(*) FROM \""
                + Topic.queueOf(JmsSubscriber.TOPIC, JmsSubscriber.SUBSCRIPTION).table() + "\"") == 0);
    }

    /**
     * A MessageListener bean whose destinationLookup names a Topic administered object of the
     * adapter, with subscriptionName: its activation makes the durable subscription, and it gets
     * each message published to the topic once.
     */
    @Test
    @Tag("jms")
    void aJmsBeanWhoseDestinationLookupNamesATopicGetsEachPublishedMessageOnce() throws Exception {
        awaitSubscription(JmsLookedTopic.TOPIC, JmsLookedTopic.SUBSCRIPTION);
        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(false);
            Topic topic = Topic.open(c, JmsLookedTopic.TOPIC);
            for (int i = 0; i < 20; i++) {
                assertEquals(List.of(Topic.queueOf(JmsLookedTopic.TOPIC, JmsLookedTopic.SUBSCRIPTION)),
                        topic.publish(c, OutgoingMessage.text("looked " + i).build()),
                        "the bean's subscription is the topic's only one");
            }
            c.commit();
        }
        String mine = "FROM deliveries WHERE queue_name = '" + JmsLookedTopic.TOPIC + "'";
        await("the 20 published messages recorded", () -> count("SELECT COUNT(*) " + mine) >= 20);
        await("the subscription's queue drained", () -> count("SELECT COUNT(*) FROM \""
                + Topic.queueOf(JmsLookedTopic.TOPIC, JmsLookedTopic.SUBSCRIPTION).table() + "\"") == 0);
        assertEquals(20, count("SELECT COUNT(*) " + mine), "each once");
        assertEquals(20, count("SELECT COUNT(DISTINCT body) " + mine + " AND body LIKE 'looked %'"),
                "every published message");
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
    void aBeanFailingEveryThirdMessageGetsThoseAgainAndEachCommitsOnce() throws Exception {
        List<OutgoingMessage> messages = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            messages.add(OutgoingMessage.text((i % 3 == 0 ? "flaky" : "fine") + i).build());
        }
        send("flaky_q", messages);
        await("300 messages recorded", () -> count(
                "SELECT COUNT(DISTINCT message_id) FROM deliveries WHERE queue_name = 'flaky_q'") == 300);
        assertEquals(300, count("SELECT COUNT(*) FROM deliveries WHERE queue_name = 'flaky_q'"),
                "each committed once: the failed deliveries' records rolled back with them");
        assertEquals(100, count("SELECT COUNT(*) FROM deliveries WHERE queue_name = 'flaky_q' AND body LIKE 'flaky%'"
                + " AND attempt = 2"), "every third on its second delivery");
        assertEquals(200, count("SELECT COUNT(*) FROM deliveries WHERE queue_name = 'flaky_q' AND body LIKE 'fine%'"
                + " AND attempt = 1"), "the others on their first");
        assertEquals(0, count("SELECT COUNT(*) FROM \"flaky_q\""), "none left");
        assertEquals(0, count("SELECT COUNT(*) FROM \"flaky_q_dlq\""), "none dead-lettered");
    }

    /**
     * A jakarta.jms.MessageListener bean on the queue table: each message arrives as a TextMessage and
     * commits once with the bean's row; a rollback brings it again with JMSRedelivered and a
     * JMSXDeliveryCount of 2. Counted in SQL.
     */
    @Test
    @Tag("jms")
    void aJmsMessageListenerBeanGetsEachMessageOnceWithItsWritesAndRedeliveryAfterARollback() throws Exception {
        jmsBeanGetsEachMessageOnceAndARolledBackOneAgain("jms_q");
    }

    /**
     * The same through destinationLookup, naming a Queue administered object of the adapter that the
     * application declares (and connectionFactoryLookup its connection factory): the bean consumes
     * the object's table.
     */
    @Test
    @Tag("jms")
    void aJmsBeanConsumesTheQueueItsDestinationLookupNames() throws Exception {
        jmsBeanGetsEachMessageOnceAndARolledBackOneAgain("lookup_q");
    }

    private void jmsBeanGetsEachMessageOnceAndARolledBackOneAgain(String queue) throws Exception {
        List<OutgoingMessage> messages = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            messages.add(OutgoingMessage.text((i % 3 == 0 ? "flaky" : "fine") + i).build());
        }
        send(queue, messages);
        String recorded = "SELECT COUNT(*) FROM deliveries WHERE queue_name = '" + queue + "'";
        await("30 messages recorded", () -> count(recorded.replace("COUNT(*)", "COUNT(DISTINCT message_id)")) == 30);
        await("the queue drained", () -> count("SELECT COUNT(*) FROM \"" + queue + "\"") == 0);
        assertEquals(30, count(recorded), "each committed once: the failed deliveries' records rolled back with them");
        assertEquals(10, count(recorded + " AND body LIKE 'flaky%/true' AND attempt = 2"),
                "every third redelivered: JMSRedelivered, JMSXDeliveryCount 2");
        assertEquals(20, count(recorded + " AND body LIKE 'fine%/false' AND attempt = 1"),
                "the others on their first delivery");
        assertEquals(0, count("SELECT COUNT(*) FROM \"" + queue + "_dlq\""), "none dead-lettered");
    }

    /** The one bean whose name matches {@code pattern}. */
    private static ObjectName the(String pattern) throws Exception {
        java.util.Set<ObjectName> names = ManagementFactory.getPlatformMBeanServer().queryNames(new ObjectName(pattern),
                null);
        assertEquals(1, names.size(), pattern + " matches " + names);
        return names.iterator().next();
    }

    private static Object bean(String pattern, String attribute) throws Exception {
        return ManagementFactory.getPlatformMBeanServer().getAttribute(the(pattern), attribute);
    }

    /** Whether a thread of this server runs one of the adapter's deliveries (of any bean). */
    private static boolean anyDeliveryRunning() {
        return Thread.getAllStackTraces().values().stream().flatMap(java.util.Arrays::stream)
                .anyMatch(f -> f.getClassName().equals("io.sqlqueue.inbound.Delivery") && f.getMethodName().equals("run"));
    }

    @Test
    void theManagementBeansCountWhatTheTablesShowAndPauseHoldsDeliveriesBack() throws Exception {
        String consumer = "io.sqlqueue:type=Consumer,queue=counted_q,name=Counted,*";
        String queue = "io.sqlqueue:type=Queue,name=counted_q,*";
        long committedBefore = (long) bean(consumer, "Committed");
        long rolledBackBefore = (long) bean(consumer, "RolledBack");
        List<OutgoingMessage> messages = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            messages.add(OutgoingMessage.text((i % 10 == 0 ? "poison" : "fine") + i).build());
        }
        send("counted_q", messages);
        await("90 recorded and 10 dead-lettered", () -> count("SELECT COUNT(*) FROM deliveries WHERE queue_name = 'counted_q'")
                == 90 && count("SELECT COUNT(*) FROM \"counted_q_dlq\"") == 10);
        // a delivery's row is visible when its transaction commits, the bean counts it just after
        await("the consumer bean counted them", () -> (long) bean(consumer, "DeadLettered") == 10
                && (long) bean(consumer, "Committed") - committedBefore >= 90
                && (long) bean(consumer, "RolledBack") - rolledBackBefore >= 20);
        assertEquals(90, (long) bean(consumer, "Committed") - committedBefore, "committed as the table shows");
        assertEquals(20, (long) bean(consumer, "RolledBack") - rolledBackBefore, "2 attempts of each poison message");
        assertTrue(((String) bean(consumer, "LastError")).startsWith("java.lang.IllegalArgumentException: not an order"));
        await("the queue bean shows the dead letters", () -> (long) bean(queue, "DeadLettered") == 10
                && (long) bean(queue, "Ready") == 0);

        // Paused: proven by the poller's chances, not by a guessed wait. Once it has seen the pause and no
        // delivery runs any more, it looks at nothing; with the 20 ready it must come round twice more
        // (PausedPolls, every maxPollInterval of 100 ms) without a look (Polls) or a delivery.
        long pausedPollsBefore = (long) bean(consumer, "PausedPolls");
        ManagementFactory.getPlatformMBeanServer().invoke(the(consumer), "pause", null, null);
        await("the poller has seen the pause", () -> (long) bean(consumer, "PausedPolls") > pausedPollsBefore);
        await("no delivery running in this server (a delivery in progress takes no further message once paused)",
                () -> (int) bean(consumer, "InFlight") == 0 && !anyDeliveryRunning());
        long polls = (long) bean(consumer, "Polls");
        List<OutgoingMessage> later = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            later.add(OutgoingMessage.text("later" + i).build());
        }
        send("counted_q", later);
        long pausedPolls = (long) bean(consumer, "PausedPolls");
        await("the paused poller came round twice with the 20 ready", () -> (long) bean(consumer, "PausedPolls")
                >= pausedPolls + 2);
        assertEquals(polls, (long) bean(consumer, "Polls"), "no look at the queue while paused");
        // the health verdicts as JMX attributes (what WildFly offers instead of the /health checks): a
        // paused consumer stays ready and alive, and says it is paused
        String readiness = (String) bean(consumer, "Readiness");
        assertTrue(readiness.startsWith("UP {queue=counted_q, ") && readiness.contains("lastLook=answered")
                && readiness.contains("paused=true"), readiness);
        String liveness = (String) bean(consumer, "Liveness");
        assertTrue(liveness.startsWith("UP {queue=counted_q, "), liveness);
        assertEquals(0, count("SELECT COUNT(*) FROM deliveries WHERE body LIKE 'later%'"), "nothing while paused");
        assertEquals(20, count("SELECT COUNT(*) FROM \"counted_q\""), "all waiting in the queue");
        ManagementFactory.getPlatformMBeanServer().invoke(the(consumer), "resume", null, null);
        await("the 20 delivered after resume", () -> count("SELECT COUNT(*) FROM deliveries WHERE body LIKE 'later%'") == 20);
        assertEquals(20, count("SELECT COUNT(DISTINCT message_id) FROM deliveries WHERE body LIKE 'later%'"), "each once");

        // the bug is fixed: the dead letters go back to the queue and are processed
        Counted.rejectPoison = false;
        try {
            assertEquals(10, ManagementFactory.getPlatformMBeanServer().invoke(the(queue),
                    "requeueDeadLetters", new Object[] {100}, new String[] {"int"}));
            await("the requeued ones processed", () -> count(
                    "SELECT COUNT(*) FROM deliveries WHERE queue_name = 'counted_q' AND body LIKE 'poison%'") == 10);
            assertEquals(0, count("SELECT COUNT(*) FROM \"counted_q_dlq\""));
        } finally {
            Counted.rejectPoison = true;
        }

        // the journal: one completed row per recorded delivery, one dead-lettered row per dead letter
        String journal = "\"counted_q_journal\"";
        await("the journal has every recorded delivery", () -> count("SELECT COUNT(*) FROM " + journal
                + " WHERE outcome = 'completed'") == count("SELECT COUNT(*) FROM deliveries WHERE queue_name = 'counted_q'"));
        assertEquals(0, count("SELECT COUNT(*) FROM deliveries d WHERE d.queue_name = 'counted_q' AND NOT EXISTS"
                + " (SELECT 1 FROM " + journal + " j WHERE j.message_id = d.message_id AND j.outcome = 'completed')"),
                "every recorded message has its completed journal row");
        assertEquals(10, count("SELECT COUNT(*) FROM " + journal + " WHERE outcome = 'dead_lettered'"));
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
        // the bean records a delivery before it returns, and the adapter acknowledges after that
        await("all 30 acknowledged", () -> count("SELECT COUNT(*) FROM \"leased_q\"") == 0);
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
    private JmsBrowsing browsing;

    /**
     * A QueueBrowser with a selector, in a bean, shows exactly the queued messages the selector
     * selects, in the order the queue delivers them (more than a page of rows), as the table
     * holds them; and takes none.
     */
    @Test
    @Tag("jms")
    void aQueueBrowserWithASelectorShowsExactlyTheQueuedMessagesItSelectsInDeliveryOrder() throws Exception {
        browsing.send(150);
        List<String> expected = new ArrayList<>();
        try (Connection c = ds.getConnection(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT id, body FROM \"" + JmsBrowsing.QUEUE + "\" ORDER BY priority DESC, id")) {
            while (rs.next()) {
                String[] body = new String(rs.getBytes(2), java.nio.charset.StandardCharsets.UTF_8).split(" ");
                if (body[0].equals("eu") && Integer.parseInt(body[1]) > 20) {
                    expected.add(rs.getLong(1) + " " + body[0] + " " + body[1]);
                }
            }
        }
        assertEquals(43, expected.size(), "every third of 21..149");
        assertEquals(expected, browsing.browse("region = 'eu' AND quantity > 20"));
        assertEquals(150, count("SELECT COUNT(*) FROM \"" + JmsBrowsing.QUEUE + "\""), "none taken");
    }

    @EJB
    private WakeSender wakeSender;

    @Test
    void aCommittedEnqueueWakesAnIdlePollerLongBeforeItsPollInterval() throws Exception {
        // Before each send the poller has found the queue empty (EmptyPolls) after the last delivery, and
        // waits its 10 s (or more) from then: each message is delivered by a wake-up, or after seconds.
        String woken = "io.sqlqueue:type=Consumer,queue=wake_q,name=Woken,*";
        await("the poller has found the queue empty and waits 10 s", () -> (long) bean(woken, "EmptyPolls") >= 1);
        List<Long> latencies = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            String text = "wake " + i;
            long emptyPolls = (long) bean(woken, "EmptyPolls");
            long start = System.nanoTime();
            wakeSender.send(text);
            await(text + " delivered", () -> count("SELECT COUNT(*) FROM deliveries WHERE queue_name = 'wake_q'"
                    + " AND body = '" + text + "'") == 1);
            latencies.add((System.nanoTime() - start) / 1_000_000);
            // a look after the send that found the queue empty came after this delivery
            await("idle again: the poller found the queue empty after " + text,
                    () -> (long) bean(woken, "EmptyPolls") > emptyPolls);
        }
        latencies.sort(null);
        assertTrue(latencies.get(latencies.size() - 1) < 3000,
                "every message delivered within 3 s, long before the 10 s poll interval; ms: " + latencies);
        System.out.println("wake-up latency ms (send to recorded delivery, sorted): " + latencies);
    }
}
