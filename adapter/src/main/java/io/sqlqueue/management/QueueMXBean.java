package io.sqlqueue.management;

/**
 * A queue's table as its consumers see it, registered as
 * {@code io.sqlqueue:type=Queue,database=<database>,name=<queue>} while some bean consumes it (the
 * database as the consumers reach it: the JNDI name of a server resource, or the JDBC URL without
 * secrets; same-named queues of two databases are two beans). The figures are read from the database at most once a second
 * however often they are asked for, so a console polling them does not load the database. Each
 * attribute's {@link Description} is what JMX consoles and {@code /metrics} show for it.
 */
public interface QueueMXBean {

    @Description("The queue's name")
    String getName();

    @Description("The database: the JNDI name of the server resource, or the JDBC URL without secrets")
    String getDatabase();

    /** -1 while the database cannot be read, as the other counts. */
    @Description("Messages visible now, expired leases included")
    long getReady();

    @Description("Messages not yet visible: delayed at enqueue or waiting out a retry back-off")
    long getDelayed();

    @Description("Messages claimed under a lease that has not run out")
    long getLeased();

    @Description("Rows in the dead-letter table")
    long getDeadLettered();

    /** The poller's expiry sweep removes them at most 30 s later. */
    @Description("Messages whose time to live has run out, still in the queue table (and counted in ready,"
            + " delayed or leased) until a consumer or its poller's expiry sweep removes them")
    long getExpired();

    @Description("How long the oldest ready message has waited; 0 when none is ready")
    long getOldestReadyAgeMillis();

    /**
     * Moves up to {@code max} dead letters, oldest failure first, back into the queue, ready now
     * with their attempts reset (and a new id). Works in batches, one transaction each; a failure
     * leaves the batches before it moved and reports the error. A dead letter whose dedup key is
     * queued already stays where it is. Each batch's transaction writes its audit row (operation
     * {@code requeue}, criterion {@code oldest failures first}) naming the caller ({@link JmxCaller}:
     * the JMX connector's principal, else {@code jmx}).
     *
     * @return how many were moved
     */
    int requeueDeadLetters(int max);

    /**
     * Deletes the dead letters that failed longer ago than {@code olderThan}, an ISO-8601
     * duration such as {@code P7D} or {@code PT12H}, in batches, one transaction each, which writes
     * its audit row (operation {@code delete}, criterion {@code failed before <instant>}) naming the
     * caller as {@link #requeueDeadLetters(int)} does.
     *
     * @return how many were deleted
     */
    int purgeDeadLetters(String olderThan);

    // ---- the dead-letter console's operations: open types only, every change audited -------------

    /**
     * The dead letters grouped by reason and exception class, the largest group first, at most 200
     * groups; each a {@code CompositeData} of {@link DeadLetterViews.Group}'s items.
     */
    DeadLetterViews.Group[] deadLetterGroups();

    /**
     * A page of the dead letters, newest failure first, without headers and bodies: all of them
     * when {@code wholeTable}, else those whose reason and exception class are exactly these (null
     * matches a row without one). Each a {@code CompositeData} of {@link DeadLetterViews.Row}'s items.
     *
     * @param offset at least 0
     * @param limit  1 to 500
     */
    DeadLetterViews.Row[] deadLetterPage(boolean wholeTable, String reason, String errorClass, int offset, int limit);

    /**
     * One dead letter with its headers, body and journal history ({@link DeadLetterViews.Message}'s
     * items), or null when the dead-letter table has none with this id.
     */
    DeadLetterViews.Message deadLetter(long id);

    /**
     * The dead letter {@code id} as it was before an operator requeued it edited as a new message
     * ({@link #requeueEditedDeadLetter}): the edit's audit row, the original's headers and body, and
     * its journal history ({@link DeadLetterViews.Edited}'s items); null when no edit replaced a dead
     * letter with this id. Brings the audit table of an earlier release up to date first.
     */
    DeadLetterViews.Edited editedDeadLetter(long id);

    /**
     * Moves the dead letters with these ids (1 to 500) back into the queue, as
     * {@link #requeueDeadLetters(int)} does, in one transaction that writes the audit row naming
     * {@code actor} and the ids.
     *
     * @return how many were moved (a dead letter whose dedup key is queued stays)
     */
    int requeueSelectedDeadLetters(long[] ids, String actor);

    /**
     * Moves the dead letters of one group (reason and exception class, null matching none) back
     * into the queue in batches, each batch's transaction writing its audit row naming {@code actor}.
     *
     * @return how many were moved
     */
    int requeueDeadLetterGroup(String reason, String errorClass, String actor);

    /**
     * Requeues dead letter {@code id} as a new message with an edited body and/or headers, deleting
     * the dead letter and writing the audit row (operation {@code edit}, ids {@code "<old> -> <new>"},
     * the original's headers and body, which {@link #editedDeadLetter} reads back) in one transaction. The new message keeps the original's priority and ordering key and has no
     * dedup key; see {@code DeadLetters.requeueEdited}.
     *
     * @param body    the new text body (UTF-8), or null to keep the original's bytes
     * @param headers the new headers as {@link HeaderLines} text ({@code name=value} per line),
     *                replacing all the original's; null keeps them
     * @return the new message's id, or 0 when the dead-letter table has no such id
     */
    long requeueEditedDeadLetter(long id, String body, String headers, String actor);

    /** Deletes the dead letters with these ids (1 to 500) and writes the audit row, in one transaction; returns how many. */
    int deleteSelectedDeadLetters(long[] ids, String actor);

    /** Deletes the dead letters of one group in batches, each with its audit row; returns how many. */
    int deleteDeadLetterGroup(String reason, String errorClass, String actor);

    /**
     * The newest {@code limit} (1 to 500) audit rows of this queue, newest first
     * ({@link DeadLetterViews.Audit}'s items). Brings the audit table of an earlier release up to date first.
     */
    DeadLetterViews.Audit[] auditTrail(int limit);

    /**
     * When this queue is a topic subscription's (its consumers' activation names a {@code topic}
     * and {@code subscriptionName}), removes the subscription: messages published from now on no
     * longer reach this queue; those in it stay until consumed. To end it for good, let the bean
     * drain the queue, then undeploy it: a consumer activated again makes the subscription anew.
     *
     * @return whether a subscription was removed (false: this queue is none's, or it was removed already)
     */
    boolean removeSubscription();
}
