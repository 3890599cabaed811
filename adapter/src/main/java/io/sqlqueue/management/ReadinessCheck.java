package io.sqlqueue.management;

/**
 * A bean that can tell whether it can do its work now (MicroProfile Health readiness): a bean
 * registered through {@link PlatformMBeans} that implements it is checked on Payara's
 * {@code /health/ready} while it is registered. Called on the server's health request thread:
 * quick, and never throws.
 */
public interface ReadinessCheck {

    HealthReport readiness();
}
