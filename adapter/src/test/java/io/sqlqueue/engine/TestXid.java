package io.sqlqueue.engine;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicLong;
import javax.transaction.xa.Xid;

/** A unique transaction id for tests that drive XAResources the way a transaction manager does. */
public record TestXid(byte[] gtrid) implements Xid {

    private static final AtomicLong NEXT = new AtomicLong();

    /** A new id, unique across test runs against a database that outlives them. */
    public static TestXid next() {
        return new TestXid(ByteBuffer.allocate(16).putLong(System.nanoTime()).putLong(NEXT.incrementAndGet()).array());
    }

    @Override
    public int getFormatId() {
        return 0x5351;
    }

    @Override
    public byte[] getGlobalTransactionId() {
        return gtrid.clone();
    }

    @Override
    public byte[] getBranchQualifier() {
        return new byte[] {1};
    }
}
