package io.sqlqueue.it.batch;

import jakarta.batch.api.BatchProperty;
import jakarta.batch.api.chunk.ItemProcessor;
import jakarta.inject.Inject;

/** Passes items through, and fails the chunk holding the item equal to the batch property {@code failAt}. */
public class FailingProcessor implements ItemProcessor {

    @Inject
    @BatchProperty
    String failAt;

    @Override
    public Object processItem(Object item) {
        if (failAt != null && !failAt.isEmpty() && failAt.equals(item)) {
            throw new IllegalStateException("the test fails the chunk holding " + failAt);
        }
        return item;
    }
}
