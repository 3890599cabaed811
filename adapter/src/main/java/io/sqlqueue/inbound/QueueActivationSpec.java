package io.sqlqueue.inbound;

import io.sqlqueue.api.BatchQueueListener;
import io.sqlqueue.api.QueueListener;
import io.sqlqueue.engine.MessageSelector;
import io.sqlqueue.engine.QueueTable;
import io.sqlqueue.engine.RetryPolicy;
import io.sqlqueue.engine.SubscriptionFilter;
import io.sqlqueue.engine.TableName;
import io.sqlqueue.engine.Topic;
import jakarta.jms.MessageListener;
import jakarta.resource.spi.Activation;
import jakarta.resource.spi.ActivationSpec;
import jakarta.resource.spi.ConfigProperty;
import jakarta.resource.spi.InvalidPropertyException;
import jakarta.resource.spi.ResourceAdapter;
import java.time.Duration;

/**
 * A message-driven bean's activation properties ({@code @ActivationConfigProperty}): which queue
 * it consumes, where the database is, and how it polls, retries and dead-letters. Validated by
 * {@link #validate()}, whose messages name the property and the allowed range. A JavaBean with
 * identity equality, as the Connectors specification asks.
 */
@Activation(messageListeners = {QueueListener.class, BatchQueueListener.class, MessageListener.class})
public class QueueActivationSpec implements ActivationSpec {

    @ConfigProperty(description = "The queue table to consume: orders or schema.orders (letters, digits and"
            + " underscores). Required, unless the bean subscribes to a topic (then empty: the subscription's queue).")
    private String queue;

    @ConfigProperty(description = "JDBC URL of the queue database; empty: the resource adapter's jdbcUrl."
            + " Ignored when dataSourceJndiName is set.")
    private String jdbcUrl = "";

    @ConfigProperty(description = "Database user; empty: the resource adapter's user.")
    private String user = "";

    @ConfigProperty(description = "Database password; empty: the resource adapter's password.", confidential = true)
    private String password = "";

    @ConfigProperty(description = "JNDI name of a server JDBC resource to claim through, inside the bean's"
            + " transaction: when the bean writes to the same resource, its writes and the dequeue share one"
            + " connection and one local transaction, exactly once without XA.")
    private String dataSourceJndiName = "";

    @ConfigProperty(description = "Claim through XA connections, so the dequeue commits in two phases with the"
            + " bean's other resources. false where the database has no XA (SQL Server without MS DTC): the"
            + " claim is then a one-phase resource, exact when it is the transaction's only resource.",
            defaultValue = "true")
    private Boolean useXA = Boolean.TRUE;

    @ConfigProperty(description = "Deliveries in flight at once, 1 to 256.", defaultValue = "4")
    private Integer maxConcurrency = 4;

    @ConfigProperty(description = "Messages per transaction for a BatchQueueListener, 1 to 1000.",
            defaultValue = "1")
    private Integer batchSize = 1;

    @ConfigProperty(description = "Milliseconds an idle poller first waits between looks, 10 to 60000.",
            defaultValue = "200")
    private Long pollInterval = 200L;

    @ConfigProperty(description = "Milliseconds an idle poller waits at most between looks (the wait doubles"
            + " while the queue stays empty), pollInterval to 600000.", defaultValue = "5000")
    private Long maxPollInterval = 5000L;

    @ConfigProperty(description = "Deliveries before a failing message moves to the dead-letter table, 1 to"
            + " 1000.", defaultValue = "5")
    private Integer maxAttempts = 5;

    @ConfigProperty(description = "Milliseconds before the first retry of a failed message; doubles with"
            + " each failure. 0 to 86400000.", defaultValue = "1000")
    private Long retryBackoff = 1000L;

    @ConfigProperty(description = "Milliseconds the retry back-off grows to at most, retryBackoff to"
            + " 31536000000 (a year).", defaultValue = "300000")
    private Long maxRetryBackoff = 300_000L;

    @ConfigProperty(description = "Milliseconds a leased message stays invisible to others, 1000 to 86400000."
            + " Every delivery leases its messages first, counting the attempt; it is how soon a message comes"
            + " back after its server died in the middle of the delivery. A bean without a transaction keeps its"
            + " lease while onMessage runs, however long (renewed every third of leaseTime): leaseTime is the"
            + " longest its server may stall (a garbage collection, the database out of reach) before another"
            + " consumer takes the message over.",
            defaultValue = "60000")
    private Long leaseTime = 60_000L;

    /** {@link #getAttemptCounting()}: counted in a committed lease before the bean sees the message. */
    public static final String BEFORE_DELIVERY = "beforeDelivery";
    /** {@link #getAttemptCounting()}: counted after the rollback of a failed delivery. */
    public static final String AFTER_ROLLBACK = "afterRollback";

    @ConfigProperty(description = "When a transacted delivery counts an attempt against its messages."
            + " beforeDelivery: in a committed lease before the bean sees them (in a backlog, the delivery"
            + " before commits it), so a message whose delivery kills the server still reaches maxAttempts"
            + " and is dead-lettered. afterRollback: the delivery transaction deletes the messages and a"
            + " failure is counted after its rollback, one statement fewer per delivery, but a message that"
            + " kills the server is delivered again without end.", defaultValue = BEFORE_DELIVERY)
    private String attemptCounting = BEFORE_DELIVERY;

    @ConfigProperty(description = "With attemptCounting=beforeDelivery, how many messages a delivery thread"
            + " of a one-message bean leases at once, 1 to 100: the next message and, when it was never attempted,"
            + " up to this many minus one more never attempted, delivered one by one in transactions of their own,"
            + " so that a backlog costs one lease per this many messages. A message already attempted is leased"
            + " alone. If the server dies, each message leased with the one in delivery is charged one attempt,"
            + " once, and waits for leaseTime. 1: one lease per message. Not for ordered or batch delivery, nor with"
            + " maxAttempts 1.",
            defaultValue = "8")
    private Integer leaseAhead = 8;

    @ConfigProperty(description = "Exception classes, comma-separated, that move a message to the dead-letter table"
            + " at its first failure instead of being retried: matched along the cause chain (inside the container's"
            + " EJBException) with their subclasses. A bean may also throw io.sqlqueue.api.UnrecoverableMessageException."
            + " Empty: none.")
    private String unrecoverableExceptions = "";

    @ConfigProperty(description = "Exception classes, comma-separated: when set, only failures caused by one of"
            + " them (or a subclass) are retried, and any other moves the message to the dead-letter table at once."
            + " unrecoverableExceptions wins where both match. Empty: every failure is retried up to maxAttempts.")
    private String retryableExceptions = "";

    @ConfigProperty(description = "The dead-letter table; empty: the queue's name + _dlq.")
    private String deadLetterQueue = "";

    @ConfigProperty(description = "Create the queue and dead-letter tables at activation when missing.",
            defaultValue = "true")
    private Boolean createQueue = Boolean.TRUE;

    @ConfigProperty(description = "Keep a completion journal: one row per finished message in the table"
            + " <queue>_journal (created at activation with createQueue), written in the delivery transaction.",
            defaultValue = "false")
    private Boolean journal = Boolean.FALSE;

    @ConfigProperty(description = "Milliseconds journal rows are kept, 60000 to 31536000000 (a year); older ones"
            + " are deleted in small batches while the queue is idle.", defaultValue = "604800000")
    private Long journalRetention = 604_800_000L;

    @ConfigProperty(description = "Deliver the messages of one ordering key one at a time, in the order they were"
            + " sent, across threads and servers; different keys and messages without a key go in parallel. A"
            + " failing message holds its key until it is delivered or dead-lettered. Every consumer of the queue"
            + " must set it.", defaultValue = "false")
    private Boolean orderedDelivery = Boolean.FALSE;

    /** {@link #getExpiredMessages()}: moved to the dead-letter table with the reason "expired". */
    public static final String DEAD_LETTER = "deadLetter";
    /** {@link #getExpiredMessages()}: deleted. */
    public static final String DISCARD = "discard";

    @ConfigProperty(description = "What becomes of a message whose time to live has run out: deadLetter (moved to"
            + " the dead-letter table with the reason 'expired') or discard (deleted). Either way it is never"
            + " delivered.", defaultValue = DEAD_LETTER)
    private String expiredMessages = DEAD_LETTER;

    @ConfigProperty(description = "A topic to subscribe to instead of naming a queue: with subscriptionName, a"
            + " durable subscription whose queue, <topic>_<subscriptionName>, this bean consumes. Empty: none.")
    private String topic = "";

    @ConfigProperty(description = "The durable subscription's name (letters, digits and underscores), with topic:"
            + " made at activation where missing; it lasts until an admin removes it.")
    private String subscriptionName = "";

    @ConfigProperty(description = "Which published messages the subscription takes: a JMS message selector on the"
            + " headers and the JMS header fields, e.g. type = 'x' AND region IN ('eu', 'uk') (filters of earlier"
            + " releases keep their meaning). Empty: every message.")
    private String subscriptionFilter = "";

    @ConfigProperty(description = "Consecutive failed deliveries (the bean threw or rolled back) that open the"
            + " circuit breaker, 0 to 1000; 0: off. Open, it delivers one message at a time after a pause"
            + " (pollInterval doubling to circuitBreakerMaxPause), counts no failure against the messages (they go"
            + " back hidden for two pauses) and dead-letters none for failing, until a delivery succeeds. For a"
            + " bean whose own dependency can be down; a queue of only failing messages keeps it open.",
            defaultValue = "0")
    private Integer circuitBreakerFailures = 0;

    @ConfigProperty(description = "Milliseconds the pause between deliveries grows to at most while the circuit"
            + " breaker is open, 10 to 3600000.", defaultValue = "30000")
    private Long circuitBreakerMaxPause = 30_000L;

    // ---- The JMS activation properties that beans moved from another JMS adapter carry: accepted where they
    // mean something here, refused with the property to use where they do not (docs/semantics.md, JMS). ----

    /** {@link #getAcknowledgeMode()}: the values the Enterprise Beans specification allows. */
    static final String AUTO_ACKNOWLEDGE = "Auto-acknowledge", DUPS_OK_ACKNOWLEDGE = "Dups-ok-acknowledge";

    @ConfigProperty(description = "JMS compatibility: the queue's name, as other JMS adapters call it; empty: none."
            + " Used as queue when queue is empty; refused when both are set and differ.")
    private String destination = "";

    @ConfigProperty(description = "JMS compatibility: jakarta.jms.Queue (or javax.jms.Queue), or empty. A topic is"
            + " consumed through topic and subscriptionName, so jakarta.jms.Topic is refused.")
    private String destinationType = "";

    @ConfigProperty(description = "JMS compatibility: the JNDI name of a Queue or Topic administered object of this"
            + " adapter (io.sqlqueue.jms.JmsQueue, JmsTopic), looked up at activation: its queue is consumed, or"
            + " with a Topic the durable subscription subscriptionName of it. A java:global/ or server-wide name"
            + " (see docs/semantics.md, JMS lookups). Empty: queue or topic names it.")
    private String destinationLookup = "";

    @ConfigProperty(description = "JMS compatibility: empty, or the JNDI name of a connection factory of this"
            + " adapter (checked at activation, then unused): the bean's database is dataSourceJndiName or jdbcUrl.")
    private String connectionFactoryLookup = "";

    /** What destinationLookup named when it was last found, kept for a validation where JNDI shows less. */
    private transient String lookedUp;
    private transient JmsLookups.Destination lookedUpDestination;

    @ConfigProperty(description = "JMS compatibility: a JMS message selector on the headers (as properties) and the"
            + " JMS header fields. On a queue the bean receives only the messages it selects, the others staying"
            + " queued for other consumers; with topic it is the subscription's filter, as subscriptionFilter."
            + " Empty: every message.")
    private String messageSelector = "";

    @ConfigProperty(description = "JMS compatibility: Auto-acknowledge or Dups-ok-acknowledge, or empty; either"
            + " way a bean without a transaction acknowledges when onMessage returns, and a transacted bean with"
            + " its commit.")
    private String acknowledgeMode = "";

    @ConfigProperty(description = "JMS compatibility: Durable, NonDurable or empty; subscriptions are durable, so"
            + " NonDurable is refused with topic (and means nothing for a queue).")
    private String subscriptionDurability = "";

    @ConfigProperty(description = "JMS compatibility: accepted and unused; a subscription is named by topic and"
            + " subscriptionName alone.")
    private String clientId = "";

    @ConfigProperty(description = "JMS compatibility: deliveries in flight at once, as maxConcurrency (1 to 256),"
            + " which it replaces when set; empty: maxConcurrency.")
    private Integer maxSession;

    private ResourceAdapter resourceAdapter;

    /**
     * Checks every property.
     *
     * @throws InvalidPropertyException naming the first property that is wrong and what is allowed
     */
    @Override
    public void validate() throws InvalidPropertyException {
        jmsCompatibility();
        if (!topic.isEmpty()) {
            subscription();
        }
        if (queue == null || queue.isBlank()) {
            throw invalid("queue", "is required: the queue table to consume, e.g. orders");
        }
        name("queue", queue);
        if (!messageSelector.isEmpty()) {
            selector();
        }
        if (!deadLetterQueue.isEmpty()) {
            name("deadLetterQueue", deadLetterQueue);
            if (TableName.parse(deadLetterQueue).equals(TableName.parse(queue))) {
                throw invalid("deadLetterQueue", "must differ from the queue, both are '" + queue + "'");
            }
        }
        range("maxConcurrency", maxConcurrency, 1, 256);
        range("batchSize", batchSize, 1, QueueTable.MAX_CLAIM);
        range("pollInterval", pollInterval, 10, 60_000);
        range("maxPollInterval", maxPollInterval, pollInterval, 600_000);
        range("maxAttempts", maxAttempts, 1, 1000);
        range("retryBackoff", retryBackoff, 0, 86_400_000L);
        range("maxRetryBackoff", maxRetryBackoff, retryBackoff, RetryPolicy.MAX_BACKOFF.toMillis());
        range("leaseTime", leaseTime, 1000, QueueTable.MAX_LEASE.toMillis());
        range("leaseAhead", leaseAhead, 1, 100);
        if (!BEFORE_DELIVERY.equals(attemptCounting) && !AFTER_ROLLBACK.equals(attemptCounting)) {
            throw invalid("attemptCounting", "must be " + BEFORE_DELIVERY + " or " + AFTER_ROLLBACK + ", was "
                    + (attemptCounting == null ? "null" : "'" + attemptCounting + "'"));
        }
        range("journalRetention", journalRetention, 60_000, 31_536_000_000L);
        classNames("unrecoverableExceptions", unrecoverableExceptions);
        classNames("retryableExceptions", retryableExceptions);
        range("circuitBreakerFailures", circuitBreakerFailures, 0, 1000);
        range("circuitBreakerMaxPause", circuitBreakerMaxPause, 10, 3_600_000);
        if (!DEAD_LETTER.equals(expiredMessages) && !DISCARD.equals(expiredMessages)) {
            throw invalid("expiredMessages", "must be " + DEAD_LETTER + " or " + DISCARD + ", was "
                    + (expiredMessages == null ? "null" : "'" + expiredMessages + "'"));
        }
    }

    /**
     * Checks the JMS activation properties and applies the ones that mean something: destination
     * as the queue, maxSession as maxConcurrency.
     */
    private void jmsCompatibility() throws InvalidPropertyException {
        if (!destinationLookup.isEmpty()) {
            destinationFromLookup();
        }
        if (!connectionFactoryLookup.isEmpty()) {
            JmsLookups.connectionFactory(connectionFactoryLookup);
        }
        switch (destinationType) {
            case "" -> { }
            case "jakarta.jms.Queue", "javax.jms.Queue" -> {
                if (lookedUpDestination != null && !lookedUpDestination.topic().isEmpty()) {
                    throw invalid("destinationType", destinationType + " does not match destinationLookup '"
                            + destinationLookup + "', a Topic: set jakarta.jms.Topic or leave it empty");
                }
            }
            case "jakarta.jms.Topic", "javax.jms.Topic" -> {
                if (topic.isEmpty()) {
                    throw invalid("destinationType", destinationType + " needs a topic: set topic and"
                            + " subscriptionName (a durable subscription), or destinationLookup naming a Topic of"
                            + " this adapter, and subscriptionName");
                }
            }
            default -> throw invalid("destinationType", "must be jakarta.jms.Queue, jakarta.jms.Topic or empty, was '"
                    + destinationType + "'");
        }
        if (!acknowledgeMode.isEmpty() && !AUTO_ACKNOWLEDGE.equalsIgnoreCase(acknowledgeMode)
                && !DUPS_OK_ACKNOWLEDGE.equalsIgnoreCase(acknowledgeMode)) {
            throw invalid("acknowledgeMode", "must be " + AUTO_ACKNOWLEDGE + ", " + DUPS_OK_ACKNOWLEDGE
                    + " or empty, was '" + acknowledgeMode + "'");
        }
        switch (subscriptionDurability) {
            case "", "Durable" -> { }
            case "NonDurable" -> {
                if (!topic.isEmpty()) {
                    throw invalid("subscriptionDurability", "NonDurable is not supported: a subscription to a"
                            + " topic is durable (it lasts until an admin removes it); set Durable or leave it empty");
                }
            }
            default -> throw invalid("subscriptionDurability", "must be Durable, NonDurable or empty, was '"
                    + subscriptionDurability + "'");
        }
        if (!destination.isEmpty()) {
            if (queue == null || queue.isBlank()) {
                queue = destination;
            } else if (!queue.equals(destination)) {
                throw invalid("destination", "names another queue than queue ('" + destination + "' and '"
                        + queue + "'): set one of them");
            }
        }
        if (maxSession != null) {
            range("maxSession", maxSession, 1, 256);
            maxConcurrency = maxSession;
        }
    }

    /**
     * Takes the queue, or the topic, from the administered object destinationLookup names. Found
     * once per name: a later validation (the server's, then the activation's) may run on a thread
     * that no longer sees the application's JNDI names.
     */
    private void destinationFromLookup() throws InvalidPropertyException {
        if (!destinationLookup.equals(lookedUp)) {
            lookedUpDestination = JmsLookups.destination(destinationLookup);
            lookedUp = destinationLookup;
        }
        String named = lookedUpDestination.queue();
        if (!named.isEmpty()) {
            if (queue == null || queue.isBlank()) {
                queue = named;
            } else if (!queue.equals(named)) {
                throw invalid("destinationLookup", "'" + destinationLookup + "' names the queue '" + named
                        + "', queue names '" + queue + "': set one of them");
            }
            return;
        }
        named = lookedUpDestination.topic();
        if (topic.isEmpty()) {
            topic = named;
        } else if (!topic.equals(named)) {
            throw invalid("destinationLookup", "'" + destinationLookup + "' names the topic '" + named
                    + "', topic names '" + topic + "': set one of them");
        }
    }

    /** Whether expired messages are deleted rather than dead-lettered (after {@link #validate()}). */
    public boolean discardsExpired() {
        return DISCARD.equals(expiredMessages);
    }

    /**
     * Checks the subscription's properties and sets {@code queue} to its queue: the rest of the
     * activation consumes it like any queue.
     */
    private void subscription() throws InvalidPropertyException {
        if (subscriptionName.isEmpty()) {
            throw invalid("subscriptionName", "is required with topic: the durable subscription's name");
        }
        String derived;
        try {
            derived = Topic.queueOf(topic, subscriptionName).toString();
        } catch (IllegalArgumentException e) {
            throw invalid("topic", "and subscriptionName do not make a queue: " + e.getMessage());
        }
        if (queue != null && !queue.isBlank() && !queue.equals(derived)) {
            throw invalid("queue", "must be empty with topic (the subscription's queue is " + derived + "), was '"
                    + queue + "'");
        }
        try {
            SubscriptionFilter.parse(subscriptionFilter);
        } catch (IllegalArgumentException e) {
            throw invalid("subscriptionFilter", "is not valid: " + e.getMessage());
        }
        if (!messageSelector.isEmpty() && !subscriptionFilter.isEmpty() && !messageSelector.equals(subscriptionFilter)) {
            throw invalid("messageSelector", "and subscriptionFilter are both the subscription's filter and differ ('"
                    + messageSelector + "' and '" + subscriptionFilter + "'): set one of them");
        }
        if (messageSelector.length() > SubscriptionFilter.MAX_LENGTH) {
            throw invalid("messageSelector", "must be at most " + SubscriptionFilter.MAX_LENGTH + " characters with"
                    + " topic (the subscription stores it), was " + messageSelector.length());
        }
        queue = derived;
    }

    /** The message selector, parsed (after {@link #validate()}): null when there is none. */
    private MessageSelector selector() throws InvalidPropertyException {
        if (messageSelector.isEmpty()) {
            return null;
        }
        try {
            return MessageSelector.parse(messageSelector);
        } catch (IllegalArgumentException e) {
            throw invalid("messageSelector", "is not valid: " + e.getMessage());
        }
    }

    /**
     * The selector a queue consumer takes its messages by (after {@link #validate()}); null when it
     * takes every message, or subscribes to a topic (whose subscription filters at publish instead).
     */
    public MessageSelector queueSelector() {
        try {
            return subscribes() ? null : selector();
        } catch (InvalidPropertyException e) {
            throw new IllegalStateException("the activation spec was not validated: " + e.getMessage(), e);
        }
    }

    /** The filter of the subscription (after {@link #validate()}): messageSelector or subscriptionFilter. */
    public String effectiveSubscriptionFilter() {
        return messageSelector.isEmpty() ? subscriptionFilter : messageSelector;
    }

    /** Whether the bean consumes a topic subscription (after {@link #validate()}). */
    public boolean subscribes() {
        return !topic.isEmpty();
    }

    private static void name(String property, String value) throws InvalidPropertyException {
        try {
            TableName.parse(value);
        } catch (IllegalArgumentException e) {
            throw invalid(property, "is not valid: " + e.getMessage());
        }
    }

    private static void classNames(String property, String value) throws InvalidPropertyException {
        try {
            ExceptionPolicy.classNames(value);
        } catch (IllegalArgumentException e) {
            throw invalid(property, "is not a comma-separated list of class names: " + e.getMessage());
        }
    }

    /** The per-exception policy (after {@link #validate()}). */
    ExceptionPolicy exceptionPolicy() {
        return ExceptionPolicy.of(unrecoverableExceptions, retryableExceptions);
    }

    private static void range(String property, Number value, long min, long max) throws InvalidPropertyException {
        if (value == null || value.longValue() < min || value.longValue() > max) {
            throw invalid(property, "must be between " + min + " and " + max + ", was " + value);
        }
    }

    private static InvalidPropertyException invalid(String property, String problem) {
        return new InvalidPropertyException("activation property " + property + " " + problem);
    }

    /** The retry settings as the engine takes them (after {@link #validate()}). */
    public RetryPolicy retryPolicy() {
        return new RetryPolicy(maxAttempts, Duration.ofMillis(retryBackoff), Duration.ofMillis(maxRetryBackoff));
    }

    /** The effective configuration for the activation's log line: no password. */
    @Override
    public String toString() {
        return "queue=" + queue + (topic.isEmpty() ? "" : ", topic=" + topic + ", subscriptionName=" + subscriptionName
                + ", subscriptionFilter=" + effectiveSubscriptionFilter())
                + (topic.isEmpty() && !messageSelector.isEmpty() ? ", messageSelector=" + messageSelector : "")
                + (dataSourceJndiName.isEmpty() ? (jdbcUrl.isEmpty() ? "" : ", jdbcUrl="
                + io.sqlqueue.engine.DriverDataSources.withoutSecrets(jdbcUrl) + ", user=" + user)
                : ", dataSourceJndiName=" + dataSourceJndiName) + ", useXA=" + useXA
                + ", maxConcurrency=" + maxConcurrency + ", batchSize=" + batchSize + ", pollInterval=" + pollInterval
                + ", maxPollInterval=" + maxPollInterval + ", maxAttempts=" + maxAttempts + ", retryBackoff="
                + retryBackoff + ", maxRetryBackoff=" + maxRetryBackoff + ", leaseTime=" + leaseTime + ", leaseAhead=" + leaseAhead
                + ", attemptCounting=" + attemptCounting + ", orderedDelivery=" + orderedDelivery
                + ", expiredMessages=" + expiredMessages
                + (unrecoverableExceptions.isEmpty() ? "" : ", unrecoverableExceptions=" + unrecoverableExceptions)
                + (retryableExceptions.isEmpty() ? "" : ", retryableExceptions=" + retryableExceptions)
                + ", circuitBreakerFailures=" + circuitBreakerFailures
                + (Integer.valueOf(0).equals(circuitBreakerFailures) ? ""
                        : ", circuitBreakerMaxPause=" + circuitBreakerMaxPause)
                + ", deadLetterQueue=" + (deadLetterQueue.isEmpty() ? queue + QueueTable.DEAD_LETTER_SUFFIX
                        : deadLetterQueue) + ", createQueue=" + createQueue + ", journal=" + journal
                + (Boolean.TRUE.equals(journal) ? ", journalRetention=" + journalRetention : "");
    }

    @Override
    public ResourceAdapter getResourceAdapter() {
        return resourceAdapter;
    }

    @Override
    public void setResourceAdapter(ResourceAdapter resourceAdapter) {
        this.resourceAdapter = resourceAdapter;
    }

    // ---- JavaBean properties ------------------------------------------------------------------

    public String getQueue() {
        return queue;
    }

    public void setQueue(String queue) {
        this.queue = queue == null ? null : queue.trim();
    }

    public String getJdbcUrl() {
        return jdbcUrl;
    }

    public void setJdbcUrl(String jdbcUrl) {
        this.jdbcUrl = jdbcUrl == null ? "" : jdbcUrl.trim();
    }

    public String getUser() {
        return user;
    }

    public void setUser(String user) {
        this.user = user == null ? "" : user;
    }

    public String getPassword() {
        return password;
    }

    public void setPassword(String password) {
        this.password = password == null ? "" : password;
    }

    public String getDataSourceJndiName() {
        return dataSourceJndiName;
    }

    public void setDataSourceJndiName(String dataSourceJndiName) {
        this.dataSourceJndiName = dataSourceJndiName == null ? "" : dataSourceJndiName.trim();
    }

    public Boolean getUseXA() {
        return useXA;
    }

    public void setUseXA(Boolean useXA) {
        this.useXA = useXA == null ? Boolean.TRUE : useXA;
    }

    public Integer getMaxConcurrency() {
        return maxConcurrency;
    }

    public void setMaxConcurrency(Integer maxConcurrency) {
        this.maxConcurrency = maxConcurrency;
    }

    public Integer getBatchSize() {
        return batchSize;
    }

    public void setBatchSize(Integer batchSize) {
        this.batchSize = batchSize;
    }

    public Long getPollInterval() {
        return pollInterval;
    }

    public void setPollInterval(Long pollInterval) {
        this.pollInterval = pollInterval;
    }

    public Long getMaxPollInterval() {
        return maxPollInterval;
    }

    public void setMaxPollInterval(Long maxPollInterval) {
        this.maxPollInterval = maxPollInterval;
    }

    public Integer getMaxAttempts() {
        return maxAttempts;
    }

    public void setMaxAttempts(Integer maxAttempts) {
        this.maxAttempts = maxAttempts;
    }

    public Long getRetryBackoff() {
        return retryBackoff;
    }

    public void setRetryBackoff(Long retryBackoff) {
        this.retryBackoff = retryBackoff;
    }

    public Long getMaxRetryBackoff() {
        return maxRetryBackoff;
    }

    public void setMaxRetryBackoff(Long maxRetryBackoff) {
        this.maxRetryBackoff = maxRetryBackoff;
    }

    public Boolean getJournal() {
        return journal;
    }

    public void setJournal(Boolean journal) {
        this.journal = journal;
    }

    public Long getJournalRetention() {
        return journalRetention;
    }

    public void setJournalRetention(Long journalRetention) {
        this.journalRetention = journalRetention;
    }

    public String getAttemptCounting() {
        return attemptCounting;
    }

    public void setAttemptCounting(String attemptCounting) {
        this.attemptCounting = attemptCounting;
    }

    public Long getLeaseTime() {
        return leaseTime;
    }

    public void setLeaseTime(Long leaseTime) {
        this.leaseTime = leaseTime;
    }

    public Integer getLeaseAhead() {
        return leaseAhead;
    }

    public void setLeaseAhead(Integer leaseAhead) {
        this.leaseAhead = leaseAhead;
    }

    public String getDeadLetterQueue() {
        return deadLetterQueue;
    }

    public void setDeadLetterQueue(String deadLetterQueue) {
        this.deadLetterQueue = deadLetterQueue == null ? "" : deadLetterQueue.trim();
    }

    public String getExpiredMessages() {
        return expiredMessages;
    }

    public void setExpiredMessages(String expiredMessages) {
        this.expiredMessages = expiredMessages == null ? null : expiredMessages.trim();
    }

    public Boolean getOrderedDelivery() {
        return orderedDelivery;
    }

    public void setOrderedDelivery(Boolean orderedDelivery) {
        this.orderedDelivery = orderedDelivery == null ? Boolean.FALSE : orderedDelivery;
    }

    public String getTopic() {
        return topic;
    }

    public void setTopic(String topic) {
        this.topic = topic == null ? "" : topic.trim();
    }

    public String getSubscriptionName() {
        return subscriptionName;
    }

    public void setSubscriptionName(String subscriptionName) {
        this.subscriptionName = subscriptionName == null ? "" : subscriptionName.trim();
    }

    public String getSubscriptionFilter() {
        return subscriptionFilter;
    }

    public void setSubscriptionFilter(String subscriptionFilter) {
        this.subscriptionFilter = subscriptionFilter == null ? "" : subscriptionFilter.trim();
    }

    public Integer getCircuitBreakerFailures() {
        return circuitBreakerFailures;
    }

    public void setCircuitBreakerFailures(Integer circuitBreakerFailures) {
        this.circuitBreakerFailures = circuitBreakerFailures;
    }

    public Long getCircuitBreakerMaxPause() {
        return circuitBreakerMaxPause;
    }

    public void setCircuitBreakerMaxPause(Long circuitBreakerMaxPause) {
        this.circuitBreakerMaxPause = circuitBreakerMaxPause;
    }

    public String getDestination() {
        return destination;
    }

    public void setDestination(String destination) {
        this.destination = destination == null ? "" : destination.trim();
    }

    public String getDestinationType() {
        return destinationType;
    }

    public void setDestinationType(String destinationType) {
        this.destinationType = destinationType == null ? "" : destinationType.trim();
    }

    public String getDestinationLookup() {
        return destinationLookup;
    }

    public void setDestinationLookup(String destinationLookup) {
        this.destinationLookup = destinationLookup == null ? "" : destinationLookup.trim();
    }

    public String getConnectionFactoryLookup() {
        return connectionFactoryLookup;
    }

    public void setConnectionFactoryLookup(String connectionFactoryLookup) {
        this.connectionFactoryLookup = connectionFactoryLookup == null ? "" : connectionFactoryLookup.trim();
    }

    public String getMessageSelector() {
        return messageSelector;
    }

    public void setMessageSelector(String messageSelector) {
        this.messageSelector = messageSelector == null ? "" : messageSelector.trim();
    }

    public String getAcknowledgeMode() {
        return acknowledgeMode;
    }

    public void setAcknowledgeMode(String acknowledgeMode) {
        this.acknowledgeMode = acknowledgeMode == null ? "" : acknowledgeMode.trim();
    }

    public String getSubscriptionDurability() {
        return subscriptionDurability;
    }

    public void setSubscriptionDurability(String subscriptionDurability) {
        this.subscriptionDurability = subscriptionDurability == null ? "" : subscriptionDurability.trim();
    }

    public String getClientId() {
        return clientId;
    }

    public void setClientId(String clientId) {
        this.clientId = clientId == null ? "" : clientId.trim();
    }

    public Integer getMaxSession() {
        return maxSession;
    }

    public void setMaxSession(Integer maxSession) {
        this.maxSession = maxSession;
    }

    public Boolean getCreateQueue() {
        return createQueue;
    }

    public void setCreateQueue(Boolean createQueue) {
        this.createQueue = createQueue == null ? Boolean.TRUE : createQueue;
    }

    public String getUnrecoverableExceptions() {
        return unrecoverableExceptions;
    }

    public void setUnrecoverableExceptions(String unrecoverableExceptions) {
        this.unrecoverableExceptions = unrecoverableExceptions == null ? "" : unrecoverableExceptions.trim();
    }

    public String getRetryableExceptions() {
        return retryableExceptions;
    }

    public void setRetryableExceptions(String retryableExceptions) {
        this.retryableExceptions = retryableExceptions == null ? "" : retryableExceptions.trim();
    }
}
