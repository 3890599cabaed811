package io.sqlqueue.jms;

import io.sqlqueue.engine.TableName;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.Queue;
import jakarta.resource.Referenceable;
import jakarta.resource.spi.AdministeredObject;
import jakarta.resource.spi.ConfigProperty;
import java.io.Serializable;
import javax.naming.Reference;

/**
 * A queue table as a Jakarta Messaging {@link Queue}: the administered object an application looks
 * up ({@code @Resource(lookup = "java:app/jms/orders") Queue orders}) and sends to with this
 * adapter's JMS connection factory, or that {@code Session.createQueue} returns. Its one property,
 * {@code name}, is the table. Equal by name; immutable once configured; serializable and
 * referenceable, as JNDI binds it.
 */
@AdministeredObject(adminObjectInterfaces = Queue.class)
public class JmsQueue implements Queue, Serializable, Referenceable {

    private static final long serialVersionUID = 1L;

    @ConfigProperty(description = "The queue table: orders, or sales.orders with a schema (letters, digits and"
            + " underscores). A MessageListener bean consumes it with queue (or destination) set to the same name.")
    private String name = "";

    private Reference reference;

    /** An unnamed queue, for the server to configure. */
    public JmsQueue() {
    }

    /**
     * @throws IllegalArgumentException when {@code name} is not a valid queue name
     */
    public JmsQueue(String name) {
        setName(name);
    }

    public String getName() {
        return name;
    }

    /**
     * @throws IllegalArgumentException naming the problem when {@code name} is not {@code table} or
     *         {@code schema.table} of letters, digits and underscores
     */
    public void setName(String name) {
        String trimmed = name == null ? "" : name.trim();
        TableName.parse(trimmed);
        this.name = trimmed;
    }

    /**
     * @throws InvalidDestinationException when the server never set the {@code name} property
     */
    @Override
    public String getQueueName() throws InvalidDestinationException {
        if (name.isEmpty()) {
            throw new InvalidDestinationException("this Queue administered object has no name: set its name"
                    + " property to the queue table (e.g. orders or sales.orders)");
        }
        return name;
    }

    @Override
    public void setReference(Reference reference) {
        this.reference = reference;
    }

    @Override
    public Reference getReference() {
        return reference;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof JmsQueue q && name.equals(q.name);
    }

    @Override
    public int hashCode() {
        return name.hashCode();
    }

    /** The queue's name, as the specification suggests. */
    @Override
    public String toString() {
        return name;
    }
}
