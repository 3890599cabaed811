-- SQL Queue Resource Adapter: the tables of one queue on SQL Server, for installations where the
-- application's login may not create tables. Run it as a DBA with sqlcmd, once per queue, naming
-- the schema, the queue and the role to grant (all three are required: sqlcmd stops on a missing one):
--
--   sqlcmd -b -S <server> -d <database> -i admin/sqlserver-schema.sql -v Schema=dbo Queue=orders_queue AppRole=sqlqueue_app
--
-- (In SSMS, SQLCMD mode, put ":setvar Schema dbo" and so on above the script.) Then add the
-- application's database user to the role: ALTER ROLE [sqlqueue_app] ADD MEMBER [orders_app];
--
-- The tables are exactly those the adapter creates itself (a test in the build runs this script and
-- compares the catalog with the adapter's own tables). Names: letters, digits and underscores,
-- starting with a letter or underscore, at most 48 characters (the adapter refuses others).

-- The SET options that filtered indexes and indexes on computed columns need, for creating them and
-- for every later INSERT, UPDATE and DELETE on their tables (otherwise Msg 1934). sqlcmd runs with
-- QUOTED_IDENTIFIER OFF unless started with -I; drivers (JDBC, ODBC, .NET) and SSMS set them all ON.
-- QUOTED_IDENTIFIER takes effect when a batch is parsed: set here, in a batch of its own, it holds
-- for every batch after it. A session that writes rows by hand needs the same (README, "SQL
-- Server, for DBAs", SET options).
SET QUOTED_IDENTIFIER ON;
SET ANSI_NULLS ON;
SET ANSI_PADDING ON;
SET ANSI_WARNINGS ON;
SET ARITHABORT ON;
SET CONCAT_NULL_YIELDS_NULL ON;
SET NUMERIC_ROUNDABORT OFF;
GO

SET XACT_ABORT ON;
BEGIN TRANSACTION;

-- The queue. Clustered on the dequeue order (priority DESC, id): a claim is an ordered range scan,
-- inserts append at the end of their priority. The primary key on id serves acks and retries.
-- The database clock fills visible_at and enqueued_at, so a row written by hand needs only a body.
-- Keys (dedup_key, ordering_key) compare code point by code point, whatever the database's collation
-- (its default ignores case), and the unique index tells apart keys that differ only in trailing
-- spaces, which = ignores under every collation, by their length (dedup_key_length, computed).
-- Row locks only, never a table lock: an ordered claim keeps the locks of the rows it walks past
-- until its delivery ends, and past 5,000 of them SQL Server would lock the whole table that long.
IF OBJECT_ID(N'[$(Schema)].[$(Queue)]', N'U') IS NULL BEGIN
    CREATE TABLE [$(Schema)].[$(Queue)] (
        id BIGINT IDENTITY(1,1) NOT NULL,
        priority SMALLINT NOT NULL DEFAULT 0,
        visible_at DATETIME2(7) NOT NULL CONSTRAINT [$(Queue)_visible_at_df] DEFAULT SYSUTCDATETIME(),
        enqueued_at DATETIME2(7) NOT NULL CONSTRAINT [$(Queue)_enqueued_at_df] DEFAULT SYSUTCDATETIME(),
        attempts INT NOT NULL DEFAULT 0,
        dedup_key NVARCHAR(200) COLLATE Latin1_General_100_BIN2 NULL,
        headers NVARCHAR(MAX) NULL,
        body VARBINARY(MAX) NOT NULL,
        last_error NVARCHAR(2000) NULL,
        lease_token BIGINT NULL,
        expires_at DATETIME2(7) NULL,
        ordering_key NVARCHAR(200) COLLATE Latin1_General_100_BIN2 NULL,
        hidden SMALLINT NULL,
        leased_by NVARCHAR(1000) NULL,
        dedup_key_length AS DATALENGTH(dedup_key),
        CONSTRAINT [$(Queue)_pk] PRIMARY KEY NONCLUSTERED (id));
    CREATE UNIQUE CLUSTERED INDEX [$(Queue)_dequeue] ON [$(Schema)].[$(Queue)] (priority DESC, id);
    -- deduplication: one queued message per dedup_key
    CREATE UNIQUE NONCLUSTERED INDEX [$(Queue)_dedup] ON [$(Schema)].[$(Queue)] (dedup_key, dedup_key_length)
        WHERE dedup_key IS NOT NULL;
    ALTER TABLE [$(Schema)].[$(Queue)] SET (LOCK_ESCALATION = DISABLE);
END;
-- A queue table made by a release before expiry and ordering keys gets their columns (nullable: a
-- catalog change only).
IF NOT EXISTS (SELECT 1 FROM sys.columns WHERE object_id = OBJECT_ID(N'[$(Schema)].[$(Queue)]')
        AND name = N'expires_at')
    ALTER TABLE [$(Schema)].[$(Queue)] ADD expires_at DATETIME2(7) NULL;
IF NOT EXISTS (SELECT 1 FROM sys.columns WHERE object_id = OBJECT_ID(N'[$(Schema)].[$(Queue)]')
        AND name = N'ordering_key')
    ALTER TABLE [$(Schema)].[$(Queue)] ADD ordering_key NVARCHAR(200) COLLATE Latin1_General_100_BIN2 NULL;
-- And one before hidden rows (1 while a message waits a second or more for its visible_at) gets that.
IF NOT EXISTS (SELECT 1 FROM sys.columns WHERE object_id = OBJECT_ID(N'[$(Schema)].[$(Queue)]')
        AND name = N'hidden')
    ALTER TABLE [$(Schema)].[$(Queue)] ADD hidden SMALLINT NULL;
-- And one before dead-letter reasons named them, the holders whose leases of a message ran out.
IF NOT EXISTS (SELECT 1 FROM sys.columns WHERE object_id = OBJECT_ID(N'[$(Schema)].[$(Queue)]')
        AND name = N'leased_by')
    ALTER TABLE [$(Schema)].[$(Queue)] ADD leased_by NVARCHAR(1000) NULL;

-- The dead letters, clustered on when they failed (the purge deletes from its start).
IF OBJECT_ID(N'[$(Schema)].[$(Queue)_dlq]', N'U') IS NULL BEGIN
    CREATE TABLE [$(Schema)].[$(Queue)_dlq] (
        id BIGINT NOT NULL,
        priority SMALLINT NOT NULL,
        visible_at DATETIME2(7) NOT NULL,
        enqueued_at DATETIME2(7) NOT NULL,
        attempts INT NOT NULL,
        dedup_key NVARCHAR(200) COLLATE Latin1_General_100_BIN2 NULL,
        headers NVARCHAR(MAX) NULL,
        body VARBINARY(MAX) NOT NULL,
        last_error NVARCHAR(2000) NULL,
        failed_at DATETIME2(7) NOT NULL,
        ordering_key NVARCHAR(200) COLLATE Latin1_General_100_BIN2 NULL,
        error_class NVARCHAR(255) NULL);
    CREATE CLUSTERED INDEX [$(Queue)_dlq_failed] ON [$(Schema)].[$(Queue)_dlq] (failed_at, id);
    -- the requeue keeps one dead letter per dedup_key
    CREATE NONCLUSTERED INDEX [$(Queue)_dlq_dedup] ON [$(Schema)].[$(Queue)_dlq] (dedup_key, failed_at, id)
        WHERE dedup_key IS NOT NULL;
END;
IF NOT EXISTS (SELECT 1 FROM sys.columns WHERE object_id = OBJECT_ID(N'[$(Schema)].[$(Queue)_dlq]')
        AND name = N'ordering_key')
    ALTER TABLE [$(Schema)].[$(Queue)_dlq] ADD ordering_key NVARCHAR(200) COLLATE Latin1_General_100_BIN2 NULL;
IF NOT EXISTS (SELECT 1 FROM sys.columns WHERE object_id = OBJECT_ID(N'[$(Schema)].[$(Queue)_dlq]')
        AND name = N'error_class')
    ALTER TABLE [$(Schema)].[$(Queue)_dlq] ADD error_class NVARCHAR(255) NULL;

-- The completion journal (activation property journal=true): one row per finished message.
IF OBJECT_ID(N'[$(Schema)].[$(Queue)_journal]', N'U') IS NULL BEGIN
    CREATE TABLE [$(Schema)].[$(Queue)_journal] (
        message_id BIGINT NOT NULL,
        enqueued_at DATETIME2(7) NOT NULL,
        claimed_at DATETIME2(7) NOT NULL,
        completed_at DATETIME2(7) NOT NULL,
        attempts INTEGER NOT NULL,
        outcome VARCHAR(13) NOT NULL CHECK (outcome IN ('completed', 'dead_lettered')),
        consumer NVARCHAR(200),
        trace_id VARCHAR(32) NULL);
    CREATE CLUSTERED INDEX [$(Queue)_journal_at] ON [$(Schema)].[$(Queue)_journal] (completed_at);
END;
-- A journal made by a release before trace propagation gets the producer's trace id column.
IF NOT EXISTS (SELECT 1 FROM sys.columns WHERE object_id = OBJECT_ID(N'[$(Schema)].[$(Queue)_journal]')
        AND name = N'trace_id')
    ALTER TABLE [$(Schema)].[$(Queue)_journal] ADD trace_id VARCHAR(32) NULL;

COMMIT;
GO

-- Ordered delivery (activation property orderedDelivery) looks up the earlier messages of a key
-- here. In a batch of its own, after the columns exist. On a deep queue of an earlier release an
-- offline build holds a shared lock on the table (sends and claims wait) until it has read it:
-- where the edition has online index builds (Enterprise, Azure SQL), add WITH (ONLINE = ON).
-- The adapter finds any index whose first column is ordering_key and builds none of its own.
IF NOT EXISTS (SELECT 1 FROM sys.index_columns ic JOIN sys.columns c ON c.object_id = ic.object_id
        AND c.column_id = ic.column_id WHERE ic.object_id = OBJECT_ID(N'[$(Schema)].[$(Queue)]')
        AND ic.key_ordinal = 1 AND c.name = N'ordering_key')
    CREATE NONCLUSTERED INDEX [$(Queue)_ordering] ON [$(Schema)].[$(Queue)] (ordering_key, id)
        WHERE ordering_key IS NOT NULL;
-- The expiry sweep finds expired messages here, without reading live rows; the same holds for it.
IF NOT EXISTS (SELECT 1 FROM sys.index_columns ic JOIN sys.columns c ON c.object_id = ic.object_id
        AND c.column_id = ic.column_id WHERE ic.object_id = OBJECT_ID(N'[$(Schema)].[$(Queue)]')
        AND ic.key_ordinal = 1 AND c.name = N'expires_at')
    CREATE NONCLUSTERED INDEX [$(Queue)_expiry] ON [$(Schema)].[$(Queue)] (expires_at)
        WHERE expires_at IS NOT NULL;
-- Claims read the messages that are not hidden here, in the dequeue order: messages waiting for
-- their time (delayed, backing off, leased) are not in their way. It holds all a claim reads, the
-- ordered claim's ordering_key included, so the rows a claim walks past are locked here alone. The
-- same holds for it.
IF NOT EXISTS (SELECT 1 FROM sys.index_columns ic JOIN sys.columns c ON c.object_id = ic.object_id
        AND c.column_id = ic.column_id WHERE ic.object_id = OBJECT_ID(N'[$(Schema)].[$(Queue)]')
        AND ic.key_ordinal = 1 AND c.name = N'hidden')
    CREATE NONCLUSTERED INDEX [$(Queue)_ready] ON [$(Schema)].[$(Queue)] (hidden, priority DESC, id)
        INCLUDE (visible_at, ordering_key) WHERE hidden IS NULL;
-- Pollers reveal hidden messages whose time has come through this one; the same holds for it.
IF NOT EXISTS (SELECT 1 FROM sys.index_columns ic JOIN sys.columns c ON c.object_id = ic.object_id
        AND c.column_id = ic.column_id WHERE ic.object_id = OBJECT_ID(N'[$(Schema)].[$(Queue)]')
        AND ic.key_ordinal = 1 AND c.name = N'visible_at')
    CREATE NONCLUSTERED INDEX [$(Queue)_hidden] ON [$(Schema)].[$(Queue)] (visible_at)
        WHERE hidden IS NOT NULL;
GO

-- Topics (QueueConnection.publish; activation properties topic and subscriptionName): one table of
-- subscriptions per schema, whatever the queue. A subscription's messages wait in the queue
-- <topic>_<subscription>: run this script for it with that Queue name. The subscription itself is
-- a row that the subscribing bean's activation writes (or a DBA: see the README's Topics).
IF OBJECT_ID(N'[$(Schema)].[sqlqueue_subscriptions]', N'U') IS NULL
    CREATE TABLE [$(Schema)].[sqlqueue_subscriptions] (
        topic      NVARCHAR(200)  NOT NULL,
        name       NVARCHAR(200)  NOT NULL,
        filter     NVARCHAR(2000) NULL,
        created_at DATETIME2(7)   NOT NULL,
        PRIMARY KEY (topic, name)
    );
GO

-- The dead-letter console's audit trail (docs/operations.md#dead-letter-console): one table per
-- schema, whatever the queue; each requeue, delete or edit the console or a JMX operation makes
-- writes a row in the change's own transaction. An edit's row keeps the original's headers and body.
IF OBJECT_ID(N'[$(Schema)].[sqlqueue_audit]', N'U') IS NULL BEGIN
    CREATE TABLE [$(Schema)].[sqlqueue_audit] (
        id BIGINT IDENTITY(1,1) NOT NULL,
        acted_at DATETIME2(7) NOT NULL CONSTRAINT [sqlqueue_audit_acted_at_df] DEFAULT SYSUTCDATETIME(),
        actor NVARCHAR(200) NOT NULL,
        operation VARCHAR(20) NOT NULL,
        queue_name NVARCHAR(300) NOT NULL,
        message_count INT NOT NULL,
        message_ids NVARCHAR(2000) NULL,
        last_error NVARCHAR(2000) NULL,
        error_class NVARCHAR(255) NULL,
        criterion NVARCHAR(200) NULL,
        original_headers NVARCHAR(MAX) NULL,
        original_body VARBINARY(MAX) NULL,
        CONSTRAINT [sqlqueue_audit_pk] PRIMARY KEY NONCLUSTERED (id));
    CREATE CLUSTERED INDEX [sqlqueue_audit_at] ON [$(Schema)].[sqlqueue_audit] (acted_at);
END;
-- An audit table of the release before the JMX operations were audited and edits kept their
-- original gets those columns.
IF NOT EXISTS (SELECT 1 FROM sys.columns WHERE object_id = OBJECT_ID(N'[$(Schema)].[sqlqueue_audit]')
        AND name = N'criterion')
    ALTER TABLE [$(Schema)].[sqlqueue_audit] ADD criterion NVARCHAR(200) NULL;
IF NOT EXISTS (SELECT 1 FROM sys.columns WHERE object_id = OBJECT_ID(N'[$(Schema)].[sqlqueue_audit]')
        AND name = N'original_headers')
    ALTER TABLE [$(Schema)].[sqlqueue_audit] ADD original_headers NVARCHAR(MAX) NULL;
IF NOT EXISTS (SELECT 1 FROM sys.columns WHERE object_id = OBJECT_ID(N'[$(Schema)].[sqlqueue_audit]')
        AND name = N'original_body')
    ALTER TABLE [$(Schema)].[sqlqueue_audit] ADD original_body VARBINARY(MAX) NULL;
GO

-- What the application needs at run time: rows in and rows out. It creates nothing: with these
-- tables in place, the adapter's start-up statements find them and change nothing.
IF DATABASE_PRINCIPAL_ID(N'$(AppRole)') IS NULL
    CREATE ROLE [$(AppRole)];
GO
GRANT SELECT, INSERT, UPDATE, DELETE ON [$(Schema)].[$(Queue)] TO [$(AppRole)];
GRANT SELECT, INSERT, DELETE ON [$(Schema)].[$(Queue)_dlq] TO [$(AppRole)];
GRANT SELECT, INSERT, DELETE ON [$(Schema)].[$(Queue)_journal] TO [$(AppRole)];
GRANT SELECT, INSERT, UPDATE, DELETE ON [$(Schema)].[sqlqueue_subscriptions] TO [$(AppRole)];
GRANT SELECT, INSERT ON [$(Schema)].[sqlqueue_audit] TO [$(AppRole)];
GO
-- And the catalog of its tables: when it starts, the adapter reads their triggers, defaults and
-- indexes (sys.triggers, sys.default_constraints, sys.index_columns), which SQL Server shows only
-- to principals with a permission on the table.
GRANT VIEW DEFINITION ON [$(Schema)].[$(Queue)] TO [$(AppRole)];
GRANT VIEW DEFINITION ON [$(Schema)].[$(Queue)_dlq] TO [$(AppRole)];
GRANT VIEW DEFINITION ON [$(Schema)].[$(Queue)_journal] TO [$(AppRole)];
GO
