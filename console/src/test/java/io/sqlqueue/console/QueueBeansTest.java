package io.sqlqueue.console;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The console's calls as a queue MXBean receives them, on a stand-in registered under the
 * adapter's name pattern with the adapter's operation names and signatures (the adapter's own
 * bean is tested with the same calls in its InboundContract): arguments arrive as given, the
 * results are read as open types, and no bean outside the adapter's queues is ever called.
 */
class QueueBeansTest {

    private final MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    private final QueueBeans beans = new QueueBeans(server);
    private final StandIn standIn = new StandIn();
    private ObjectName name;

    @BeforeEach
    void register() throws Exception {
        name = new ObjectName("io.sqlqueue:type=Queue,database=jdbc/test,name=orders");
        server.registerMBean(standIn, name);
    }

    @AfterEach
    void unregister() throws Exception {
        server.unregisterMBean(name);
    }

    @Test
    void theQueueListReadsEachQueuesFigures() {
        assertEquals(List.of(new QueueBeans.Queue(name.getCanonicalName(), "orders", "jdbc/test", 5, 1, 2, 3, 1500)),
                beans.queues());
    }

    @Test
    void onlyRegisteredQueueBeansOfTheAdapterAreCalled() {
        assertEquals(name, beans.queue(name.getCanonicalName()));
        for (String other : new String[] {"java.lang:type=Runtime", "io.sqlqueue:type=Consumer,queue=orders,name=x",
            "io.sqlqueue:type=Queue,*", "io.sqlqueue:type=Queue,database=jdbc/test,name=gone", "not a name", null}) {
            assertThrows(IllegalArgumentException.class, () -> beans.queue(other), String.valueOf(other));
        }
    }

    @Test
    void browsingPassesTheGroupAndPageAndReadsOpenTypes() {
        CompositeData[] groups = beans.groups(name);
        assertEquals(2L, groups[0].get("count"));
        assertNull(groups[0].get("errorClass"));
        assertEquals(1, beans.page(name, null, 0, 50).length);
        assertEquals("true null null 0 50", standIn.calls.get(standIn.calls.size() - 1));
        beans.page(name, new QueueBeans.Group("boom", null), 50, 50);
        assertEquals("false boom null 50 50", standIn.calls.get(standIn.calls.size() - 1));
        CompositeData m = beans.message(name, 7);
        assertArrayEquals(new byte[] {1, 2}, (byte[]) m.get("body"));
        assertEquals("dead_lettered", ((CompositeData[]) m.get("history"))[0].get("outcome"));
        assertNull(beans.message(name, 8), "none with this id");
    }

    @Test
    void changesPassTheActorAndTheAdaptersRefusalIsItsMessage() {
        assertEquals(2, beans.requeue(name, new long[] {7, 9}, "alice"));
        assertEquals("requeue [7, 9] alice", standIn.calls.get(standIn.calls.size() - 1));
        assertEquals(3, beans.delete(name, new QueueBeans.Group(null, "x.Y"), "bob"));
        assertEquals("delete group null x.Y bob", standIn.calls.get(standIn.calls.size() - 1));
        ConsoleException e = assertThrows(ConsoleException.class, () -> beans.delete(name, new long[] {1}, " "));
        assertEquals("actor must not be blank", e.getMessage());
        assertEquals("alice", beans.audit(name, 20)[0].get("actor"));
    }

    @Test
    void anEditPassesBodyHeadersAndActorAndReturnsTheNewId() {
        assertEquals("type=order", beans.message(name, 7).get("headerLines"));
        assertEquals(42L, beans.requeueEdited(name, 7, "fixed\nbody", "type=order\nfixed=yes", "carol"));
        assertEquals("edit 7 fixed\nbody type=order\nfixed=yes carol", standIn.calls.get(standIn.calls.size() - 1));
        assertEquals(0L, beans.requeueEdited(name, 8, null, "", "carol"), "no such dead letter");
        assertEquals("edit 8 null  carol", standIn.calls.get(standIn.calls.size() - 1), "null keeps the body");
        ConsoleException e = assertThrows(ConsoleException.class, () -> beans.requeueEdited(name, 7, "b", "bad", "carol"));
        assertTrue(e.getMessage().startsWith("header line 1"), e.getMessage());
    }

    @Test
    void aBinaryBodyIsShownInHexAndTextAsItIs() {
        assertEquals("héllo\nworld", Page.body("héllo\nworld".getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        assertEquals("00000000  00 01 ff", Page.body(new byte[] {0, 1, (byte) 0xff}));
        assertTrue(Page.body(new byte[Page.SHOWN_BODY_BYTES + 3]).endsWith("… 3 more bytes"));
        assertEquals("&lt;script&gt;&quot;&#39;&amp;", Page.escape("<script>\"'&"));
    }

    /** The stand-in's interface: the adapter's QueueMXBean's names and signatures for what the console calls. */
    public interface StandInMXBean {
        String getName();

        String getDatabase();

        long getReady();

        long getDelayed();

        long getLeased();

        long getDeadLettered();

        long getOldestReadyAgeMillis();

        Group[] deadLetterGroups();

        Row[] deadLetterPage(boolean wholeTable, String reason, String errorClass, int offset, int limit);

        Message deadLetter(long id);

        int requeueSelectedDeadLetters(long[] ids, String actor);

        int requeueDeadLetterGroup(String reason, String errorClass, String actor);

        int deleteSelectedDeadLetters(long[] ids, String actor);

        long requeueEditedDeadLetter(long id, String body, String headers, String actor);

        int deleteDeadLetterGroup(String reason, String errorClass, String actor);

        Audit[] auditTrail(int limit);
    }

    public static final class StandIn implements StandInMXBean {
        final List<String> calls = new ArrayList<>();

        public String getName() {
            return "orders";
        }

        public String getDatabase() {
            return "jdbc/test";
        }

        public long getReady() {
            return 5;
        }

        public long getDelayed() {
            return 1;
        }

        public long getLeased() {
            return 2;
        }

        public long getDeadLettered() {
            return 3;
        }

        public long getOldestReadyAgeMillis() {
            return 1500;
        }

        public Group[] deadLetterGroups() {
            return new Group[] {new Group()};
        }

        public Row[] deadLetterPage(boolean wholeTable, String reason, String errorClass, int offset, int limit) {
            calls.add(wholeTable + " " + reason + " " + errorClass + " " + offset + " " + limit);
            return new Row[] {new Row()};
        }

        public Message deadLetter(long id) {
            return id == 7 ? new Message() : null;
        }

        public int requeueSelectedDeadLetters(long[] ids, String actor) {
            calls.add("requeue " + java.util.Arrays.toString(ids) + " " + actor);
            return ids.length;
        }

        public int requeueDeadLetterGroup(String reason, String errorClass, String actor) {
            calls.add("requeue group " + reason + " " + errorClass + " " + actor);
            return 3;
        }

        public int deleteSelectedDeadLetters(long[] ids, String actor) {
            if (actor.isBlank()) {
                throw new IllegalArgumentException("actor must not be blank");
            }
            return ids.length;
        }

        public long requeueEditedDeadLetter(long id, String body, String headers, String actor) {
            if (headers.contains("bad")) {
                throw new IllegalArgumentException("header line 1 must be name=value with a name, was 'bad'");
            }
            calls.add("edit " + id + " " + body + " " + headers + " " + actor);
            return id == 7 ? 42 : 0;
        }

        public int deleteDeadLetterGroup(String reason, String errorClass, String actor) {
            calls.add("delete group " + reason + " " + errorClass + " " + actor);
            return 3;
        }

        public Audit[] auditTrail(int limit) {
            return new Audit[] {new Audit()};
        }
    }

    public static final class Group {
        public String getReason() {
            return "boom";
        }

        public String getErrorClass() {
            return null;
        }

        public long getCount() {
            return 2;
        }
    }

    public static class Row {
        public long getId() {
            return 7;
        }
    }

    public static final class Message extends Row {
        public byte[] getBody() {
            return new byte[] {1, 2};
        }

        public String getHeaderLines() {
            return "type=order";
        }

        public History[] getHistory() {
            return new History[] {new History()};
        }
    }

    public static final class History {
        public String getOutcome() {
            return "dead_lettered";
        }
    }

    public static final class Audit {
        public String getActor() {
            return "alice";
        }
    }
}
