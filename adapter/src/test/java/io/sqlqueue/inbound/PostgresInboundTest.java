package io.sqlqueue.inbound;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sqlqueue.engine.TestDatabase;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Statement;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The inbound side on PostgreSQL (SQLQUEUE_PG_*); each test skipped, visibly, without it. */
class PostgresInboundTest extends InboundContract {

    @Override
    protected String[] database() {
        return TestDatabase.settings("SQLQUEUE_PG");
    }

    /** CI's throwaway cluster (.ci/postgres.sh exports PG_CI_DIR), restarted as its owner with pg_ctl. */
    private static final Path PG_CTL = Path.of("/usr/lib/postgresql/15/bin/pg_ctl");

    @Override
    protected DatabaseRestart databaseRestart() {
        String dir = System.getenv("PG_CI_DIR");
        assumeTrue(dir != null && Files.isDirectory(Path.of(dir, "data")) && Files.isExecutable(PG_CTL),
                "restarting PostgreSQL needs CI's throwaway cluster (PG_CI_DIR, as .ci/postgres.sh exports it)");
        return () -> {
            Process restart = new ProcessBuilder("runuser", "-u", "postgres", "--", PG_CTL.toString(), "-D",
                    Path.of(dir, "data").toString(), "-l", Path.of(dir, "server.log").toString(), // or it keeps our pipe
                    "-w", "-t", "60", "-m", "fast", "restart")
                    .redirectErrorStream(true).start();
            String output = new String(restart.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(restart.waitFor(90, TimeUnit.SECONDS) && restart.exitValue() == 0, "pg_ctl restart: " + output);
        };
    }

    /**
     * A thread's first lease commits each statement by itself (no journal): the head of the queue,
     * then more never attempted. When the second statement fails (here a trigger refuses it once;
     * in production the connection is lost between them, as deliveryConnectionsKilledMidDelivery
     * showed one run in three), the head's lease has committed: the head is delivered at once, not
     * left hidden for its lease of five minutes.
     */
    @Test
    void aLeaseAheadThatFailsAfterTheHeadsLeaseCommittedStillDeliversTheHead() throws Exception {
        String q = table.dialect().qualified(table.name());
        String fn = table.name() + "_fail_once";
        try (Statement s = admin.createStatement()) {
            s.execute("CREATE SEQUENCE " + fn);
            s.execute("CREATE FUNCTION " + fn + "() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
                    + " IF (SELECT COUNT(*) FROM leased) > 1 AND nextval('" + fn + "') = 1 THEN"
                    + " RAISE EXCEPTION 'the first lease of several rows fails'; END IF; RETURN NULL; END $$");
            s.execute("CREATE TRIGGER " + fn + " AFTER UPDATE ON " + q
                    + " REFERENCING NEW TABLE AS leased FOR EACH STATEMENT EXECUTE FUNCTION " + fn + "()");
        }
        try {
            Set<Long> ids = Set.copyOf(send(10));
            QueueActivationSpec spec = spec();
            spec.setMaxConcurrency(1); // the thread's first lease is the one that fails
            spec.setLeaseTime(300_000L);
            Map<Long, Integer> attempts = new ConcurrentHashMap<>();
            FakeContainer.Bean record = recording();
            activate(spec, messages -> {
                messages.forEach(m -> attempts.put(m.id(), m.attempt()));
                record.onMessages(messages);
            }, false, true);
            assertEachExactlyOnce(ids, Set.of());
            assertEquals(Map.of(), Map.copyOf(attempts).entrySet().stream().filter(e -> e.getValue() != 1)
                    .collect(java.util.stream.Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue)),
                    "every message delivered at its first attempt");
            try (Statement s = admin.createStatement(); var rs = s.executeQuery("SELECT is_called FROM " + fn)) {
                rs.next();
                assertTrue(rs.getBoolean(1), "the trigger refused a lease of several rows");
            }
        } finally {
            try (Statement s = admin.createStatement()) {
                s.execute("DROP TRIGGER " + fn + " ON " + q);
                s.execute("DROP FUNCTION " + fn + "()");
                s.execute("DROP SEQUENCE " + fn);
            }
        }
    }
}
