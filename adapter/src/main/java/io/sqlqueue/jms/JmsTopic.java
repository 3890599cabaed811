package io.sqlqueue.jms;

import io.sqlqueue.engine.Topic;
import jakarta.jms.InvalidDestinationException;
import jakarta.resource.Referenceable;
import jakarta.resource.spi.AdministeredObject;
import jakarta.resource.spi.ConfigProperty;
import java.io.Serializable;
import javax.naming.Reference;

/**
 * A topic of this adapter as a Jakarta Messaging {@link jakarta.jms.Topic}: sending to it publishes
 * a copy to the queue of each of its durable subscriptions whose filter matches
 * ({@code QueueConnection.publish}). Its one property, {@code name}, is the topic. Equal by name;
 * immutable once configured; serializable and referenceable, as JNDI binds it.
 */
@AdministeredObject(adminObjectInterfaces = jakarta.jms.Topic.class)
public class JmsTopic implements jakarta.jms.Topic, Serializable, Referenceable {

    private static final long serialVersionUID = 1L;

    @ConfigProperty(description = "The topic: prices, or sales.prices with a schema (letters, digits and underscores),"
            + " as its subscribers name it in their topic activation property.")
    private String name = "";

    private Reference reference;

    /** An unnamed topic, for the server to configure. */
    public JmsTopic() {
    }

    /**
     * @throws IllegalArgumentException when {@code name} is not a valid topic name
     */
    public JmsTopic(String name) {
        setName(name);
    }

    public String getName() {
        return name;
    }

    /**
     * @throws IllegalArgumentException naming the problem when {@code name} is not {@code topic} or
     *         {@code schema.topic} of letters, digits and underscores
     */
    public void setName(String name) {
        String trimmed = name == null ? "" : name.trim();
        Topic.parse(trimmed);
        this.name = trimmed;
    }

    /**
     * @throws InvalidDestinationException when the server never set the {@code name} property
     */
    @Override
    public String getTopicName() throws InvalidDestinationException {
        if (name.isEmpty()) {
            throw new InvalidDestinationException("this Topic administered object has no name: set its name"
                    + " property to the topic (e.g. prices or sales.prices)");
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
        return o instanceof JmsTopic t && name.equals(t.name);
    }

    @Override
    public int hashCode() {
        return name.hashCode();
    }

    /** The topic's name, as the specification suggests. */
    @Override
    public String toString() {
        return name;
    }
}
