package io.sqlqueue.it.metrics;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A scrape in the Prometheus text format, read as samples (name, labels, value) and each family's TYPE and HELP. */
final class PrometheusText {

    record Sample(String name, Map<String, String> labels, double value) {
    }

    private static final Pattern LINE = Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{(.*)})?\\s+(\\S+)");
    private static final Pattern META = Pattern.compile("# (TYPE|HELP) ([a-zA-Z_:][a-zA-Z0-9_:]*) ?(.*)");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\",?");

    private final List<Sample> samples = new ArrayList<>();
    private final Map<String, String> types = new HashMap<>();
    private final Map<String, String> helps = new HashMap<>();
    private final String text;

    PrometheusText(String text) {
        this.text = text;
        for (String line : text.split("\n")) {
            Matcher meta = META.matcher(line);
            if (meta.matches()) {
                (meta.group(1).equals("TYPE") ? types : helps).put(meta.group(2), meta.group(3).trim());
                continue;
            }
            Matcher m = LINE.matcher(line.trim());
            if (line.startsWith("#") || !m.matches()) {
                continue;
            }
            Map<String, String> labels = new LinkedHashMap<>();
            Matcher l = LABEL.matcher(m.group(2) == null ? "" : m.group(2));
            while (l.find()) {
                labels.put(l.group(1), l.group(2).replace("\\\"", "\"").replace("\\\\", "\\"));
            }
            samples.add(new Sample(m.group(1), labels, Double.parseDouble(m.group(3))));
        }
    }

    /** The samples of {@code name} that carry all of {@code labels}. */
    List<Sample> samples(String name, Map<String, String> labels) {
        return samples.stream().filter(s -> s.name().equals(name)
                && s.labels().entrySet().containsAll(labels.entrySet())).toList();
    }

    /** The value of the one sample of {@code name} with {@code labels}; fails unless exactly one. */
    double value(String name, Map<String, String> labels) {
        List<Sample> found = samples(name, labels);
        if (found.size() != 1) {
            throw new AssertionError(found.size() + " samples of " + name + labels + " in:\n" + text);
        }
        return found.get(0).value();
    }

    /** The value of the one sample of {@code name} with {@code labels}, a count: fails unless a whole number. */
    long count(String name, Map<String, String> labels) {
        double value = value(name, labels);
        if (value != Math.rint(value)) {
            throw new AssertionError(name + labels + " is " + value + ", not a count");
        }
        return (long) value;
    }

    /** The sum of the samples of {@code name} with {@code labels} (one per bean), a count: fails unless a whole number. */
    long sum(String name, Map<String, String> labels) {
        double sum = samples(name, labels).stream().mapToDouble(Sample::value).sum();
        if (sum != Math.rint(sum)) {
            throw new AssertionError(name + labels + " sums to " + sum + ", not a count");
        }
        return (long) sum;
    }

    /** The {@code # TYPE} of the family {@code name}, or null if none is given. */
    String type(String name) {
        return types.get(name);
    }

    /** The {@code # HELP} text of the family {@code name}, or null if none is given. */
    String help(String name) {
        return helps.get(name);
    }

    /** The names of all samples, each once, in scrape order. */
    List<String> names() {
        return samples.stream().map(Sample::name).distinct().toList();
    }
}
