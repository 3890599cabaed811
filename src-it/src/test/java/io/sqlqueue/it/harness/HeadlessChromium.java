package io.sqlqueue.it.harness;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Base64;
import java.util.Comparator;
import java.util.Deque;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Debian's Chromium, headless, with one page driven over the DevTools protocol through the JDK's
 * own WebSocket client: no Selenium, no driver binary, no JSON library (the few answers read are
 * picked out with patterns).
 */
public final class HeadlessChromium implements AutoCloseable {

    public static final Path BINARY = Path.of("/usr/bin/chromium");

    private static final Duration PATIENCE = Duration.ofSeconds(30);
    private static final Pattern DEVTOOLS = Pattern.compile("DevTools listening on (ws://[^/]+)/");
    private static final Pattern PAGE_SOCKET = Pattern.compile("\"webSocketDebuggerUrl\"\\s*:\\s*\"(ws://[^\"]+/devtools/page/[^\"]+)\"");
    private static final Pattern ANSWER_ID = Pattern.compile("^\\{\"id\":(\\d+),");

    private final Process process;
    private final Path profile;
    private final Deque<String> output = new ArrayDeque<>();
    private final Map<Integer, CompletableFuture<String>> answers = new ConcurrentHashMap<>();
    private final AtomicInteger ids = new AtomicInteger();
    private WebSocket page;

    public static boolean installed() {
        return Files.isExecutable(BINARY);
    }

    /** Starts Chromium with a fresh profile and a {@code width} × {@code height} page. */
    public static HeadlessChromium start(int width, int height) throws Exception {
        HeadlessChromium chromium = new HeadlessChromium(Files.createTempDirectory("chromium-profile"), width, height);
        try {
            chromium.connect(width, height);
            return chromium;
        } catch (Throwable e) { // whatever went wrong, no browser is left behind
            chromium.close();
            throw e;
        }
    }

    private HeadlessChromium(Path profile, int width, int height) throws IOException {
        this.profile = profile;
        // Without the background-networking flags its connections out are refused here and it
        // logs about them; root needs --no-sandbox.
        process = new ProcessBuilder(BINARY.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--hide-scrollbars", "--user-data-dir=" + profile,
                "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0",
                "--window-size=" + width + "," + height, "about:blank")
                .redirectErrorStream(true).start();
    }

    private void connect(int width, int height) throws Exception {
        String browser = devToolsAddress().get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        HttpClient http = HttpClient.newHttpClient();
        // the tab it opened with (about:blank), in front: Chromium may slow a background tab's timers
        String[] socket = {null};
        Await.until("Chromium lists its tab", PATIENCE, () -> {
            String targets = http.send(HttpRequest.newBuilder(URI.create(browser.replace("ws://", "http://")
                    + "/json/list")).timeout(PATIENCE).build(), HttpResponse.BodyHandlers.ofString()).body();
            Matcher page = PAGE_SOCKET.matcher(targets);
            socket[0] = page.find() ? page.group(1) : null;
            return socket[0] != null;
        });
        page = http.newWebSocketBuilder().buildAsync(URI.create(socket[0]), new Answers())
                .get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        call("Page.bringToFront", "{}");
        call("Emulation.setFocusEmulationEnabled", "{\"enabled\":true}");
        call("Emulation.setDeviceMetricsOverride",
                "{\"width\":" + width + ",\"height\":" + height + ",\"deviceScaleFactor\":1,\"mobile\":false}");
        call("Network.enable", "{}");
    }

    /** The browser's DevTools address, from the line Chromium prints once it listens; its output is kept. */
    private CompletableFuture<String> devToolsAddress() {
        CompletableFuture<String> address = new CompletableFuture<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader lines = new BufferedReader(
                    new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = lines.readLine()) != null; ) {
                    synchronized (output) {
                        output.addLast(line);
                        if (output.size() > 40) {
                            output.removeFirst();
                        }
                    }
                    Matcher m = DEVTOOLS.matcher(line);
                    if (m.find()) {
                        address.complete(m.group(1));
                    }
                }
            } catch (IOException e) {
                // the process ended: what it said is in output
            }
            address.completeExceptionally(new IllegalStateException("Chromium ended without a DevTools address: "
                    + lastOutput()));
        }, "chromium-output");
        reader.setDaemon(true);
        reader.start();
        return address;
    }

    /** The last lines Chromium printed, for failure messages. */
    public String lastOutput() {
        synchronized (output) {
            return String.join("\n", output);
        }
    }

    /** Sends a DevTools command; returns its answer as JSON text. */
    public String call(String method, String paramsJson) throws Exception {
        int id = ids.incrementAndGet();
        CompletableFuture<String> answer = new CompletableFuture<>();
        answers.put(id, answer);
        page.sendText("{\"id\":" + id + ",\"method\":\"" + method + "\",\"params\":" + paramsJson + "}", true)
                .get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        String json = answer.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        if (json.startsWith("{\"id\":" + id + ",\"error\"")) {
            throw new IllegalStateException(method + " failed: " + json);
        }
        return json;
    }

    public void open(String url) throws Exception {
        call("Page.navigate", "{\"url\":" + quote(url) + "}");
    }

    /**
     * Evaluates a JavaScript expression whose value is a string, in the page. (The value's pattern
     * is unrolled: one alternation per character overflowed the stack on a page's whole text.)
     */
    public String evaluate(String expression) throws Exception {
        String json = call("Runtime.evaluate", "{\"expression\":" + quote(expression) + ",\"returnByValue\":true}");
        Matcher value = Pattern.compile("\"result\":\\{\"type\":\"string\",\"value\":\"([^\"\\\\]*+(?:\\\\.[^\"\\\\]*+)*+)\"")
                .matcher(json);
        if (!value.find()) {
            throw new IllegalStateException("not a string: " + expression + " gave " + json);
        }
        return unquote(value.group(1));
    }

    /** The page as a PNG image, at the size it was started with. */
    public byte[] screenshot() throws Exception {
        Matcher data = Pattern.compile("\"data\":\"([A-Za-z0-9+/=]+)\"")
                .matcher(call("Page.captureScreenshot", "{\"format\":\"png\"}"));
        if (!data.find()) {
            throw new IllegalStateException("no screenshot in Chromium's answer");
        }
        return Base64.getDecoder().decode(data.group(1));
    }

    /** Cuts the page off the network (every request fails at once), or reconnects it. */
    public void offline(boolean offline) throws Exception {
        call("Network.emulateNetworkConditions", "{\"offline\":" + offline
                + ",\"latency\":0,\"downloadThroughput\":-1,\"uploadThroughput\":-1}");
    }

    @Override
    public void close() throws Exception {
        if (page != null) {
            page.abort();
        }
        process.descendants().forEach(ProcessHandle::destroy);
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        try (Stream<Path> files = Files.walk(profile)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        }
    }

    /** Collects each answer (possibly in several frames) and hands it to the command that waits for it. */
    private final class Answers implements WebSocket.Listener {
        private final StringBuilder message = new StringBuilder();

        @Override
        public CompletionStage<?> onText(WebSocket socket, CharSequence part, boolean last) {
            message.append(part);
            if (last) {
                String json = message.toString();
                message.setLength(0);
                Matcher id = ANSWER_ID.matcher(json);
                if (id.find()) { // events ({"method":…}) are not waited for
                    CompletableFuture<String> answer = answers.remove(Integer.parseInt(id.group(1)));
                    if (answer != null) {
                        answer.complete(json);
                    }
                }
            }
            socket.request(1);
            return null;
        }

        @Override
        public void onError(WebSocket socket, Throwable error) {
            answers.values().forEach(a -> a.completeExceptionally(error));
        }
    }

    static String quote(String s) {
        StringBuilder json = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') {
                json.append('\\').append(c);
            } else if (c < 0x20) {
                json.append(String.format("\\u%04x", (int) c));
            } else {
                json.append(c);
            }
        }
        return json.append('"').toString();
    }

    static String unquote(String s) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c != '\\') {
                text.append(c);
                continue;
            }
            char e = s.charAt(++i);
            switch (e) {
                case 'n' -> text.append('\n');
                case 't' -> text.append('\t');
                case 'r' -> text.append('\r');
                case 'b' -> text.append('\b');
                case 'f' -> text.append('\f');
                case 'u' -> {
                    text.append((char) Integer.parseInt(s.substring(i + 1, i + 5), 16));
                    i += 4;
                }
                default -> text.append(e); // \" \\ \/
            }
        }
        return text.toString();
    }
}
