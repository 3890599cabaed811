package io.sqlqueue.management;

/**
 * A bean whose own thread can stop or hang, and that can tell whether it still runs (MicroProfile
 * Health liveness): checked on Payara's {@code /health/live} while registered through
 * {@link PlatformMBeans}. Quick, and never throws.
 */
public interface LivenessCheck {

    HealthReport liveness();
}
