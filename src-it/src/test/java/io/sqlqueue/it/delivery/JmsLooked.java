package io.sqlqueue.it.delivery;

import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;

/**
 * {@link JmsFlaky}'s work on the queue a JMS bean names as JMS beans do: {@code destinationLookup}
 * naming a {@code Queue} administered object of the adapter ({@link DeliveryIT}'s web.xml), and
 * {@code connectionFactoryLookup} naming the adapter's connection factory. Bound to the adapter as
 * JmsFlaky is.
 */
@MessageDriven(activationConfig = {
    @ActivationConfigProperty(propertyName = "destinationLookup", propertyValue = DeliveryBeans.LOOKUP_QUEUE),
    @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
    @ActivationConfigProperty(propertyName = "connectionFactoryLookup", propertyValue = WakeSender.FACTORY),
    @ActivationConfigProperty(propertyName = "dataSourceJndiName", propertyValue = DeliveryBeans.DS),
    @ActivationConfigProperty(propertyName = "retryBackoff", propertyValue = "0"),
    @ActivationConfigProperty(propertyName = "maxRetryBackoff", propertyValue = "0"),
    @ActivationConfigProperty(propertyName = "pollInterval", propertyValue = "20")})
public class JmsLooked extends JmsFlaky {
}
