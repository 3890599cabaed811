package io.sqlqueue.it.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sqlqueue.api.OutgoingMessage;
import io.sqlqueue.engine.QueueTable;
import io.sqlqueue.it.harness.Await;
import io.sqlqueue.it.lifecycle.crash.CrashDatabase;
import io.sqlqueue.it.lifecycle.crash.HaltingBean;
import java.io.File;
import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.logging.Logger;
import org.h2.tools.Server;
import org.junit.jupiter.api.Test;

/**
 * A message whose delivery kills the server: a bean halts the JVM of a Payara Micro of its own
 * (forked, see {@link MicroProcess}) whenever it gets that message, and the test starts the
 * server again each time, as a supervisor would. Attempts are counted before delivery, so after
 * {@code maxAttempts} (3) crashes the next server dead-letters the message instead of dying again,
 * and every other message is processed exactly once. The bean leases 8 messages at a time: the 7
 * leased with the killer at the first crash are charged one attempt they never had, once (from
 * then on the killer is leased alone), and every other message is delivered at its first attempt.
 * Counted in SQL, in the test's H2 database.
 */
class ServerCrashIT {

    private static final Logger LOG = Logger.getLogger(ServerCrashIT.class.getName());
    private static final int MAX_ATTEMPTS = 3;
    private static final int GOOD_MESSAGES = 30;
    private static final Duration BOOT_TIMEOUT = Duration.ofMinutes(4);

    @Test
    void aMessageThatKillsTheServerIsDeadLetteredAfterMaxAttemptsRestartsAndNothingElseIsLost() throws Exception {
        File microJar = LifecycleIT.file("it.micro.jar", "Payara Micro");
        File rar = LifecycleIT.file("it.rar", "the adapter's .rar");
        File tmp = MicroProcess.workDirectory("crash-micro");
        File war = MicroProcess.exportWar(tmp, "crash", HaltingBean.class, CrashDatabase.class);

        Server h2 = Server.createTcpServer("-tcpPort", "0", "-ifNotExists").start();
        String url = "jdbc:h2:tcp://127.0.0.1:" + h2.getPort() + "/mem:crash;DB_CLOSE_DELAY=-1";
        try (Connection db = DriverManager.getConnection(url, "sa", "sa")) {
            QueueTable queue = QueueTable.open(db, CrashDatabase.QUEUE);
            queue.createIfMissing(db);
            try (Statement s = db.createStatement()) {
                s.execute("CREATE TABLE crash_processed (message_id BIGINT NOT NULL, attempt INT NOT NULL)");
            }
            // first in line whenever it is visible: each server that starts delivers it first
            long killer = queue.send(db, OutgoingMessage.text("halt").priority(9).build());
            Set<Long> good = new HashSet<>();
            for (int i = 0; i < GOOD_MESSAGES; i++) {
                good.add(queue.send(db, OutgoingMessage.text("order " + i).build()));
            }

            List<Integer> exits = new ArrayList<>();
            for (int start = 1; start <= MAX_ATTEMPTS; start++) {
                MicroProcess micro = MicroProcess.start(microJar, tmp, Map.of("SQLQUEUE_CRASH_URL", url), List.of(),
                        BOOT_TIMEOUT);
                try {
                    deploy(micro, rar, war);
                } catch (IOException haltedDuringTheDeployment) {
                    // the bean may start and halt the server before the deployment is reported
                }
                exits.add(micro.awaitExit(Duration.ofMinutes(2)));
                assertEquals(start, count(db, "SELECT attempts FROM " + table(queue, false) + " WHERE id = " + killer),
                        "start " + start + ": the fatal delivery was counted before it began");
            }
            assertEquals(List.of(CrashDatabase.HALT_STATUS, CrashDatabase.HALT_STATUS, CrashDatabase.HALT_STATUS),
                    exits, "each server was halted by the bean");

            try (MicroProcess survivor = MicroProcess.start(microJar, tmp, Map.of("SQLQUEUE_CRASH_URL", url),
                    List.of(), BOOT_TIMEOUT)) {
                deploy(survivor, rar, war);
                Await.until("the queue is empty", Duration.ofMinutes(2),
                        () -> count(db, "SELECT COUNT(*) FROM " + table(queue, false)) == 0);
            }
            assertEquals(Set.of(killer), ids(db, "SELECT id FROM " + table(queue, true)), "the dead letters");
            try (Statement s = db.createStatement(); ResultSet rs = s.executeQuery(
                    "SELECT last_error FROM " + table(queue, true))) {
                assertTrue(rs.next());
                assertTrue(rs.getString(1).startsWith("never completed: delivered " + MAX_ATTEMPTS + " times"),
                        rs.getString(1));
            }
            assertEquals(good, ids(db, "SELECT message_id FROM crash_processed"), "every other message processed");
            assertEquals(GOOD_MESSAGES, count(db, "SELECT COUNT(*) FROM crash_processed"), "each once");
            // The first server leased the killer (first in line, never attempted) with 7 others never attempted.
            assertEquals(CrashDatabase.LEASE_AHEAD - 1,
                    count(db, "SELECT COUNT(*) FROM crash_processed WHERE attempt = 2"), "the messages leased with the killer at the first crash, charged one attempt, once");
            assertEquals(GOOD_MESSAGES - (CrashDatabase.LEASE_AHEAD - 1),
                    count(db, "SELECT COUNT(*) FROM crash_processed WHERE attempt = 1"),
                    "every other message delivered at its first attempt: later crashes charged the killer alone");
            LOG.info(() -> "CRASH " + MAX_ATTEMPTS + " servers halted (exit statuses " + exits + "), the fourth"
                    + " dead-lettered the message and processed the other " + GOOD_MESSAGES + " once each, "
                    + (CrashDatabase.LEASE_AHEAD - 1) + " of them at their second attempt");
        } finally {
            h2.stop();
        }
    }

    private static void deploy(MicroProcess micro, File rar, File war) throws IOException {
        micro.deployAdapter(rar); // first: a WAR deployed before the adapter never activates its bean
        micro.deployWar("crash", war);
    }

    private static String table(QueueTable queue, boolean deadLetters) {
        return queue.dialect().qualified(deadLetters ? queue.deadLetterName() : queue.name());
    }

    private static long count(Connection db, String sql) throws SQLException {
        try (Statement s = db.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            return rs.next() ? rs.getLong(1) : -1;
        }
    }

    private static Set<Long> ids(Connection db, String sql) throws SQLException {
        Set<Long> ids = new HashSet<>();
        try (Statement s = db.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                ids.add(rs.getLong(1));
            }
        }
        return ids;
    }
}
