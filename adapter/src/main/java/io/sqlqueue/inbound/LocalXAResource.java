package io.sqlqueue.inbound;

import java.sql.Connection;
import java.sql.SQLException;
import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;

/**
 * A one-phase resource over a plain JDBC connection, for databases without XA (SQL Server without
 * MS DTC): the transaction manager's commit commits the connection's local transaction. Exact when
 * it is the transaction's only resource (the TM then commits in one phase); next to other
 * resources the server treats it as a last resource, and a crash between the two commits can lose
 * or repeat a delivery. Prepare always votes yes without making anything durable (a local
 * transaction has no prepared state: should the server die before the commit, it rolls back when
 * the connection goes). A commit that fails is reported as rolled back only when the database said
 * so (SQLSTATE class 40); otherwise its outcome is unknown, and says so (XA_HEURHAZ).
 */
final class LocalXAResource implements XAResource {

    private final Connection connection;

    LocalXAResource(Connection connection) {
        this.connection = connection;
    }

    @Override
    public void start(Xid xid, int flags) throws XAException {
        if (flags == TMJOIN || flags == TMRESUME) {
            return;
        }
        try {
            connection.setAutoCommit(false);
        } catch (SQLException e) {
            throw error(XAException.XAER_RMFAIL, e);
        }
    }

    @Override
    public void end(Xid xid, int flags) {
        // the local transaction stays open until commit or rollback
    }

    @Override
    public int prepare(Xid xid) {
        return XA_OK;
    }

    @Override
    public void commit(Xid xid, boolean onePhase) throws XAException {
        finish(true);
    }

    @Override
    public void rollback(Xid xid) throws XAException {
        finish(false);
    }

    private void finish(boolean commit) throws XAException {
        try {
            if (commit) {
                connection.commit();
            } else {
                connection.rollback();
            }
        } catch (SQLException e) {
            boolean rolledBack = e.getSQLState() != null && e.getSQLState().startsWith("40");
            throw error(!commit ? XAException.XAER_RMFAIL
                    : rolledBack ? XAException.XA_RBROLLBACK : XAException.XA_HEURHAZ, e);
        } finally {
            try {
                connection.setAutoCommit(true);
            } catch (SQLException broken) {
                // the connection is gone; the delivery thread finds out on its next statement
            }
        }
    }

    private static XAException error(int code, SQLException cause) {
        XAException e = new XAException(code);
        e.initCause(cause);
        return e;
    }

    @Override
    public void forget(Xid xid) {
        // nothing is remembered
    }

    @Override
    public Xid[] recover(int flag) {
        return new Xid[0]; // nothing is ever durably prepared
    }

    @Override
    public boolean isSameRM(XAResource other) {
        return other == this;
    }

    @Override
    public int getTransactionTimeout() {
        return 0;
    }

    @Override
    public boolean setTransactionTimeout(int seconds) {
        return false;
    }
}
