package io.sqlqueue.engine;

import java.util.List;

/** Every statement the engine runs against one queue's completion journal, written by a {@link Dialect}. */
record JournalSql(
        /* The journal's quoted, qualified name. */
        String tableName,
        /* CREATE statements, each safe to run when the object exists. */
        List<String> create,
        /* :messageId :enqueuedAt :claimedAt :completedAt :attempts :outcome :consumer */
        SqlTemplate insert,
        /* :n (literal) :cutoff → update count: rows completed before :cutoff, deleted */
        SqlTemplate deleteBefore) {
}
