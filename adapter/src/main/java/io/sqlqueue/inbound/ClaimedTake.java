package io.sqlqueue.inbound;

import io.sqlqueue.api.QueueMessage;
import io.sqlqueue.engine.UndeliverableMessage;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * attemptCounting=afterRollback: the claim deletes the next messages inside the delivery
 * transaction, and a failure is counted after the rollback, in a transaction of its own: one
 * statement fewer per delivery than {@link LeasedTake} (and a commit fewer for a message that
 * arrives alone), but a delivery that never finishes (the server died in it) is never counted,
 * and a delivery on another thread can catch a message between the rollback and the count (so a
 * bean may see it once more than maxAttempts).
 */
final class ClaimedTake implements Take {

    private final QueueActivation activation;
    /** Told what the claim found before the bean runs: the poller's back-off depends on it. */
    private final Take.Report report;
    private final List<UndeliverableMessage> deadLettered = new ArrayList<>();
    private List<QueueMessage> claimed = List.of();

    ClaimedTake(QueueActivation activation, Take.Report report) {
        this.activation = activation;
        this.report = report;
    }

    @Override
    public List<QueueMessage> take(Connection c) throws SQLException {
        claimed = activation.table().claim(c, activation.claimSize, deadLettered::add);
        report.took(!claimed.isEmpty() || !deadLettered.isEmpty());
        for (UndeliverableMessage m : deadLettered) {
            activation.outcomes.journalDeadLettered(c, m); // in the transaction, as the move is
        }
        return claimed;
    }

    @Override
    public boolean foundNothing() {
        return claimed.isEmpty() && deadLettered.isEmpty();
    }

    @Override
    public void committed() {
        deadLettered.forEach(activation.outcomes::countDeadLettered);
    }

    @Override
    public void giveBack() {
        // the rollback put the claimed rows back untouched: nothing was counted
    }

    @Override
    public void failed(String error, Instant claimedAt) {
        activation.outcomes.recordFailures(claimed, error, claimedAt);
    }
}
