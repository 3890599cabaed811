package io.sqlqueue.outbound;

import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;

/**
 * The driver's XAResource, telling its managed connection when a call fails: the server enlists
 * a pooled connection (start) before the application sends anything, so a connection the database
 * has dropped fails here first, and the pool's other idle connections must then be checked.
 */
final class BreakageAwareXAResource implements XAResource {

    private final XAResource driver;
    private final QueueManagedConnection owner;

    BreakageAwareXAResource(XAResource driver, QueueManagedConnection owner) {
        this.driver = driver;
        this.owner = owner;
    }

    private XAException failed(XAException e) {
        owner.checkAfterFailure(e);
        return e;
    }

    @Override
    public void start(Xid xid, int flags) throws XAException {
        try {
            driver.start(xid, flags);
        } catch (XAException e) {
            throw failed(e);
        }
    }

    @Override
    public void end(Xid xid, int flags) throws XAException {
        try {
            driver.end(xid, flags);
        } catch (XAException e) {
            throw failed(e);
        }
    }

    @Override
    public int prepare(Xid xid) throws XAException {
        try {
            return driver.prepare(xid);
        } catch (XAException e) {
            throw failed(e);
        }
    }

    @Override
    public void commit(Xid xid, boolean onePhase) throws XAException {
        try {
            driver.commit(xid, onePhase);
        } catch (XAException e) {
            throw failed(e);
        }
    }

    @Override
    public void rollback(Xid xid) throws XAException {
        try {
            driver.rollback(xid);
        } catch (XAException e) {
            throw failed(e);
        }
    }

    @Override
    public void forget(Xid xid) throws XAException {
        driver.forget(xid);
    }

    @Override
    public Xid[] recover(int flag) throws XAException {
        return driver.recover(flag);
    }

    @Override
    public boolean isSameRM(XAResource other) throws XAException {
        return driver.isSameRM(other instanceof BreakageAwareXAResource b ? b.driver : other);
    }

    @Override
    public int getTransactionTimeout() throws XAException {
        return driver.getTransactionTimeout();
    }

    @Override
    public boolean setTransactionTimeout(int seconds) throws XAException {
        return driver.setTransactionTimeout(seconds);
    }
}
