package io.sqlqueue.it.versus;

/** The three ways the comparison delivers the same work. */
enum Mode {
    /** The adapter in {@code dataSourceJndiName} mode: claim, work and commit in one local transaction. */
    ADAPTER("adapter", "exactly once"),
    /** JMS with a non-XA JDBC resource: the broker's dequeue and the insert commit separately. */
    JMS("jms", "not atomic: a crash between the two commits duplicates or loses work"),
    /** JMS with an XA JDBC resource: two-phase commit of the dequeue and the insert. */
    JMS_XA("jms-xa", "exactly once (two-phase commit)");

    final String label;
    final String guarantee;

    Mode(String label, String guarantee) {
        this.label = label;
        this.guarantee = guarantee;
    }

    boolean xa() {
        return this == JMS_XA;
    }
}
