package io.sqlqueue.console;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import javax.management.Attribute;
import javax.management.AttributeList;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import javax.management.RuntimeMBeanException;
import javax.management.openmbean.CompositeData;

/**
 * The adapter's queue MXBeans ({@code io.sqlqueue:type=Queue,database=…,name=…}) as the console
 * uses them, through an MBeanServer by name and open types only: the console holds no adapter
 * class and no SQL. A queue has a bean while some message-driven bean consumes it. Every call that
 * changes dead letters passes the acting user's name, which the adapter writes to its audit table
 * in the change's transaction.
 *
 * <p><b>Errors.</b> A name that is not one of the adapter's queue beans fails with
 * {@link IllegalArgumentException} before any call; an operation the adapter refuses (bad
 * arguments, an unreachable database) with {@link ConsoleException} carrying the adapter's message.
 *
 * <p><b>Threads.</b> Thread-safe, as the MBeanServer is.
 */
public final class QueueBeans {

    /** The adapter's JMX domain. */
    public static final String DOMAIN = "io.sqlqueue";

    private static final String[] FIGURES = {"Name", "Database", "Ready", "Delayed", "Leased", "DeadLettered",
        "OldestReadyAgeMillis"};
    private static final String STRING = String.class.getName();
    private static final String[] IDS_AND_ACTOR = {long[].class.getName(), STRING};
    private static final String[] GROUP_AND_ACTOR = {STRING, STRING, STRING};

    private final MBeanServer server;

    public QueueBeans(MBeanServer server) {
        this.server = server;
    }

    /** One queue's figures; -1 for a count the adapter could not read. */
    public record Queue(String objectName, String name, String database, long ready, long delayed, long leased,
            long deadLettered, long oldestReadyAgeMillis) {
    }

    /** The queues whose beans are registered, by name then database. */
    public List<Queue> queues() {
        List<Queue> queues = new ArrayList<>();
        for (ObjectName name : server.queryNames(pattern(), null)) {
            try {
                AttributeList values = server.getAttributes(name, FIGURES);
                Object[] v = new Object[FIGURES.length];
                for (Attribute a : values.asList()) {
                    for (int i = 0; i < FIGURES.length; i++) {
                        if (FIGURES[i].equals(a.getName())) {
                            v[i] = a.getValue();
                        }
                    }
                }
                queues.add(new Queue(name.getCanonicalName(), (String) v[0], (String) v[1], count(v[2]), count(v[3]),
                        count(v[4]), count(v[5]), count(v[6])));
            } catch (JMException e) {
                // unregistered between the query and the read: the queue has no consumer any more
            }
        }
        queues.sort(Comparator.comparing(Queue::name).thenComparing(Queue::database));
        return queues;
    }

    private static long count(Object value) {
        return value instanceof Number n ? n.longValue() : -1;
    }

    private static ObjectName pattern() {
        try {
            return new ObjectName(DOMAIN + ":type=Queue,*");
        } catch (MalformedObjectNameException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The registered queue bean of this name, as {@link Queue#objectName()} gives it.
     *
     * @throws IllegalArgumentException for anything else: no other bean is ever called
     */
    public ObjectName queue(String objectName) {
        ObjectName name;
        try {
            name = new ObjectName(objectName == null ? "" : objectName);
        } catch (MalformedObjectNameException e) {
            throw new IllegalArgumentException("not a queue: " + objectName);
        }
        if (name.isPattern() || !pattern().apply(name) || !server.isRegistered(name)) {
            throw new IllegalArgumentException("no such queue (its consumers may have been undeployed): " + objectName);
        }
        return name;
    }

    /** The dead letters' groups: items reason, errorClass, count, firstFailedAt, lastFailedAt. */
    public CompositeData[] groups(ObjectName queue) {
        return (CompositeData[]) invoke(queue, "deadLetterGroups", new Object[0], new String[0]);
    }

    /**
     * A page of dead letters, newest failure first: the whole table when {@code group} is null.
     * Items id, priority, enqueuedAt, failedAt, attempts, dedupKey, orderingKey, reason, errorClass.
     */
    public CompositeData[] page(ObjectName queue, Group group, int offset, int limit) {
        return (CompositeData[]) invoke(queue, "deadLetterPage", new Object[] {group == null,
            group == null ? null : group.reason(), group == null ? null : group.errorClass(), offset, limit},
                new String[] {"boolean", STRING, STRING, "int", "int"});
    }

    /** One dead letter with headers, body and history, or null when there is none with this id. */
    public CompositeData message(ObjectName queue, long id) {
        return (CompositeData) invoke(queue, "deadLetter", new Object[] {id}, new String[] {"long"});
    }

    /**
     * A dead letter requeued edited, as it was: items edit (an audit row, as {@link #audit}), headers,
     * headerLines, body (null when the edit's release kept none) and history; null when no edit
     * replaced a dead letter with this id.
     */
    public CompositeData edited(ObjectName queue, long id) {
        return (CompositeData) invoke(queue, "editedDeadLetter", new Object[] {id}, new String[] {"long"});
    }

    /** Requeues the dead letters with these ids; returns how many moved. */
    public int requeue(ObjectName queue, long[] ids, String actor) {
        return (Integer) invoke(queue, "requeueSelectedDeadLetters", new Object[] {ids, actor}, IDS_AND_ACTOR);
    }

    /** Requeues a group; returns how many moved. */
    public int requeue(ObjectName queue, Group group, String actor) {
        return (Integer) invoke(queue, "requeueDeadLetterGroup",
                new Object[] {group.reason(), group.errorClass(), actor}, GROUP_AND_ACTOR);
    }

    /**
     * Requeues dead letter {@code id} as a new message with this text body (null keeps the
     * original's bytes) and these headers ({@code name=value} lines, replacing the original's);
     * returns the new message's id, or 0 when there is no such dead letter.
     */
    public long requeueEdited(ObjectName queue, long id, String body, String headers, String actor) {
        return (Long) invoke(queue, "requeueEditedDeadLetter", new Object[] {id, body, headers, actor},
                new String[] {"long", STRING, STRING, STRING});
    }

    /** Deletes the dead letters with these ids; returns how many. */
    public int delete(ObjectName queue, long[] ids, String actor) {
        return (Integer) invoke(queue, "deleteSelectedDeadLetters", new Object[] {ids, actor}, IDS_AND_ACTOR);
    }

    /** Deletes a group; returns how many. */
    public int delete(ObjectName queue, Group group, String actor) {
        return (Integer) invoke(queue, "deleteDeadLetterGroup",
                new Object[] {group.reason(), group.errorClass(), actor}, GROUP_AND_ACTOR);
    }

    /**
     * The newest audit rows of the queue: items id, actedAt, actor, operation, queue, count, messageIds,
     * reason, errorClass, criterion.
     */
    public CompositeData[] audit(ObjectName queue, int limit) {
        return (CompositeData[]) invoke(queue, "auditTrail", new Object[] {limit}, new String[] {"int"});
    }

    /** A group of dead letters: the reason and the exception class, either null (a row without one). */
    public record Group(String reason, String errorClass) {
    }

    private Object invoke(ObjectName queue, String operation, Object[] arguments, String[] signature) {
        try {
            return server.invoke(queue, operation, arguments, signature);
        } catch (RuntimeMBeanException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw new ConsoleException(cause.getMessage(), e);
        } catch (JMException e) {
            throw new ConsoleException(operation + " on " + queue + " failed: " + e.getMessage(), e);
        }
    }
}
