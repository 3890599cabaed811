package io.sqlqueue.management;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.MBeanAttributeInfo;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;

/**
 * The figures' names, Prometheus types and HELP texts against everything that repeats them: the
 * MBean descriptions JMX consoles show, the README's table, the JMX exporter's rules for WildFly and
 * the Grafana dashboard's queries. The texts are the attributes' {@link Description}s, so these
 * cannot drift apart.
 */
class MetricFiguresTest {

    private static final Map<Class<?>, String> BEANS = Map.of(QueueMXBean.class,
            "io.sqlqueue:type=Queue,database=jdbc/test,name=orders", ConsumerMXBean.class,
            "io.sqlqueue:type=Consumer,database=jdbc/test,queue=orders,name=OrderBean", ProducerMXBean.class,
            "io.sqlqueue:type=Producer,name=jdbc/test");

    @Test
    void jmxConsolesShowEveryAttributesDescription() throws Exception {
        for (Class<?> mxbean : BEANS.keySet()) {
            ObjectName name = new ObjectName(BEANS.get(mxbean));
            ObjectName registered = PlatformMBeans.register(bean(mxbean), name.getKeyProperty("type"),
                    keys(name));
            assertNotNull(registered, "registered " + name);
            try {
                MBeanAttributeInfo[] attributes = ManagementFactory.getPlatformMBeanServer()
                        .getMBeanInfo(registered).getAttributes();
                assertTrue(attributes.length > 3, mxbean.getSimpleName() + " attributes");
                for (MBeanAttributeInfo attribute : attributes) {
                    String described = AttributeDescriptions.of(mxbean, attribute.getName());
                    assertTrue(described != null && !described.isBlank(),
                            mxbean.getSimpleName() + "." + attribute.getName() + " has a @Description");
                    assertEquals(described, attribute.getDescription(), "JMX shows " + attribute.getName() + "'s");
                }
            } finally {
                PlatformMBeans.unregister(registered);
            }
        }
    }

    @Test
    void countsAreCountersLevelsGaugesAndEveryFamilyHasHelp() throws Exception {
        Map<String, MetricFigures.Figure> families = families();
        assertEquals(23, families.size(), families.keySet().toString());
        for (MetricFigures.Figure f : families.values()) {
            assertEquals(f.name().endsWith("_total"), f.type() == MetricFigures.Type.COUNTER,
                    f.name() + " is a counter exactly when it is named _total");
            assertFalse(f.help().isBlank(), f.name() + " HELP");
            assertFalse(f.help().contains(" ms") || f.help().contains("millisecond"), f.name()
                    + ": the HELP names no unit, the metric's name does (seconds) and the attribute's (ms)");
        }
        assertEquals(ConsumerMXBean.LATENCY, families.get("sqlqueue_consumer_latency_seconds").help());
    }

    /**
     * A second bean of one name ({@code ,instance=2}) gets figures with the same label names as the
     * first, whose {@code bean_instance} is empty: Payara's registry refuses a name registered again
     * with other label names, which lost the second bean's figures.
     */
    @Test
    void aSecondBeanOfTheSameNameHasTheSameLabelNames() throws Exception {
        for (Class<?> mxbean : BEANS.keySet()) {
            ObjectName first = new ObjectName(BEANS.get(mxbean));
            ObjectName second = new ObjectName(BEANS.get(mxbean) + ",instance=2");
            for (int i = 0; i < MetricFigures.of(first, bean(mxbean)).size(); i++) {
                MetricFigures.Figure a = MetricFigures.of(first, bean(mxbean)).get(i);
                MetricFigures.Figure b = MetricFigures.of(second, bean(mxbean)).get(i);
                assertEquals(a.labels().keySet(), b.labels().keySet(), a.name());
                assertEquals("", a.labels().get("bean_instance"), a.name());
                assertEquals("2", b.labels().get("bean_instance"), b.name());
            }
        }
    }

    @Test
    void theReadmeListsEveryFamily() throws Exception {
        List<String> lines = Files.readAllLines(Path.of("..", "README.md"));
        int at = lines.indexOf("| metric | labels | from |");
        assertTrue(at >= 0, "the README's table of metrics");
        TreeSet<String> listed = new TreeSet<>();
        for (at += 2; at < lines.size() && lines.get(at).startsWith("|"); at++) {
            String prefix = "";
            Matcher m = Pattern.compile("`([a-z_]+)`").matcher(lines.get(at).split("\\|")[1]);
            while (m.find()) {
                String name = m.group(1);
                if (name.startsWith("sqlqueue_")) {
                    prefix = name.substring(0, name.indexOf('_', "sqlqueue_".length()));
                    listed.add(name);
                } else {
                    listed.add(prefix + name); // `_delayed` after `sqlqueue_queue_ready`
                }
            }
        }
        assertEquals(new TreeSet<>(families().keySet()), listed);
    }

    @Test
    void theExporterRulesGiveTheSameNamesTypesAndHelp() throws Exception {
        Map<String, MetricFigures.Figure> families = families();
        Map<String, List<String>> rules = new TreeMap<>();
        List<Map<String, String>> fields = new ArrayList<>();
        for (String line : Files.readAllLines(Path.of("..", "docs", "prometheus-jmx-exporter.yaml"))) {
            Matcher field = Pattern.compile(" *(- )?(pattern|name|type|help): (.*)").matcher(line);
            if (field.matches()) {
                if (field.group(1) != null) {
                    fields.add(new TreeMap<>()); // a rule begins
                }
                fields.get(fields.size() - 1).put(field.group(2), unquote(field.group(3)));
            }
        }
        for (Map<String, String> rule : fields) {
            // the exporter appends _total to a counter's name
            String exported = rule.get("type").equals("COUNTER") ? rule.get("name") + "_total" : rule.get("name");
            rules.computeIfAbsent(exported, k -> new ArrayList<>()).add(rule.get("type") + " " + rule.get("help"));
        }
        assertEquals(families.keySet(), rules.keySet(), "a rule for every family, no more");
        for (MetricFigures.Figure f : families.values()) {
            for (String rule : rules.get(f.name())) {
                assertEquals(f.type() + " " + f.help(), rule, "the rule for " + f.name());
            }
        }
    }

    @Test
    void theDashboardQueriesOnlyFamiliesThatExist() throws Exception {
        String dashboard = Files.readString(Path.of("..", "docs", "grafana-dashboard.json"));
        Matcher m = Pattern.compile("sqlqueue_[a-z_]+").matcher(dashboard);
        TreeSet<String> queried = new TreeSet<>();
        while (m.find()) {
            queried.add(m.group());
        }
        assertTrue(queried.size() > 5, queried.toString());
        assertTrue(families().keySet().containsAll(queried), "queried " + queried + ", exported " + families().keySet());
    }

    /** Every family by name, from beans of all three kinds; checks that same-named figures agree. */
    private static Map<String, MetricFigures.Figure> families() throws Exception {
        Map<String, MetricFigures.Figure> families = new LinkedHashMap<>();
        for (Map.Entry<Class<?>, String> b : BEANS.entrySet()) {
            for (MetricFigures.Figure f : MetricFigures.of(new ObjectName(b.getValue()), bean(b.getKey()))) {
                MetricFigures.Figure first = families.putIfAbsent(f.name(), f);
                if (first != null) {
                    assertEquals(first.type() + first.help(), f.type() + f.help(), f.name() + " is one family");
                }
            }
        }
        return families;
    }

    /** A bean answering zero, false or "" to everything. */
    private static Object bean(Class<?> mxbean) {
        return Proxy.newProxyInstance(mxbean.getClassLoader(), new Class<?>[] {mxbean}, (proxy, method, args) -> {
            Class<?> r = method.getReturnType();
            return r == long.class ? (Object) 0L : r == int.class ? (Object) 0 : r == double.class ? (Object) 0.0
                    : r == boolean.class ? (Object) false : r == String.class ? "" : null;
        });
    }

    private static String[] keys(ObjectName name) {
        List<String> keys = new ArrayList<>();
        name.getKeyPropertyList().forEach((k, v) -> {
            if (!k.equals("type")) {
                keys.add(k);
                keys.add(v);
            }
        });
        return keys.toArray(String[]::new);
    }

    private static String unquote(String s) {
        return s.startsWith("\"") && s.endsWith("\"") ? s.substring(1, s.length() - 1) : s;
    }
}
