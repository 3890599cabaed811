package io.sqlqueue.inbound;

/** The inbound side on embedded H2 (XA through H2's JdbcDataSource). */
class H2InboundTest extends InboundContract {

    @Override
    protected String[] database() {
        return new String[] {"jdbc:h2:mem:inbound;DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=10000", "sa", ""};
    }
}
