package io.sqlqueue.it.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sqlqueue.api.OutgoingMessage;
import io.sqlqueue.engine.QueueTable;
import io.sqlqueue.it.harness.Await;
import io.sqlqueue.it.lifecycle.crash.CrashDatabase;
import io.sqlqueue.it.lifecycle.crash.HaltingBean;
import io.sqlqueue.it.lifecycle.crash.TakeoverBean;
import java.io.File;
import java.io.IOException;
import java.sql.Connection;
import java.nio.file.Files;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
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
 * And two servers on one queue, one killed with messages leased ahead: the other takes them over
 * once their lease has run out. Counted in SQL, in the test's H2 database.
 */
class ServerCrashIT {

    private static final Logger LOG = Logger.getLogger(ServerCrashIT.class.getName());
    private static final int MAX_ATTEMPTS = 3;
    private static final int GOOD_MESSAGES = 30;
    private static final int BACKLOG = 200;
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

    /**
     * Two servers consume one queue; one is killed (SIGKILL) in a delivery while it holds messages
     * leased ahead ({@link TakeoverBean} stalls it there, so the kill lands there whatever the
     * timing). Those messages (the one in delivery and those leased ahead, read in SQL when it died)
     * were charged one attempt and stay hidden until their lease runs out; then the other server
     * processes each of them once, at its second attempt, and every other message was processed
     * once at its first. Counted in SQL, with the database's clock.
     */
    @Test
    void messagesLeasedAheadByAKilledServerAreTakenOverByTheOtherOnceTheirLeaseRunsOut() throws Exception {
        File microJar = LifecycleIT.file("it.micro.jar", "Payara Micro");
        File rar = LifecycleIT.file("it.rar", "the adapter's .rar");
        File tmp = MicroProcess.workDirectory("takeover-micro");
        File war = MicroProcess.exportWar(tmp, "takeover", TakeoverBean.class, CrashDatabase.class);
        File stallFile = new File(tmp, "stalled-" + System.nanoTime());

        Server h2 = Server.createTcpServer("-tcpPort", "0", "-ifNotExists").start();
        // a database of its own per run: a rerun in this JVM finds the last one's still there
        String url = "jdbc:h2:tcp://127.0.0.1:" + h2.getPort() + "/mem:takeover" + System.nanoTime()
                + ";DB_CLOSE_DELAY=-1";
        try (Connection db = DriverManager.getConnection(url, "sa", "sa")) {
            QueueTable queue = QueueTable.open(db, CrashDatabase.QUEUE);
            queue.createIfMissing(db);
            String q = table(queue, false);
            try (Statement s = db.createStatement()) {
                s.execute("CREATE TABLE " + TakeoverBean.PROCESSED + " (message_id BIGINT NOT NULL, attempt INT NOT NULL,"
                        + " server VARCHAR(200) NOT NULL, processed_at TIMESTAMP(6) WITH TIME ZONE NOT NULL)");
                s.execute("CREATE TABLE takeover_orphans (id BIGINT PRIMARY KEY, attempts INT NOT NULL,"
                        + " visible_at TIMESTAMP(6) WITH TIME ZONE NOT NULL)");
            }
            Map<String, String> environment = Map.of("SQLQUEUE_CRASH_URL", url, "SQLQUEUE_TAKEOVER_QUEUE_TABLE", q);
            Map<String, String> stalling = new HashMap<>(environment);
            stalling.put("SQLQUEUE_TAKEOVER_STALL_FILE", stallFile.getPath());

            Set<Long> sent;
            Set<Long> orphans;
            String xHolder, yHolder;
            int exit;
            try (MicroProcess x = MicroProcess.start(microJar, tmp, stalling, List.of(), BOOT_TIMEOUT);
                    MicroProcess y = MicroProcess.start(microJar, tmp, environment, List.of(), BOOT_TIMEOUT)) {
                deploy(x, rar, war);
                deploy(y, rar, war);
                List<OutgoingMessage> backlog = new ArrayList<>();
                for (int i = 0; i < BACKLOG; i++) {
                    backlog.add(OutgoingMessage.text("order " + i).build());
                }
                db.setAutoCommit(false);
                queue.sendAll(db, backlog); // once both consume: all visible at once
                sent = ids(db, "SELECT id FROM " + q);
                db.commit();
                db.setAutoCommit(true);

                Await.until("the first server stalls in a delivery with messages leased ahead", Duration.ofMinutes(2),
                        stallFile::exists);
                String[] stall = Files.readString(stallFile.toPath()).split(" ");
                xHolder = stall[0];
                assertTrue(xHolder.startsWith(x.pid() + "@"), "the stalled server is the first: " + xHolder);
                yHolder = y.pid() + xHolder.substring(xHolder.indexOf('@'));
                Await.until("the other server processes messages too", Duration.ofMinutes(1),
                        () -> count(db, "SELECT COUNT(*) FROM " + TakeoverBean.PROCESSED + " WHERE server = '" + yHolder
                                + "'") > 0);

                exit = x.killForcibly(Duration.ofMinutes(1));
                // what the dead server left, as committed: its deletion of the message in delivery died with it
                try (PreparedStatement ps = db.prepareStatement("INSERT INTO takeover_orphans"
                        + " SELECT id, attempts, visible_at FROM " + q + " WHERE leased_by = ?")) {
                    ps.setString(1, xHolder);
                    ps.executeUpdate();
                }
                orphans = ids(db, "SELECT id FROM takeover_orphans");
                Set<Long> stalled = new HashSet<>();
                for (int i = 1; i < stall.length; i++) {
                    stalled.add(Long.parseLong(stall[i]));
                }
                assertEquals(stalled, orphans, "the killed server held the message in delivery and those leased ahead");
                assertTrue(orphans.size() >= 2, "a message in delivery and at least one leased ahead: " + orphans);
                assertEquals(orphans.size(), count(db, "SELECT COUNT(*) FROM takeover_orphans WHERE attempts = 1"),
                        "each charged one attempt");
                assertEquals(orphans.size(), count(db, "SELECT COUNT(*) FROM takeover_orphans"
                        + " WHERE visible_at > CURRENT_TIMESTAMP"), "their lease had not run out when the server died"
                        + " (else the test did not test a takeover after a crash: raise TakeoverBean.LEASE_TIME_MILLIS)");

                Await.until("the queue is empty", Duration.ofMinutes(2),
                        () -> count(db, "SELECT COUNT(*) FROM " + q) == 0);
            }
            assertEquals(0, count(db, "SELECT COUNT(*) FROM " + table(queue, true)), "nothing dead-lettered");
            String processed = TakeoverBean.PROCESSED;
            assertEquals(sent, ids(db, "SELECT message_id FROM " + processed), "every message processed");
            assertEquals(BACKLOG, count(db, "SELECT COUNT(*) FROM " + processed), "each once");
            assertEquals(orphans.size(), count(db, "SELECT COUNT(*) FROM " + processed + " p JOIN takeover_orphans o"
                    + " ON o.id = p.message_id WHERE p.server = '" + yHolder + "' AND p.attempt = 2"
                    + " AND p.processed_at >= o.visible_at"),
                    "the killed server's messages processed by the other, at their second attempt, after their lease ran out");
            assertEquals(BACKLOG - orphans.size(), count(db, "SELECT COUNT(*) FROM " + processed
                    + " WHERE attempt = 1 AND message_id NOT IN (SELECT id FROM takeover_orphans)"),
                    "every other message at its first attempt: the crash charged no other");
            long byX = count(db, "SELECT COUNT(*) FROM " + processed + " WHERE server = '" + xHolder + "'");
            long byY = count(db, "SELECT COUNT(*) FROM " + processed + " WHERE server = '" + yHolder + "'");
            assertTrue(byX >= TakeoverBean.STALL_AFTER, "the killed server processed messages before: " + byX);
            assertEquals(BACKLOG, byX + byY, "by the two servers");
            String waited = waitedAfterLease(db);
            LOG.info(() -> "CRASH two servers on one queue: the first killed (SIGKILL, exit status " + exit + ") in a"
                    + " delivery with " + (orphans.size() - 1) + " messages leased ahead, after processing " + byX
                    + "; the second processed those " + orphans.size() + " at their second attempt " + waited
                    + " after their lease ran out, and the other " + (byY - orphans.size()) + " at their first");
        } finally {
            h2.stop();
        }
    }

    /** How long after their lease ran out the orphans were processed: min–max ms, by the database's clock. */
    private static String waitedAfterLease(Connection db) throws SQLException {
        try (Statement s = db.createStatement(); ResultSet rs = s.executeQuery("SELECT"
                + " MIN(DATEDIFF(MILLISECOND, o.visible_at, p.processed_at)),"
                + " MAX(DATEDIFF(MILLISECOND, o.visible_at, p.processed_at)) FROM " + TakeoverBean.PROCESSED + " p"
                + " JOIN takeover_orphans o ON o.id = p.message_id")) {
            rs.next();
            return rs.getLong(1) + "–" + rs.getLong(2) + " ms";
        }
    }

    private static void deploy(MicroProcess micro, File rar, File war) throws IOException {
        micro.deployAdapter(rar); // first: a WAR deployed before the adapter never activates its bean
        micro.deployWar(war.getName().replaceFirst("\\.war$", ""), war);
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
