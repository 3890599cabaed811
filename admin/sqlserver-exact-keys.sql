-- SQL Queue Resource Adapter: makes the keys of a queue made by an earlier release compare exactly,
-- as Java compares them (tables this release makes have them already). Run it as a DBA, once per
-- queue, with sqlcmd's -I (QUOTED_IDENTIFIER ON; the script sets it too):
--
--   sqlcmd -b -I -S <server> -d <database> -i admin/sqlserver-exact-keys.sql -v Schema=dbo Queue=orders_queue
--
-- What it changes: dedup_key and ordering_key of the queue and its dead-letter table get the
-- collation Latin1_General_100_BIN2 (code point by code point: case and accents count); the queue
-- gains dedup_key_length, computed, so that its unique index tells apart keys that differ only in
-- trailing spaces; the ready index gains ordering_key; lock escalation is turned off on the queue.
-- Run admin/sqlserver-schema.sql for the queue first: it adds the columns of releases between.
-- Until this has run, the adapter still compares keys exactly, but a send whose dedup key differs from
-- a queued message's only in case or trailing spaces fails (the old unique index refuses it), and the
-- adapter logs a warning naming this script at every start.
--
-- Cost: SQL Server cannot change the collation of a column that an index or statistics refer to, so
-- the script drops them and builds the indexes again, in one transaction under a schema lock: every
-- sender and consumer of the queue waits until it commits. On a large queue, run it in a maintenance
-- window (or drain the queue first); on editions with online index builds the CREATE INDEX statements
-- below can take WITH (ONLINE = ON) once taken out of the transaction, at the price of a window in
-- which duplicate dedup keys are not refused. A failure anywhere rolls everything back (XACT_ABORT).

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

-- Statistics on the key columns (SQL Server's automatic ones too) keep their collation from changing;
-- an index's statistics go with the index.
DECLARE @drop NVARCHAR(MAX) = N'';
SELECT @drop = @drop + N'DROP STATISTICS ' + QUOTENAME(OBJECT_SCHEMA_NAME(s.object_id)) + N'.'
        + QUOTENAME(OBJECT_NAME(s.object_id)) + N'.' + QUOTENAME(s.name) + N'; '
    FROM sys.stats s
    JOIN sys.stats_columns sc ON sc.object_id = s.object_id AND sc.stats_id = s.stats_id
    JOIN sys.columns c ON c.object_id = sc.object_id AND c.column_id = sc.column_id
    WHERE s.object_id IN (OBJECT_ID(N'[$(Schema)].[$(Queue)]'), OBJECT_ID(N'[$(Schema)].[$(Queue)_dlq]'))
        AND c.name IN (N'dedup_key', N'ordering_key')
        AND NOT EXISTS (SELECT 1 FROM sys.indexes i WHERE i.object_id = s.object_id AND i.index_id = s.stats_id);
EXEC sp_executesql @drop;

DROP INDEX IF EXISTS [$(Queue)_dedup] ON [$(Schema)].[$(Queue)];
DROP INDEX IF EXISTS [$(Queue)_ordering] ON [$(Schema)].[$(Queue)];
DROP INDEX IF EXISTS [$(Queue)_ready] ON [$(Schema)].[$(Queue)];
DROP INDEX IF EXISTS [$(Queue)_dlq_dedup] ON [$(Schema)].[$(Queue)_dlq];

ALTER TABLE [$(Schema)].[$(Queue)] ALTER COLUMN dedup_key NVARCHAR(200) COLLATE Latin1_General_100_BIN2 NULL;
ALTER TABLE [$(Schema)].[$(Queue)] ALTER COLUMN ordering_key NVARCHAR(200) COLLATE Latin1_General_100_BIN2 NULL;
ALTER TABLE [$(Schema)].[$(Queue)_dlq] ALTER COLUMN dedup_key NVARCHAR(200) COLLATE Latin1_General_100_BIN2 NULL;
ALTER TABLE [$(Schema)].[$(Queue)_dlq] ALTER COLUMN ordering_key NVARCHAR(200) COLLATE Latin1_General_100_BIN2 NULL;
IF COL_LENGTH(N'[$(Schema)].[$(Queue)]', N'dedup_key_length') IS NULL
    ALTER TABLE [$(Schema)].[$(Queue)] ADD dedup_key_length AS DATALENGTH(dedup_key);
COMMIT;
GO

-- In a batch of its own: the computed column above must exist when this batch is compiled.
SET XACT_ABORT ON;
BEGIN TRANSACTION;
CREATE UNIQUE NONCLUSTERED INDEX [$(Queue)_dedup] ON [$(Schema)].[$(Queue)] (dedup_key, dedup_key_length)
    WHERE dedup_key IS NOT NULL;
CREATE NONCLUSTERED INDEX [$(Queue)_ordering] ON [$(Schema)].[$(Queue)] (ordering_key, id)
    WHERE ordering_key IS NOT NULL;
CREATE NONCLUSTERED INDEX [$(Queue)_ready] ON [$(Schema)].[$(Queue)] (hidden, priority DESC, id)
    INCLUDE (visible_at, ordering_key) WHERE hidden IS NULL;
CREATE NONCLUSTERED INDEX [$(Queue)_dlq_dedup] ON [$(Schema)].[$(Queue)_dlq] (dedup_key, failed_at, id)
    WHERE dedup_key IS NOT NULL;
ALTER TABLE [$(Schema)].[$(Queue)] SET (LOCK_ESCALATION = DISABLE);
COMMIT;
GO
