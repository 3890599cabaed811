package io.sqlqueue.outbound;

import io.sqlqueue.api.QueueMessage;
import io.sqlqueue.engine.Browse;
import io.sqlqueue.engine.MessageSelector;
import java.util.List;

/**
 * What a queue connection of this adapter offers the JMS sender's {@code QueueBrowser} besides
 * sending: a {@link Browse} of a queue, read a page at a time on the connection, in the caller's
 * transaction as any read of it (see {@link Browse} for what it shows and what it does not lock).
 * Database failures, and a closed connection, throw {@link io.sqlqueue.api.QueueException}.
 */
public interface QueueBrowsing {

    /**
     * A browse of {@code queue} filtered by {@code selector} (null: all), reading nothing yet.
     *
     * @throws IllegalArgumentException for a bad queue name
     */
    Browse browse(String queue, MessageSelector selector);

    /** The next messages of {@code browse} ({@link Browse#next}); empty once it has passed the last. */
    List<QueueMessage> next(Browse browse);
}
