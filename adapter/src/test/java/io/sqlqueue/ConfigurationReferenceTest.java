package io.sqlqueue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sqlqueue.inbound.QueueActivationSpec;
import io.sqlqueue.QueueResourceAdapter;
import io.sqlqueue.outbound.QueueManagedConnectionFactory;
import jakarta.resource.spi.ConfigProperty;
import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The README's tables of resource adapter, connection factory and activation properties against
 * the code: every {@code @ConfigProperty} has a row and every row a property, the type column is
 * the field's type, a literal default in the table is the property's initial value, and the
 * annotation's {@code defaultValue} (which the server consoles show) is that value too. So the
 * reference cannot drift from the code.
 */
class ConfigurationReferenceTest {

    /** What the table says of a property with no value of its own (null or empty). */
    private static final Set<String> NO_VALUE = Set.of("empty", "required", "the adapter's", "derived",
            "queue + _dlq");

    @Test
    void theResourceAdapterTableIsTheResourceAdaptersProperties() throws Exception {
        assertTableMatches("Resource adapter properties", new QueueResourceAdapter());
    }

    @Test
    void theActivationPropertiesTableIsTheActivationSpecsProperties() throws Exception {
        assertTableMatches("Activation properties", new QueueActivationSpec());
    }

    @Test
    void theConnectionFactoryTableIsTheConnectionFactorysProperties() throws Exception {
        assertTableMatches("Connection factory properties", new QueueManagedConnectionFactory());
    }

    private static void assertTableMatches(String heading, Object bean) throws Exception {
        Map<String, Row> documented = table(heading);
        Map<String, Field> properties = new TreeMap<>();
        for (Field f : bean.getClass().getDeclaredFields()) {
            if (f.isAnnotationPresent(ConfigProperty.class)) {
                properties.put(f.getName(), f);
            }
        }
        assertEquals(properties.keySet(), documented.keySet(), "the README's '" + heading + "' table against the"
                + " @ConfigProperty fields of " + bean.getClass().getSimpleName());
        for (Field f : properties.values()) {
            f.setAccessible(true);
            Object value = f.get(bean);
            String actual = value == null ? "" : value.toString();
            String annotated = f.getAnnotation(ConfigProperty.class).defaultValue();
            assertEquals(actual, annotated, "the defaultValue the console shows for " + f.getName());
            Row row = documented.get(f.getName());
            assertEquals(f.getType().getSimpleName(), row.type(), "the README's type of " + f.getName());
            String cell = row.defaultValue();
            if (actual.isEmpty()) {
                assertTrue(NO_VALUE.contains(cell), f.getName() + " has no default value, but the README says '"
                        + cell + "'");
            } else {
                assertEquals(actual, cell.replace(",", ""), "the README's default of " + f.getName());
            }
        }
    }

    /** A row's type and default cells, backticks removed. */
    private record Row(String type, String defaultValue) {
    }

    /**
     * The rows of the table (property, type, default, meaning) after the line that starts with
     * {@code heading}, by property name: one entry per name where a row names several (`a`, `b`).
     */
    private static Map<String, Row> table(String heading) throws IOException {
        List<String> lines = Files.readAllLines(Path.of("..", "README.md"));
        int at = 0;
        while (at < lines.size() && !lines.get(at).startsWith(heading)) {
            at++;
        }
        assertTrue(at < lines.size(), "the README has no line starting with '" + heading + "'");
        while (!lines.get(at).startsWith("|")) {
            at++;
        }
        Map<String, Row> rows = new TreeMap<>();
        for (at += 2; at < lines.size() && lines.get(at).startsWith("|"); at++) { // after the header and its rule
            String[] cells = lines.get(at).split("\\|");
            Row row = new Row(cells[2].trim().replace("`", ""), cells[3].trim().replace("`", ""));
            for (String name : cells[1].split(",")) {
                rows.put(name.trim().replace("`", ""), row);
            }
        }
        return rows;
    }
}
