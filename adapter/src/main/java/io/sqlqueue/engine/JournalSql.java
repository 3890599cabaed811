package io.sqlqueue.engine;

/** Every statement the engine runs against one queue's completion journal, written by a {@link Dialect}. */
record JournalSql(
        /* The journal's quoted, qualified name. */
        String tableName,
        /* :messageId :enqueuedAt :claimedAt :completedAt :attempts :outcome :consumer */
        SqlTemplate insert,
        /* :n (literal) :cutoff → update count: rows completed before :cutoff, deleted */
        SqlTemplate deleteBefore) {
}
