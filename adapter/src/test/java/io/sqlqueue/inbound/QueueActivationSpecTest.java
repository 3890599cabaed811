package io.sqlqueue.inbound;

import io.sqlqueue.QueueResourceAdapter;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sqlqueue.engine.RetryPolicy;
import jakarta.resource.spi.InvalidPropertyException;
import java.time.Duration;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

class QueueActivationSpecTest {

    private static QueueActivationSpec spec(Consumer<QueueActivationSpec> change) {
        QueueActivationSpec s = new QueueActivationSpec();
        s.setQueue("orders");
        change.accept(s);
        return s;
    }

    private static String problem(Consumer<QueueActivationSpec> change) {
        return assertThrows(InvalidPropertyException.class, () -> spec(change).validate()).getMessage();
    }

    @Test
    void theDefaultsAreValidAndSane() throws Exception {
        QueueActivationSpec s = spec(x -> { });
        s.validate();
        assertEquals(4, s.getMaxConcurrency());
        assertEquals(1, s.getBatchSize());
        assertEquals(new RetryPolicy(5, Duration.ofSeconds(1), Duration.ofMinutes(5)), s.retryPolicy());
        assertTrue(s.getCreateQueue());
        assertFalse(s.getOrderedDelivery());
        assertFalse(s.discardsExpired(), "expired messages are dead-lettered by default");
        assertEquals(0, s.getCircuitBreakerFailures(), "the circuit breaker is off: failures count as they always did");
        assertEquals(30_000L, s.getCircuitBreakerMaxPause());
    }

    /** The names an application's own data sources take wait out the deployment (Poller); a server's do not. */
    @Test
    void onlyDataSourcesInTheApplicationNamespacesCountAsTheApplicationsOwn() throws Exception {
        for (String own : new String[] {"java:global/jdbc/sample", "java:app/jdbc/x", "java:module/x", "java:comp/env/x"}) {
            assertTrue(connections(own).declaredByApplication(), own);
        }
        for (String server : new String[] {"jdbc/orders", "java:/jdbc/orders", "java:jboss/datasources/orders"}) {
            assertFalse(connections(server).declaredByApplication(), server);
        }
        assertFalse(DeliveryConnections.of(spec(x -> x.setJdbcUrl("jdbc:h2:mem:x")), new Activations(new QueueResourceAdapter()))
                .declaredByApplication(), "the adapter's own connections");
    }

    private static DeliveryConnections connections(String jndiName) throws Exception {
        return DeliveryConnections.of(spec(x -> x.setDataSourceJndiName(jndiName)), new Activations(new QueueResourceAdapter()));
    }

    @Test
    void aTopicSubscriptionConsumesTheQueueNamedAfterTopicAndSubscription() throws Exception {
        QueueActivationSpec s = spec(x -> {
            x.setQueue(null);
            x.setTopic("sales.prices");
            x.setSubscriptionName("shop");
            x.setSubscriptionFilter("currency IN ('EUR', 'GBP')");
        });
        s.validate();
        assertEquals("sales.prices_shop", s.getQueue());
        assertTrue(s.subscribes());
        s.validate(); // as a server may call it again
        assertEquals("sales.prices_shop", s.getQueue());
        assertEquals("activation property subscriptionName is required with topic: the durable subscription's name",
                problem(x -> x.setTopic("prices")));
        assertEquals("activation property queue must be empty with topic (the subscription's queue is prices_shop),"
                + " was 'orders'", problem(x -> {
                    x.setTopic("prices");
                    x.setSubscriptionName("shop");
                }));
        assertTrue(problem(x -> {
            x.setQueue(null);
            x.setTopic("prices");
            x.setSubscriptionName("shop");
            x.setSubscriptionFilter("currency = 'EUR");
        }).startsWith("activation property subscriptionFilter is not valid: subscription filter: string literal not"
                + " closed (a quote inside one is written '') at 12 in: currency = 'EUR"));
        assertTrue(problem(x -> {
            x.setQueue(null);
            x.setTopic("prices");
            x.setSubscriptionName("shop-1");
        }).startsWith("activation property topic and subscriptionName do not make a queue: subscription name 'shop-1'"));
    }

    @Test
    void everyBadValueNamesItsPropertyAndTheAllowedRange() {
        assertEquals("activation property queue is required: the queue table to consume, e.g. orders",
                problem(s -> s.setQueue(null)));
        assertTrue(problem(s -> s.setQueue("orders; DROP TABLE x")).startsWith("activation property queue is not valid"));
        assertTrue(problem(s -> s.setDeadLetterQueue("a]b")).startsWith("activation property deadLetterQueue"));
        assertTrue(problem(s -> s.setDeadLetterQueue("orders")).contains("must differ from the queue"));
        assertEquals("activation property expiredMessages must be deadLetter or discard, was 'drop'",
                problem(s -> s.setExpiredMessages("drop")));
        assertEquals("activation property maxConcurrency must be between 1 and 256, was 0",
                problem(s -> s.setMaxConcurrency(0)));
        assertEquals("activation property batchSize must be between 1 and 1000, was 5000",
                problem(s -> s.setBatchSize(5000)));
        assertEquals("activation property maxAttempts must be between 1 and 1000, was 0",
                problem(s -> s.setMaxAttempts(0)));
        assertEquals("activation property maxPollInterval must be between 200 and 600000, was 100",
                problem(s -> s.setMaxPollInterval(100L)));
        assertEquals("activation property pollInterval must be between 10 and 60000, was null",
                problem(s -> s.setPollInterval(null)));
        assertTrue(problem(s -> s.setMaxRetryBackoff(10L)).startsWith("activation property maxRetryBackoff"));
        assertTrue(problem(s -> s.setLeaseTime(5L)).startsWith("activation property leaseTime"));
        assertEquals("activation property attemptCounting must be beforeDelivery or afterRollback, was 'never'",
                problem(s -> s.setAttemptCounting("never")));
        assertTrue(problem(s -> s.setJournalRetention(1000L)).startsWith("activation property journalRetention must be"));
        assertEquals("activation property unrecoverableExceptions is not a comma-separated list of class names:"
                + " 'java.lang.IllegalArgumentException;' is not a class name (e.g. java.lang.IllegalArgumentException)",
                problem(s -> s.setUnrecoverableExceptions("java.lang.IllegalArgumentException;")));
        assertTrue(problem(s -> s.setRetryableExceptions("java.io.IOException,,x")).startsWith(
                "activation property retryableExceptions is not a comma-separated list of class names: '' is not"));
        assertEquals("activation property circuitBreakerFailures must be between 0 and 1000, was -1",
                problem(s -> s.setCircuitBreakerFailures(-1)));
        assertEquals("activation property circuitBreakerFailures must be between 0 and 1000, was null",
                problem(s -> s.setCircuitBreakerFailures(null)));
        assertEquals("activation property circuitBreakerMaxPause must be between 10 and 3600000, was 5",
                problem(s -> s.setCircuitBreakerMaxPause(5L)));
        assertDoesNotThrow(() -> spec(s -> s.setQueue("sales.orders")).validate());
        assertDoesNotThrow(() -> spec(s -> s.setRetryableExceptions(" java.io.IOException , a.b.C$Inner ")).validate());
    }

    @Test
    void theLogLineNeverShowsThePassword() {
        QueueActivationSpec s = spec(x -> {
            x.setJdbcUrl("jdbc:sqlserver://db;databaseName=shop;password=Secr3t-In-Url");
            x.setUser("shop");
            x.setPassword("Secr3t-Property");
        });
        assertFalse(s.toString().contains("Secr3t"), s.toString());
        assertTrue(s.toString().contains("queue=orders"));
    }

    @Test
    void specsKeepIdentityEquality() {
        assertNotEquals(spec(x -> { }), spec(x -> { }));
    }

    @Test
    void theJmsPropertiesOfOtherAdaptersAreAcceptedWhereTheyMeanSomethingHere() throws Exception {
        QueueActivationSpec s = spec(x -> {
            x.setQueue(null);
            x.setDestination("orders");
            x.setDestinationType("jakarta.jms.Queue");
            x.setAcknowledgeMode("Dups-ok-acknowledge");
            x.setSubscriptionDurability("NonDurable"); // means nothing for a queue, as in the Enterprise Beans spec
            x.setClientId("shop");
            x.setMaxSession(12);
        });
        s.validate();
        assertEquals("orders", s.getQueue(), "destination is the queue");
        assertEquals(12, s.getMaxConcurrency(), "maxSession is maxConcurrency");
        assertDoesNotThrow(() -> spec(x -> x.setDestination("orders")).validate(), "the same queue twice");
        assertDoesNotThrow(() -> spec(x -> {
            x.setQueue(null);
            x.setTopic("prices");
            x.setSubscriptionName("shop");
            x.setSubscriptionDurability("Durable");
            x.setDestinationType("javax.jms.Queue");
            x.setAcknowledgeMode("Auto-acknowledge");
        }).validate());
    }

    /**
     * A message selector is checked at activation, the error naming the property and pointing at
     * the bad token; on a queue the bean takes by it, with topic it is the subscription's filter.
     */
    @Test
    void aMessageSelectorIsValidatedAtActivationAndSelectsOnAQueueOrFiltersASubscription() throws Exception {
        assertEquals("activation property messageSelector is not valid: unexpected ')' (expected an identifier, a"
                + " literal or '(') at 11 in: a = 1 AND )", problem(s -> s.setMessageSelector("a = 1 AND )")));
        assertEquals("activation property messageSelector is not valid: '<' compares numbers only (strings and"
                + " booleans only with = and <>), but ''eu'' is a string, at 10 in: region < 'eu'",
                problem(s -> s.setMessageSelector("region < 'eu'")));

        QueueActivationSpec onQueue = spec(s -> s.setMessageSelector("JMSType = 'car' AND weight > 2500"));
        onQueue.validate();
        assertEquals("JMSType = 'car' AND weight > 2500", onQueue.queueSelector().text());
        assertTrue(onQueue.toString().contains(", messageSelector=JMSType = 'car' AND weight > 2500"));
        QueueActivationSpec none = spec(s -> { });
        none.validate();
        assertEquals(null, none.queueSelector(), "no selector: every message");

        QueueActivationSpec onTopic = spec(x -> {
            x.setQueue(null);
            x.setTopic("prices");
            x.setSubscriptionName("shop");
            x.setMessageSelector("currency IN ('EUR', 'GBP') AND amount > 10");
        });
        onTopic.validate();
        assertEquals(null, onTopic.queueSelector(), "a subscription filters at publish");
        assertEquals("currency IN ('EUR', 'GBP') AND amount > 10", onTopic.effectiveSubscriptionFilter());
        assertEquals("activation property messageSelector and subscriptionFilter are both the subscription's filter"
                + " and differ ('amount > 10' and 'amount > 20'): set one of them", problem(x -> {
                    x.setQueue(null);
                    x.setTopic("prices");
                    x.setSubscriptionName("shop");
                    x.setMessageSelector("amount > 10");
                    x.setSubscriptionFilter("amount > 20");
                }));
        assertTrue(problem(x -> {
            x.setQueue(null);
            x.setTopic("prices");
            x.setSubscriptionName("shop");
            x.setMessageSelector("a = '" + "x".repeat(2000) + "'");
        }).startsWith("activation property messageSelector must be at most 2000 characters with topic"));
    }

    @Test
    void theJmsPropertiesThatMeanNothingHereAreRefusedNamingWhatToSet() {
        assertEquals("activation property destination names another queue than queue ('invoices' and 'orders'):"
                + " set one of them", problem(s -> s.setDestination("invoices")));
        assertEquals("activation property destinationType jakarta.jms.Topic needs a topic: set topic and"
                + " subscriptionName (a durable subscription), or destinationLookup naming a Topic of this adapter,"
                + " and subscriptionName", problem(s -> s.setDestinationType("jakarta.jms.Topic")));
        assertEquals("activation property destinationType must be jakarta.jms.Queue, jakarta.jms.Topic or empty,"
                + " was 'Queue'", problem(s -> s.setDestinationType("Queue")));
        assertEquals("activation property acknowledgeMode must be Auto-acknowledge, Dups-ok-acknowledge or empty,"
                + " was 'Client-acknowledge'", problem(s -> s.setAcknowledgeMode("Client-acknowledge")));
        assertTrue(problem(s -> {
            s.setQueue(null);
            s.setTopic("prices");
            s.setSubscriptionName("shop");
            s.setSubscriptionDurability("NonDurable");
        }).startsWith("activation property subscriptionDurability NonDurable is not supported: a subscription to a"
                + " topic is durable"));
        assertEquals("activation property subscriptionDurability must be Durable, NonDurable or empty, was 'yes'",
                problem(s -> s.setSubscriptionDurability("yes")));
        assertEquals("activation property maxSession must be between 1 and 256, was 0", problem(s -> s.setMaxSession(0)));
    }

    /**
     * destinationLookup takes the queue, or the topic, from this adapter's administered object; a
     * name bound to nothing or to another provider's destination is refused naming the property and
     * the name. What was found is kept for a later validation on a thread where JNDI shows less.
     */
    @Test
    void destinationLookupTakesTheQueueOrTopicFromThisAdaptersAdministeredObject() throws Exception {
        TestNaming.install();
        TestNaming.bind("java:global/jms/invoices", new io.sqlqueue.jms.JmsQueue("invoices"));
        TestNaming.bind("java:global/jms/prices", new io.sqlqueue.jms.JmsTopic("prices"));
        TestNaming.bind("java:global/jms/foreign", new ForeignQueue());
        try {
            QueueActivationSpec onQueue = spec(x -> {
                x.setQueue(null);
                x.setDestinationLookup("java:global/jms/invoices");
                x.setDestinationType("jakarta.jms.Queue");
            });
            onQueue.validate();
            assertEquals("invoices", onQueue.getQueue(), "the Queue's table");
            TestNaming.unbind("java:global/jms/invoices");
            assertDoesNotThrow(onQueue::validate, "validated again where the name is not visible: kept");

            QueueActivationSpec onTopic = spec(x -> {
                x.setQueue(null);
                x.setDestinationLookup("java:global/jms/prices");
                x.setDestinationType("jakarta.jms.Topic");
                x.setSubscriptionDurability("Durable");
                x.setSubscriptionName("shop");
            });
            onTopic.validate();
            assertTrue(onTopic.subscribes(), "a Topic is consumed through a durable subscription");
            assertEquals("prices_shop", onTopic.getQueue(), "the subscription's queue");

            assertEquals("activation property destinationLookup 'java:app/jms/missing' names nothing in JNDI (yet):"
                    + " java:app/jms/missing is not bound (the adapter looks it up at activation: name the object by a"
                    + " java:global/ or server-wide JNDI name where the application's java:app/ names are not"
                    + " visible)", problem(x -> x.setDestinationLookup("java:app/jms/missing")));
            assertEquals("activation property destinationLookup 'java:global/jms/foreign' names a "
                    + ForeignQueue.class.getName() + ", not a Queue or Topic of this adapter"
                    + " (io.sqlqueue.jms.JmsQueue or io.sqlqueue.jms.JmsTopic): define the administered object with"
                    + " this adapter's class, or name the table with queue (or topic and subscriptionName)",
                    problem(x -> x.setDestinationLookup("java:global/jms/foreign")));
            TestNaming.bind("java:global/jms/invoices", new io.sqlqueue.jms.JmsQueue("invoices"));
            assertEquals("activation property destinationLookup 'java:global/jms/invoices' names the queue 'invoices',"
                    + " queue names 'orders': set one of them", problem(x -> x.setDestinationLookup(
                            "java:global/jms/invoices")));
            assertEquals("activation property subscriptionName is required with topic: the durable subscription's"
                    + " name", problem(x -> {
                        x.setQueue(null);
                        x.setDestinationLookup("java:global/jms/prices");
                    }));
            assertEquals("activation property destinationType jakarta.jms.Queue does not match destinationLookup"
                    + " 'java:global/jms/prices', a Topic: set jakarta.jms.Topic or leave it empty", problem(x -> {
                        x.setQueue(null);
                        x.setSubscriptionName("shop");
                        x.setDestinationLookup("java:global/jms/prices");
                        x.setDestinationType("jakarta.jms.Queue");
                    }));
            assertEquals("activation property destinationLookup 'java:global/jms/unnamed': this Queue administered"
                    + " object has no name: set its name property to the queue table (e.g. orders or sales.orders)",
                    problem(x -> {
                        TestNaming.bind("java:global/jms/unnamed", new io.sqlqueue.jms.JmsQueue());
                        x.setDestinationLookup("java:global/jms/unnamed");
                    }));
        } finally {
            for (String name : new String[] {"invoices", "prices", "foreign", "unnamed"}) {
                TestNaming.unbind("java:global/jms/" + name);
            }
        }
    }

    /**
     * connectionFactoryLookup is accepted empty or naming this adapter's connection factory (and
     * then only checked); another provider's factory, or nothing, is refused.
     */
    @Test
    void connectionFactoryLookupMustNameThisAdaptersFactory() throws Exception {
        TestNaming.install();
        TestNaming.bind("java:global/jms/ours", new io.sqlqueue.outbound.jms.JmsConnectionFactory(null, null));
        TestNaming.bind("java:global/jms/theirs", new ForeignQueue());
        try {
            assertDoesNotThrow(() -> spec(x -> x.setConnectionFactoryLookup("java:global/jms/ours")).validate());
            assertEquals("activation property connectionFactoryLookup 'java:global/jms/theirs' names a "
                    + ForeignQueue.class.getName() + ", not a connection factory of this adapter: leave it empty (the"
                    + " bean's database is dataSourceJndiName or jdbcUrl) or name this adapter's connection factory",
                    problem(x -> x.setConnectionFactoryLookup("java:global/jms/theirs")));
            assertTrue(problem(x -> x.setConnectionFactoryLookup("jms/none")).startsWith(
                    "activation property connectionFactoryLookup 'jms/none' names nothing in JNDI (yet)"));
        } finally {
            TestNaming.unbind("java:global/jms/ours");
            TestNaming.unbind("java:global/jms/theirs");
        }
    }

    /** Another JMS provider's queue, as a server's own broker binds it. */
    private static final class ForeignQueue implements jakarta.jms.Queue {
        @Override
        public String getQueueName() {
            return "orders";
        }
    }
}
