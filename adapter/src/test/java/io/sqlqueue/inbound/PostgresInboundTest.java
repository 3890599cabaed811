package io.sqlqueue.inbound;

/** The inbound side on PostgreSQL (SQLQUEUE_PG_*); each test skipped, visibly, without it. */
class PostgresInboundTest extends InboundContract {

    @Override
    protected String[] database() {
        return new String[] {System.getenv("SQLQUEUE_PG_URL"), System.getenv("SQLQUEUE_PG_USER"),
                System.getenv("SQLQUEUE_PG_PASSWORD")};
    }
}
