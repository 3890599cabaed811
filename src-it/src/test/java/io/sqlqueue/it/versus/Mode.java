package io.sqlqueue.it.versus;

/** The four ways the comparison delivers the same work. */
enum Mode {
    /** The adapter in {@code dataSourceJndiName} mode: claim, work and commit in one local transaction. */
    ADAPTER("adapter"),
    /** As {@link #ADAPTER}, to the JMS side's bean, a {@code jakarta.jms.MessageListener}: the JMS bean moved to the queue table. */
    ADAPTER_JMS("adapter-jms"),
    /**
     * JMS with a non-XA JDBC resource, which the transaction manager commits in one phase as the
     * transaction's last resource, between preparing and committing the broker's dequeue.
     */
    JMS("jms"),
    /** JMS with an XA JDBC resource: two-phase commit of the dequeue and the insert. */
    JMS_XA("jms-xa");

    final String label;

    Mode(String label) {
        this.label = label;
    }

    boolean xa() {
        return this == JMS_XA;
    }

    /** Whether the adapter delivers (from its queue table), not the server's broker. */
    boolean adapter() {
        return this == ADAPTER || this == ADAPTER_JMS;
    }
}
