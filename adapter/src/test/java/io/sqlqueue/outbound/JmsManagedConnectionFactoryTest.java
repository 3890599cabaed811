package io.sqlqueue.outbound;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sqlqueue.api.QueueConnection;
import io.sqlqueue.outbound.jms.JmsConnectionFactory;
import jakarta.jms.ConnectionFactory;
import jakarta.resource.spi.ConnectionDefinition;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import org.junit.jupiter.api.Test;

/** The JMS connection definition: its own class, the same properties, a serializable jakarta.jms.ConnectionFactory. */
class JmsManagedConnectionFactoryTest {

    private static JmsManagedConnectionFactory configured() {
        JmsManagedConnectionFactory f = new JmsManagedConnectionFactory();
        f.setJdbcUrl("jdbc:h2:mem:jmsdef");
        f.setUser("sa");
        f.setUseXA(false);
        return f;
    }

    @Test
    void itIsASecondConnectionDefinitionWithTheSamePropertiesAndEqualOnlyToItsOwnKind() {
        ConnectionDefinition definition = JmsManagedConnectionFactory.class.getAnnotation(ConnectionDefinition.class);
        assertEquals(ConnectionFactory.class, definition.connectionFactory());
        assertEquals(JmsConnectionFactory.class, definition.connectionFactoryImpl());
        assertEquals(QueueConnection.class, definition.connection(), "its connections are QueueConnection handles");
        assertEquals(io.sqlqueue.api.QueueConnectionFactory.class,
                QueueManagedConnectionFactory.class.getAnnotation(ConnectionDefinition.class).connectionFactory(),
                "the first definition is as it was");

        assertEquals(configured(), configured());
        assertEquals(configured().hashCode(), configured().hashCode());
        QueueManagedConnectionFactory queues = new QueueManagedConnectionFactory();
        queues.setJdbcUrl("jdbc:h2:mem:jmsdef");
        queues.setUser("sa");
        queues.setUseXA(false);
        assertNotEquals(queues, configured(), "another definition's factory, however configured");
        assertNotEquals(configured(), queues);
        assertTrue(configured().toString().startsWith("JmsManagedConnectionFactory[jdbcUrl=jdbc:h2:mem:jmsdef"),
                configured().toString());
    }

    @Test
    void itsConnectionFactoryIsAJmsOneAndSerializable() throws Exception {
        Object factory = configured().createConnectionFactory();
        assertInstanceOf(ConnectionFactory.class, factory);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(factory);
        }
        Object copy = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray())).readObject();
        assertInstanceOf(JmsConnectionFactory.class, copy);
    }
}
