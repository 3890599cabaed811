package io.sqlqueue.outbound;

/** The JMS sender on embedded H2. */
class H2JmsSenderTest extends JmsSenderContract {

    @Override
    protected String[] database() {
        return new String[] {"jdbc:h2:mem:jmssender;DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=10000", "sa", ""};
    }
}
