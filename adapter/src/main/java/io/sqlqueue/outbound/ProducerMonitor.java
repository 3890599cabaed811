package io.sqlqueue.outbound;

import io.sqlqueue.management.HealthReport;
import io.sqlqueue.management.PlatformMBeans;
import io.sqlqueue.management.ProducerMXBean;
import io.sqlqueue.management.ReadinessCheck;
import io.sqlqueue.management.RecentDurations;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;
import javax.management.ObjectName;

/**
 * A connection factory's figures for JMX. JCA gives a factory no end of life, so the bean lives
 * while the factory has managed connections: registered with the first, unregistered when the
 * pool has destroyed the last (an undeploy empties the pool). Its readiness check
 * ({@link FactoryReadiness}) lives as long.
 */
final class ProducerMonitor implements ProducerMXBean, ReadinessCheck {

    private final String factory;
    private final LongAdder sent = new LongAdder();
    private final LongAdder cancelled = new LongAdder();
    private final LongAdder errors = new LongAdder();
    private final RecentDurations sendTimes = new RecentDurations();
    private volatile String lastError = "";
    private int connections; // guarded by this
    private ObjectName name; // guarded by this
    private final FactoryReadiness readiness;

    /** @param databaseAnswers the factory's probe: one connection opened, validated and closed */
    ProducerMonitor(String factory, BooleanSupplier databaseAnswers) {
        this.factory = factory;
        this.readiness = new FactoryReadiness(factory, databaseAnswers, System::nanoTime);
    }

    synchronized void connectionCreated() {
        if (connections++ == 0) {
            name = PlatformMBeans.register(this, "Producer", "name", factory);
        }
    }

    synchronized void connectionDestroyed() {
        if (connections > 0 && --connections == 0) {
            PlatformMBeans.unregister(name);
            name = null;
        }
    }

    void sent(int messages, long startNanos) {
        sendTimes.record(System.nanoTime() - startNanos);
        sent.add(messages);
        readiness.sendSucceeded();
    }

    /** A cancel the database answered: it removed the message, or found it gone or in delivery. */
    void cancelled(boolean removed) {
        if (removed) {
            cancelled.increment();
        }
        readiness.sendSucceeded();
    }

    void failed(String error) {
        errors.increment();
        lastError = error;
        readiness.sendFailed(error);
    }

    @Override
    public HealthReport readiness() {
        return readiness.readiness();
    }

    @Override
    public String getReadiness() {
        return readiness().summary();
    }

    @Override
    public String getFactory() {
        return factory;
    }

    @Override
    public long getSent() {
        return sent.sum();
    }

    @Override
    public long getCancelled() {
        return cancelled.sum();
    }

    @Override
    public long getErrors() {
        return errors.sum();
    }

    @Override
    public double getSendP50Millis() {
        return sendTimes.percentileMillis(50);
    }

    @Override
    public double getSendP95Millis() {
        return sendTimes.percentileMillis(95);
    }

    @Override
    public double getSendP99Millis() {
        return sendTimes.percentileMillis(99);
    }

    @Override
    public String getLastError() {
        return lastError;
    }
}
