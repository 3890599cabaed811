package io.sqlqueue.inbound;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sqlqueue.api.UnrecoverableMessageException;
import io.sqlqueue.engine.DeliveryFailure;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.junit.jupiter.api.Test;

class ExceptionPolicyTest {

    private static final ExceptionPolicy NONE = ExceptionPolicy.of("", "");

    @Test
    void withoutListsEveryFailureButTheApisIsRetried() {
        DeliveryFailure f = NONE.failure(new RuntimeException(new IllegalStateException("down")));
        assertFalse(f.unrecoverable());
        assertEquals("java.lang.IllegalStateException: down", f.error());
        assertEquals("java.lang.IllegalStateException", f.errorClass());
        DeliveryFailure api = NONE.failure(new RuntimeException(null, new UnrecoverableMessageException("no such order")));
        assertTrue(api.unrecoverable());
        assertEquals("io.sqlqueue.api.UnrecoverableMessageException", api.errorClass());
    }

    @Test
    void unrecoverableMatchesSubclassesAnywhereInTheCauseChainAndWinsOverRetryable() {
        ExceptionPolicy p = ExceptionPolicy.of("java.lang.IllegalArgumentException", "java.lang.RuntimeException");
        DeliveryFailure f = p.failure(new IllegalStateException("outer", new NumberFormatException("x")));
        assertTrue(f.unrecoverable());
        assertTrue(f.error().endsWith("[not retried: java.lang.NumberFormatException is one of unrecoverableExceptions]"));
        assertFalse(p.failure(new IllegalStateException("state")).unrecoverable());
    }

    @Test
    void retryableListsTheOnlyFailuresRetried() {
        ExceptionPolicy p = ExceptionPolicy.of("", "java.io.IOException");
        assertFalse(p.failure(new UncheckedIOException(new IOException("reset"))).unrecoverable());
        assertTrue(p.failure(new IllegalStateException("bug")).unrecoverable());
        assertNull(DeliveryFailure.retryable("rolled back").errorClass());
    }
}
