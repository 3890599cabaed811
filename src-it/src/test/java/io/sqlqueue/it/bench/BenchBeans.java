package io.sqlqueue.it.bench;

import io.sqlqueue.api.BatchQueueListener;
import io.sqlqueue.api.QueueConnection;
import io.sqlqueue.api.QueueConnectionFactory;
import io.sqlqueue.api.QueueListener;
import io.sqlqueue.api.QueueMessage;
import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.Stateless;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import jakarta.resource.ConnectionFactoryDefinition;
import jakarta.resource.spi.TransactionSupport.TransactionSupportLevel;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import javax.sql.DataSource;

/**
 * The benchmark's message-driven beans and sender. Each bean does what the raw loop does per
 * message: one row into {@code bench_done}, in the delivery transaction, on the JDBC resource the
 * adapter claims through ({@code dataSourceJndiName}), so claim, work and commit are one local
 * transaction as in the sample.
 */
final class BenchBeans {

    static final String DS = "java:global/jdbc/bench";
    static final String FACTORY = "java:app/queue/bench";
    static final int CONCURRENCY = 8;
    static final int BATCH_SIZE = 50;

    static final Tally PER_MESSAGE = new Tally();
    static final Tally PER_MESSAGE_AFTER_ROLLBACK = new Tally();
    static final Tally PER_MESSAGE_ONE_LEASE_EACH = new Tally();
    static final Tally PER_MESSAGE_JMS = new Tally();
    static final Tally PER_MESSAGE_OWN_CONNECTIONS = new Tally();
    static final Tally BATCHES = new Tally();
    static final Arrivals ARRIVALS = new Arrivals();

    private BenchBeans() {
    }

    /** The bean's work, also the raw loop's: one row per message, in the caller's transaction. */
    static void recordDone(Connection c, long... messageIds) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO bench_done (message_id) VALUES (?)")) {
            for (long id : messageIds) {
                ps.setLong(1, id);
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    static void recordDone(DataSource ds, List<QueueMessage> messages) {
        try (Connection c = ds.getConnection()) {
            recordDone(c, messages.stream().mapToLong(QueueMessage::id).toArray());
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Counts {@code n} messages into {@code tally} when the current transaction commits. */
    static void countOnCommit(TransactionSynchronizationRegistry tsr, Tally tally, int n) {
        tsr.registerInterposedSynchronization(new Synchronization() {
            @Override
            public void beforeCompletion() {
            }

            @Override
            public void afterCompletion(int status) {
                if (status == Status.STATUS_COMMITTED) {
                    tally.committed(n);
                }
            }
        });
    }

    @MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "queue", propertyValue = "bench_single"),
        @ActivationConfigProperty(propertyName = "dataSourceJndiName", propertyValue = DS),
        @ActivationConfigProperty(propertyName = "maxConcurrency", propertyValue = "" + CONCURRENCY),
        // idle pollers look every 20 ms, so a run starts within 20 ms of the filling commit
        @ActivationConfigProperty(propertyName = "pollInterval", propertyValue = "20"),
        @ActivationConfigProperty(propertyName = "maxPollInterval", propertyValue = "20")})
    public static class PerMessage implements QueueListener {
        @Resource(lookup = DS)
        DataSource ds;
        @Resource
        TransactionSynchronizationRegistry tsr;

        /** Where committed deliveries are counted. */
        Tally tally() {
            return PER_MESSAGE;
        }

        @Override
        public void onMessage(QueueMessage message) {
            recordDone(ds, List.of(message));
            countOnCommit(tsr, tally(), 1);
        }
    }

    /** As {@link PerMessage}, with attempts counted after a rollback instead of before each delivery. */
    @MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "queue", propertyValue = "bench_single_ar"),
        @ActivationConfigProperty(propertyName = "dataSourceJndiName", propertyValue = DS),
        @ActivationConfigProperty(propertyName = "attemptCounting", propertyValue = "afterRollback"),
        @ActivationConfigProperty(propertyName = "maxConcurrency", propertyValue = "" + CONCURRENCY),
        @ActivationConfigProperty(propertyName = "pollInterval", propertyValue = "20"),
        @ActivationConfigProperty(propertyName = "maxPollInterval", propertyValue = "20")})
    // QueueListener named again: Payara reads an MDB's listener from its own class's interfaces,
    // and took one that only inherited it for a JMS bean ("Resource adapter jmsra is not deployed").
    public static class PerMessageAfterRollback extends PerMessage implements QueueListener {
        @Override
        Tally tally() {
            return PER_MESSAGE_AFTER_ROLLBACK;
        }
    }

    /** As {@link PerMessage}, leasing one message at a time (leaseAhead=1): the default before leases ahead. */
    @MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "queue", propertyValue = "bench_single_l1"),
        @ActivationConfigProperty(propertyName = "dataSourceJndiName", propertyValue = DS),
        @ActivationConfigProperty(propertyName = "leaseAhead", propertyValue = "1"),
        @ActivationConfigProperty(propertyName = "maxConcurrency", propertyValue = "" + CONCURRENCY),
        @ActivationConfigProperty(propertyName = "pollInterval", propertyValue = "20"),
        @ActivationConfigProperty(propertyName = "maxPollInterval", propertyValue = "20")})
    public static class PerMessageOneLeaseEach extends PerMessage implements QueueListener {
        @Override
        Tally tally() {
            return PER_MESSAGE_ONE_LEASE_EACH;
        }
    }

    /**
     * As {@link PerMessage}, a Jakarta Messaging bean: the same row through a {@code MessageListener},
     * the message's id read from its {@code JMSMessageID} ({@code ID:<queue>:<id>}). The adapter is
     * named: a server binds a MessageListener bean to its own JMS adapter otherwise.
     */
    @MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "resourceAdapter", propertyValue = "sqlqueue-adapter"),
        @ActivationConfigProperty(propertyName = "queue", propertyValue = "bench_single_jms"),
        @ActivationConfigProperty(propertyName = "dataSourceJndiName", propertyValue = DS),
        @ActivationConfigProperty(propertyName = "maxConcurrency", propertyValue = "" + CONCURRENCY),
        @ActivationConfigProperty(propertyName = "pollInterval", propertyValue = "20"),
        @ActivationConfigProperty(propertyName = "maxPollInterval", propertyValue = "20")})
    public static class PerMessageJms implements MessageListener {
        @Resource(lookup = DS)
        DataSource ds;
        @Resource
        TransactionSynchronizationRegistry tsr;

        @Override
        public void onMessage(Message message) {
            try (Connection c = ds.getConnection()) {
                String id = message.getJMSMessageID();
                recordDone(c, Long.parseLong(id.substring(id.lastIndexOf(':') + 1)));
            } catch (SQLException | JMSException e) {
                throw new IllegalStateException(e);
            }
            countOnCommit(tsr, PER_MESSAGE_JMS, 1);
        }
    }

    /**
     * As {@link PerMessage}, but the adapter claims through its own connections (jdbcUrl, XA: the
     * claim is a branch of the bean's transaction, two-phase with the bean's insert). Its
     * activation config is in the benchmark's ejb-jar.xml, which carries the run's URL.
     */
    @MessageDriven
    public static class PerMessageOwnConnections extends PerMessage implements QueueListener {
        @Override
        Tally tally() {
            return PER_MESSAGE_OWN_CONNECTIONS;
        }
    }

    @MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "queue", propertyValue = "bench_batch"),
        @ActivationConfigProperty(propertyName = "dataSourceJndiName", propertyValue = DS),
        @ActivationConfigProperty(propertyName = "batchSize", propertyValue = "" + BATCH_SIZE),
        @ActivationConfigProperty(propertyName = "maxConcurrency", propertyValue = "" + CONCURRENCY),
        // idle pollers look every 20 ms, so a run starts within 20 ms of the filling commit
        @ActivationConfigProperty(propertyName = "pollInterval", propertyValue = "20"),
        @ActivationConfigProperty(propertyName = "maxPollInterval", propertyValue = "20")})
    public static class Batch implements BatchQueueListener {
        @Resource(lookup = DS)
        private DataSource ds;
        @Resource
        private TransactionSynchronizationRegistry tsr;

        @Override
        public void onMessages(List<QueueMessage> messages) {
            recordDone(ds, messages);
            countOnCommit(tsr, BATCHES, messages.size());
        }
    }

    /** Polls once a second at most: only the wake-up of a committed enqueue makes it quick. */
    @MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "queue", propertyValue = "bench_latency"),
        @ActivationConfigProperty(propertyName = "dataSourceJndiName", propertyValue = DS),
        @ActivationConfigProperty(propertyName = "pollInterval", propertyValue = "1000"),
        @ActivationConfigProperty(propertyName = "maxPollInterval", propertyValue = "10000")})
    public static class Latency implements QueueListener {
        @Resource(lookup = DS)
        private DataSource ds;

        @Override
        public void onMessage(QueueMessage message) {
            ARRIVALS.arrived(message.text());
            recordDone(ds, List.of(message));
        }
    }

    /** As {@link Latency}, through the adapter's own connections (config in the ejb-jar.xml). */
    @MessageDriven
    public static class LatencyOwnConnections extends Latency implements QueueListener {
    }

    /** Sends through the adapter's connection factory: its commit wakes the queue's pollers. */
    @ConnectionFactoryDefinition(name = FACTORY, interfaceName = "io.sqlqueue.api.QueueConnectionFactory",
            resourceAdapter = "sqlqueue-adapter", transactionSupport = TransactionSupportLevel.NoTransaction,
            maxPoolSize = 8, properties = {"dataSourceJndiName=" + DS})
    @Stateless
    public static class Sender {
        @Resource(lookup = FACTORY)
        private QueueConnectionFactory queues;

        public void send(String queue, String text) {
            try (QueueConnection c = queues.getConnection()) {
                c.send(queue, text);
            }
        }
    }
}
