package io.sqlqueue.outbound;

/** The outbound contract on embedded H2. */
class H2OutboundTest extends OutboundContract {

    @Override
    protected String[] database() {
        return new String[] {"jdbc:h2:mem:outbound;DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=10000", "sa", ""};
    }
}
