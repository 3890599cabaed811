package io.sqlqueue.sample;

import jakarta.annotation.sql.DataSourceDefinition;
import jakarta.ejb.Singleton;

/**
 * The sample's JDBC resource in the WAR for a standalone adapter (Payara Micro): embedded H2
 * unless the SQLQUEUE_SAMPLE_* variables, read by Payara at deployment, say otherwise. An
 * annotation because Payara checks a web.xml URL against its schema before it replaces variables.
 * The WAR inside the EAR leaves this class out and declares the resource in its web.xml: WildFly
 * reads no variables in a data source definition.
 */
@DataSourceDefinition(
        name = SampleDatabase.JNDI_NAME,
        className = "${ENV=SQLQUEUE_SAMPLE_DATASOURCE:org.h2.jdbcx.JdbcDataSource}",
        url = "${ENV=SQLQUEUE_SAMPLE_URL:jdbc:h2:mem:sample;DB_CLOSE_DELAY=-1}",
        user = "${ENV=SQLQUEUE_SAMPLE_USER:sa}",
        password = "${ENV=SQLQUEUE_SAMPLE_PASSWORD:sa}",
        transactional = true,
        minPoolSize = 2,
        maxPoolSize = 32,
        // Payara: check each connection before handing it out. Without it the pool hands out
        // connections that died in a database outage for ever after (LifecycleIT's outage test
        // never recovered). "meta-data" catches those a failed call has marked broken; both
        // alternatives tried failed redeployments in LifecycleIT: custom-validation with
        // JDBC40ConnectionValidation (it rejected healthy PostgreSQL connections used from the
        // adapter's threads) and fail-all-connections (one failed clean-up destroyed every
        // connection of the pool, those in use too).
        properties = {
            "fish.payara.is-connection-validation-required=true",
            "fish.payara.connection-validation-method=meta-data"})
@Singleton
public class StandaloneDatabase {
}
