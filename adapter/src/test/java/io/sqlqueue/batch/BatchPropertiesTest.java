package io.sqlqueue.batch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** The reader's and writer's batch properties: each bad value fails at open, naming the property. */
class BatchPropertiesTest {

    private static String openFails(QueueItemReader reader) {
        return assertThrows(IllegalArgumentException.class, () -> reader.open(null)).getMessage();
    }

    private static String openFails(QueueItemWriter writer) {
        return assertThrows(IllegalArgumentException.class, () -> writer.open(null)).getMessage();
    }

    @Test
    void theReaderNamesAMissingOrMalformedProperty() {
        QueueItemReader reader = new QueueItemReader();
        assertEquals("QueueItemReader: batch property queue must be set", openFails(reader));
        reader.queue = "orders";
        reader.claimSize = "ten";
        assertEquals("QueueItemReader: batch property claimSize ('ten') must be a whole number from 1 to 1000",
                openFails(reader));
        reader.claimSize = "1001";
        assertEquals("QueueItemReader: batch property claimSize ('1001') must be from 1 to 1000", openFails(reader));
        reader.claimSize = "100";
        reader.idleTimeout = "-2";
        assertEquals("QueueItemReader: batch property idleTimeout ('-2') must be from -1 to 9223372036854",
                openFails(reader));
        reader.idleTimeout = "0";
        reader.createQueue = "yes";
        assertEquals("QueueItemReader: batch property createQueue ('yes') must be true or false", openFails(reader));
        reader.createQueue = null;
        assertEquals("QueueItemReader: batch property dataSource must be set", openFails(reader));
    }

    @Test
    void theWriterNeedsExactlyOneWayToTheDatabaseAndWellFormedHeaders() {
        QueueItemWriter writer = new QueueItemWriter();
        writer.queue = "orders";
        assertEquals("QueueItemWriter: batch property dataSource or connectionFactory: set exactly one of them",
                openFails(writer));
        writer.dataSource = "java:global/jdbc/orders";
        writer.connectionFactory = "java:app/queue/orders";
        assertEquals("QueueItemWriter: batch property dataSource ('java:global/jdbc/orders') or connectionFactory"
                + " ('java:app/queue/orders'): set exactly one of them", openFails(writer));
        writer.headers = "type:order";
        assertEquals("QueueItemWriter: batch property headers ('type:order') must be name=value pairs separated by"
                + " commas", openFails(writer));
        writer.headers = null;
        writer.priority = "40000";
        assertEquals("QueueItemWriter: batch property priority ('40000') must be from -32768 to 32767", openFails(writer));
    }
}
