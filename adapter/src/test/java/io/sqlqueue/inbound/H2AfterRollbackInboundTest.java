package io.sqlqueue.inbound;

/**
 * The inbound side on embedded H2 with attemptCounting=afterRollback: the claim deletes in the
 * delivery transaction and failures are counted after the rollback. Tests whose exact counts need
 * counting before delivery skip themselves, saying why.
 */
class H2AfterRollbackInboundTest extends H2InboundTest {

    @Override
    protected String attemptCounting() {
        return QueueActivationSpec.AFTER_ROLLBACK;
    }
}
