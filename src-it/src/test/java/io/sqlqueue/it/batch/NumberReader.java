package io.sqlqueue.it.batch;

import jakarta.batch.api.BatchProperty;
import jakarta.batch.api.chunk.AbstractItemReader;
import jakarta.inject.Inject;
import java.io.Serializable;

/** Reads the texts {@code <prefix>0} to {@code <prefix><count-1>}; its checkpoint is the next number. */
public class NumberReader extends AbstractItemReader {

    @Inject
    @BatchProperty
    String count;
    @Inject
    @BatchProperty
    String prefix;

    private int next;

    @Override
    public void open(Serializable checkpoint) {
        next = checkpoint == null ? 0 : (Integer) checkpoint;
    }

    @Override
    public Object readItem() {
        return next < Integer.parseInt(count) ? prefix + next++ : null;
    }

    @Override
    public Serializable checkpointInfo() {
        return next;
    }
}
