package io.sqlqueue.inbound;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sqlqueue.engine.TestDatabase;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

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
}
