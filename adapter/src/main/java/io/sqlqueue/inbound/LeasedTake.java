package io.sqlqueue.inbound;

import io.sqlqueue.api.QueueMessage;
import io.sqlqueue.engine.LeasedMessage;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * attemptCounting=beforeDelivery: the messages were leased in a committed transaction of their
 * own before the delivery began, which counted the attempt; inside the delivery transaction they
 * are deleted under that lease. A delivery that never finishes (the server died) has been counted,
 * and its messages come back when the lease runs out.
 */
final class LeasedTake implements Take {

    private final QueueActivation activation;
    private final List<LeasedMessage> leased;
    private final List<LeasedMessage> taken = new ArrayList<>();

    LeasedTake(QueueActivation activation, List<LeasedMessage> leased) {
        this.activation = activation;
        this.leased = leased;
    }

    @Override
    public List<QueueMessage> take(Connection c) throws SQLException {
        taken.addAll(activation.openTable(c).ackAll(c, leased)); // a lease another consumer took over is theirs
        return taken.stream().map(LeasedMessage::message).toList();
    }

    @Override
    public boolean foundNothing() {
        return false; // there were leases; any lost to another consumer are theirs to deliver
    }

    @Override
    public void committed() {
    }

    @Override
    public void giveBack() {
        activation.outcomes.giveBack(leased);
    }

    @Override
    public void failed(String error, Instant claimedAt) {
        activation.outcomes.failed(taken, error, claimedAt);
    }
}
