package io.sqlqueue.engine;

import io.sqlqueue.api.QueueMessage;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A walk through the messages of one queue that a consumer could take now, in the order the queue
 * delivers them, a page at a time: what a JMS {@code QueueBrowser} shows. From {@link QueueTable#browse}.
 *
 * <p><b>What it shows.</b> Rows that are ready (their delivery time reached, no lease that has not
 * run out, not waiting for a retry) and not expired, by the database's clock, highest priority
 * first and FIFO within a priority; as a delivery would show them (the attempt is the delivery
 * count a consumer would see), those a {@link MessageSelector} selects when there is one,
 * evaluated as a consumer's ({@link SelectorValues}). Not shown: delayed messages, messages under a
 * lease or taken by a transacted delivery that has not ended (on SQL Server; on PostgreSQL and H2
 * the last committed row still shows until that delivery commits), expired ones, dead letters, and
 * rows no delivery can decode (the next claim dead-letters them). Messages behind an earlier one
 * of their ordering key are shown in their place, as the queue holds them. As the Artemis broker's
 * browser, which shows neither scheduled nor in-flight messages.
 *
 * <p><b>Not a snapshot.</b> Each page is read when the one before is used up, {@value #PAGE} rows
 * at a time from after the last row read (a keyset on the dequeue order, so a page costs the same
 * however deep it is), so a message consumed meanwhile may still be shown and a message sent
 * meanwhile shows when it falls after the place reached, as the Jakarta Messaging specification
 * allows. Reading changes nothing, keeps no lock past the row being read, and waits for nothing
 * a consumer holds where the database can skip it (see {@link QueueSql#browse}). It sees what the
 * connection's transaction sees: committed messages, and the uncommitted sends of that same
 * transaction; never another's.
 *
 * <p><b>Cost.</b> With a selector, every row read is decoded and tested in Java, as a consumer's
 * selecting pick does: a page that selects nothing is followed by the next, so a walk past N
 * messages the selector does not take reads N rows. Not thread-safe: one walk, one thread.
 */
public final class Browse {

    /** The most rows one page reads. */
    public static final int PAGE = 100;

    private final QueueTable queue;
    private final MessageSelector selector;
    private Dialect.Place after;
    private boolean ended;

    Browse(QueueTable queue, MessageSelector selector) {
        this.queue = Objects.requireNonNull(queue, "queue");
        this.selector = selector;
    }

    /**
     * The next messages of the walk, read on {@code c}: those of the next page the selector
     * selects, reading on while pages select none; an empty list once the walk has passed the
     * last message (and at every call after that).
     */
    public List<QueueMessage> next(Connection c) throws SQLException {
        while (!ended) {
            QueueTable.BrowsedRows page = queue.browsePage(c, after, PAGE);
            ended = !page.full();
            after = page.last();
            List<QueueMessage> shown = new ArrayList<>(page.messages().size());
            for (QueueMessage m : page.messages()) {
                if (selector == null || selector.matches(SelectorValues.ofDelivered(m))) {
                    shown.add(m);
                }
            }
            if (!shown.isEmpty()) {
                return shown;
            }
        }
        return List.of();
    }

    /** The queue walked. */
    public QueueTable queue() {
        return queue;
    }
}
