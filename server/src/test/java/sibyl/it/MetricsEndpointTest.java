package sibyl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static sibyl.it.Requests.all;
import static sibyl.it.Requests.b;
import static sibyl.it.Requests.column;
import static sibyl.it.Requests.insertion;
import static sibyl.it.Requests.keys;
import static sibyl.it.Requests.names;
import static sibyl.it.Requests.parent;
import static sibyl.it.Requests.path;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;
import java.util.zip.GZIPInputStream;
import org.apache.cassandra.thrift.AuthenticationException;
import org.apache.cassandra.thrift.AuthenticationRequest;
import org.apache.cassandra.thrift.AuthorizationException;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.cassandra.thrift.ConsistencyLevel;
import org.apache.cassandra.thrift.InvalidRequestException;
import org.apache.cassandra.thrift.Mutation;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransport;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import sibyl.metrics.ExpositionParser;
import sibyl.metrics.ExpositionParser.Exposition;
import sibyl.testing.OnThreads;

/**
 * The metrics endpoint (MetricsPort) of a real node, scraped with the JDK's HTTP client while clients
 * load the node through the generated Thrift bindings: every scrape is valid exposition format (read by
 * a strict parser), and the counters move by exactly what the clients did.
 */
class MetricsEndpointTest {
    private static final String KS = "Keyspace1";
    private static final ConsistencyLevel ONE = ConsistencyLevel.ONE;
    private static final Duration TIMEOUT = Duration.ofSeconds(20);

    private static final int METRICS_PORT = freePort();
    @RegisterExtension
    static final NodeExtension NODE = NodeExtension.embedded()
            .edit(ConfEdits.all(ConfEdits.simpleAuthenticator(), metricsPort(METRICS_PORT)));
    @TempDir
    static Path dir;
    static URI metrics;
    static HttpClient http;

    @BeforeAll
    static void connect() {
        InetSocketAddress bound = NODE.node().metricsAddress().orElseThrow();
        assertEquals(METRICS_PORT, bound.getPort());
        metrics = URI.create("http://127.0.0.1:" + METRICS_PORT + "/metrics");
        http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
    }

    private static UnaryOperator<String> metricsPort(int port) {
        return ConfEdits.all(ConfEdits.set("MetricsPort", port), ConfEdits.set("ListenAddress", "127.0.0.1"));
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A client logged in as jsmith, who may use Keyspace1. */
    private static Cassandra.Client loggedIn() throws Exception {
        Cassandra.Client c = NODE.node().client();
        c.login(KS, credentials("jsmith", "havebadpass"));
        return c;
    }

    private static AuthenticationRequest credentials(String user, String password) {
        return new AuthenticationRequest(new HashMap<>(Map.of("username", user, "password", password)));
    }

    private static HttpResponse<String> get(URI uri) throws Exception {
        return http.send(HttpRequest.newBuilder(uri).timeout(TIMEOUT).GET().build(),
                HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    private static Exposition scrape() throws Exception {
        HttpResponse<String> response = get(metrics);
        assertEquals(200, response.statusCode(), response.body());
        assertEquals("text/plain; version=0.0.4; charset=utf-8",
                response.headers().firstValue("Content-Type").orElse(null));
        return ExpositionParser.parse(response.body());
    }

    private static String[] cf(String columnFamily) {
        return new String[] {"keyspace", KS, "columnfamily", columnFamily};
    }

    /** Every per column family series of the request families, by family, column family and value. */
    private static Map<String, Double> requestSeries(Exposition e) {
        Map<String, Double> series = new HashMap<>();
        for (String family : List.of("sibyl_cf_reads_total", "sibyl_cf_writes_total", "sibyl_cf_range_scans_total")) {
            for (ExpositionParser.Sample s : e.family(family).samples()) series.put(family + s.labels(), s.value());
        }
        for (String family : List.of("sibyl_cf_read_latency_seconds", "sibyl_cf_write_latency_seconds",
                "sibyl_cf_range_scan_latency_seconds")) {
            for (ExpositionParser.Sample s : e.family(family).samples()) {
                if (s.name().endsWith("_count")) series.put(s.name() + s.labels(), s.value());
            }
        }
        return series;
    }

    @Test
    void countersMoveByExactlyWhatTheLoadDid() throws Exception {
        int threads = 4;
        int inserts = 50; // per thread, into Standard1
        int readKeys = 25; // per thread: each read twice from Standard1, so 100 keys fit its row cache of 100
        int rangeScans = 5; // per thread, of Standard1
        int multigetKeys = 3; // per thread, from Standard2
        int batchRows = 2; // per thread, each row written to Standard1 and Standard2

        Exposition before = scrape();
        AtomicInteger scrapes = new AtomicInteger();
        AtomicReference<Throwable> scrapeFailure = new AtomicReference<>();
        AtomicInteger stopScraping = new AtomicInteger();
        Thread scraper = new Thread(() -> {
            double lastWrites = -1;
            try {
                while (stopScraping.get() == 0) {
                    Exposition during = scrape();
                    double writes = during.value("sibyl_cf_writes_total", cf("Standard1"));
                    double histogramCount = during.value("sibyl_cf_write_latency_seconds_count", cf("Standard1"));
                    assertEquals(writes, histogramCount, "a counter and its histogram read at one moment");
                    assertTrue(writes >= lastWrites, "a counter went back from " + lastWrites + " to " + writes);
                    lastWrites = writes;
                    scrapes.incrementAndGet();
                }
            } catch (Throwable t) {
                scrapeFailure.set(t);
            }
        }, "scraper");
        scraper.start();
        awaitUntil("the first scrape during the load", () -> scrapes.get() > 0 || scrapeFailure.get() != null);

        OnThreads.run(threads, TIMEOUT, thread -> {
            Cassandra.Client c = loggedIn();
            long ts = System.currentTimeMillis() * 1000;
            for (int i = 0; i < inserts; i++) {
                c.insert(KS, "t" + thread + "-k" + i, path("Standard1", "c"), b("v" + i), ts, ONE);
            }
            for (int round = 0; round < 2; round++) {
                for (int i = 0; i < readKeys; i++) {
                    assertEquals(1, c.get_slice(KS, "t" + thread + "-k" + i, parent("Standard1"), all(),
                            ONE).size());
                }
            }
            for (int i = 0; i < rangeScans; i++) {
                assertTrue(c.get_range_slices(KS, parent("Standard1"), all(), keys("", "", 10), ONE).size() > 0);
            }
            List<String> absent = new ArrayList<>();
            for (int i = 0; i < multigetKeys; i++) absent.add("t" + thread + "-absent" + i);
            assertEquals(multigetKeys, c.multiget_slice(KS, absent, parent("Standard2"), all(), ONE).size());
            Map<String, Map<String, List<Mutation>>> batch = new HashMap<>();
            for (int i = 0; i < batchRows; i++) {
                batch.put("t" + thread + "-b" + i, Map.of(
                        "Standard1", List.of(insertion(column("c", "b", ts))),
                        "Standard2", List.of(insertion(column("c", "b", ts)))));
            }
            c.batch_mutate(KS, batch, ONE);
        });
        stopScraping.set(1);
        scraper.join(TIMEOUT.toMillis());
        assertNull(scrapeFailure.get(), () -> "a scrape during the load failed: " + scrapeFailure.get());
        assertTrue(scrapes.get() > 0);

        Exposition after = scrape();
        int standard1Writes = threads * (inserts + batchRows);
        int standard2Writes = threads * batchRows;
        int standard1Reads = threads * readKeys * 2;
        Map<String, Double> expected = new HashMap<>();
        expect(expected, "Standard1", standard1Reads, standard1Writes, threads * rangeScans);
        expect(expected, "Standard2", threads * multigetKeys, standard2Writes, 0);
        Map<String, Double> was = requestSeries(before);
        Map<String, Double> now = requestSeries(after);
        assertEquals(was.keySet(), now.keySet());
        assertTrue(now.size() >= 6 * 20, "every configured column family has its series: " + now.size());
        for (Map.Entry<String, Double> series : now.entrySet()) {
            assertEquals(expected.getOrDefault(series.getKey(), 0.0), series.getValue() - was.get(series.getKey()),
                    series.getKey());
        }
        // The latencies add up to something for what ran, and nothing for what did not.
        assertTrue(delta(before, after, "sibyl_cf_write_latency_seconds_sum", cf("Standard1")) > 0);
        assertTrue(delta(before, after, "sibyl_cf_range_scan_latency_seconds_sum", cf("Standard1")) > 0);
        assertEquals(0, delta(before, after, "sibyl_cf_write_latency_seconds_sum", cf("Super1")));

        // The store: one commit log entry per row mutation, one memtable column per column written; the
        // row cache of Standard1 looked up once per read, the second read of each key a hit.
        assertEquals(standard1Writes + 0.0, delta(before, after, "sibyl_commitlog_entries_total"));
        assertTrue(delta(before, after, "sibyl_commitlog_written_bytes_total") > standard1Writes * 20);
        assertEquals(standard1Writes, delta(before, after, "sibyl_cf_memtable_columns", cf("Standard1")));
        assertEquals(standard2Writes, delta(before, after, "sibyl_cf_memtable_columns", cf("Standard2")));
        assertTrue(delta(before, after, "sibyl_cf_memtable_bytes", cf("Standard1")) > 0);
        assertEquals(standard1Reads, delta(before, after, "sibyl_cf_row_cache_requests_total", cf("Standard1")));
        assertEquals(standard1Reads / 2, delta(before, after, "sibyl_cf_row_cache_hits_total", cf("Standard1")));
        assertEquals(after.value("sibyl_cf_row_cache_hits_total", cf("Standard1"))
                        / after.value("sibyl_cf_row_cache_requests_total", cf("Standard1")),
                after.value("sibyl_cf_row_cache_hit_ratio", cf("Standard1")), 1e-12);
    }

    private static void expect(Map<String, Double> expected, String columnFamily, int reads, int writes, int ranges) {
        Map<String, String> labels = ExpositionParser.labelMap(cf(columnFamily));
        expected.put("sibyl_cf_reads_total" + labels, (double) reads);
        expected.put("sibyl_cf_read_latency_seconds_count" + labels, (double) reads);
        expected.put("sibyl_cf_writes_total" + labels, (double) writes);
        expected.put("sibyl_cf_write_latency_seconds_count" + labels, (double) writes);
        expected.put("sibyl_cf_range_scans_total" + labels, (double) ranges);
        expected.put("sibyl_cf_range_scan_latency_seconds_count" + labels, (double) ranges);
    }

    private static double delta(Exposition before, Exposition after, String sample, String... labels) {
        return after.value(sample, labels) - before.value(sample, labels);
    }

    @Test
    void aFlushShowsInSSTablesMemtableAndKeyCache() throws Exception {
        Cassandra.Client c = loggedIn();
        long ts = System.currentTimeMillis() * 1000;
        int rows = 20;
        for (int i = 0; i < rows; i++) c.insert(KS, "flushed" + i, path("Standard2", "c"), b("v"), ts, ONE);
        Exposition before = scrape();
        NODE.node().invoke("org.apache.cassandra.service:type=StorageService", "forceTableFlush", KS,
                new String[] {"Standard2"});
        for (int round = 0; round < 2; round++) {
            for (int i = 0; i < rows; i++) {
                assertEquals(1, c.get_slice(KS, "flushed" + i, parent("Standard2"), names("c"), ONE).size());
            }
        }
        Exposition after = scrape();
        assertEquals(1, delta(before, after, "sibyl_cf_live_sstables", cf("Standard2")));
        assertEquals(1, delta(before, after, "sibyl_cf_memtable_switches_total", cf("Standard2")));
        assertEquals(0, after.value("sibyl_cf_memtable_columns", cf("Standard2")));
        assertEquals(0, after.value("sibyl_cf_pending_flushes", cf("Standard2")));
        assertTrue(after.value("sibyl_cf_live_sstable_bytes", cf("Standard2")) > 0);
        // Every read looks its key up in the one SSTable's key cache (KeysCached 100%); the second read of each key hits.
        assertEquals(2 * rows, delta(before, after, "sibyl_cf_key_cache_requests_total", cf("Standard2")));
        assertEquals(rows, delta(before, after, "sibyl_cf_key_cache_hits_total", cf("Standard2")));
        assertTrue(after.value("sibyl_cf_key_cache_entries", cf("Standard2")) >= rows);
        assertEquals(0, after.value("sibyl_pending_flushes"));
        assertTrue(after.value("sibyl_commitlog_disk_bytes") > 0);
    }

    @Test
    void refusalsOfAuthenticationAreCountedByReason() throws Exception {
        Exposition before = scrape();
        Cassandra.Client c = NODE.node().client();
        assertThrows(InvalidRequestException.class, () -> c.get_slice(KS, "k", parent("Standard1"), all(), ONE));
        assertThrows(AuthenticationException.class, () -> c.login(KS, credentials("jsmith", "wrong")));
        assertThrows(AuthorizationException.class, () -> c.login("Twitter", credentials("jsmith", "havebadpass")));
        Exposition after = scrape();
        assertEquals(1, delta(before, after, "sibyl_auth_refusals_total", "reason", "not_logged_in"));
        assertEquals(1, delta(before, after, "sibyl_auth_refusals_total", "reason", "bad_credentials"));
        assertEquals(1, delta(before, after, "sibyl_auth_refusals_total", "reason", "no_access"));
        assertEquals(0, delta(before, after, "sibyl_thrift_calls_refused_total", "reason", "request_bytes"));
        assertEquals(0, delta(before, after, "sibyl_thrift_calls_refused_total", "reason", "worker_queue"));
    }

    @Test
    void openConnectionsAreCounted() throws Exception {
        double open = scrape().value("sibyl_thrift_connections");
        List<TTransport> connections = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                TTransport t = new TSocket("127.0.0.1", NODE.node().port(), (int) TIMEOUT.toMillis());
                t.open();
                connections.add(t);
                assertEquals("2.2.0", new Cassandra.Client(new TBinaryProtocol(t)).describe_version()); // served
            }
            assertEquals(open + 3, scrape().value("sibyl_thrift_connections"));
        } finally {
            connections.forEach(TTransport::close);
        }
        awaitUntil("the closed connections are no longer counted", () -> {
            try {
                return scrape().value("sibyl_thrift_connections") == open;
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
        Exposition e = scrape();
        assertEquals(0, e.value("sibyl_thrift_connections_refused_total"));
        assertTrue(e.value("sibyl_jvm_heap_used_bytes") > 0);
        assertTrue(e.value("sibyl_jvm_heap_committed_bytes") >= e.value("sibyl_jvm_heap_used_bytes"));
        assertTrue(e.family("sibyl_jvm_gc_collections_total").samples().size() >= 1);
        assertTrue(e.family("sibyl_jvm_gc_collection_seconds_total").samples().size() >= 1);
    }

    @Test
    void onlyGetAndHeadOfMetricsAreServed() throws Exception {
        for (String other : List.of("/", "/metric", "/metrics/x", "/favicon.ico")) {
            HttpResponse<String> response = get(metrics.resolve(other));
            assertEquals(404, response.statusCode(), other);
            assertTrue(response.body().contains("/metrics"), response.body());
        }
        assertEquals(200, get(URI.create(metrics + "?name[]=x")).statusCode(), "a query string is ignored");

        HttpResponse<String> post = http.send(HttpRequest.newBuilder(metrics).timeout(TIMEOUT)
                .POST(HttpRequest.BodyPublishers.ofString("x")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(405, post.statusCode());
        assertEquals("GET, HEAD", post.headers().firstValue("Allow").orElse(null));

        HttpResponse<String> head = http.send(HttpRequest.newBuilder(metrics).timeout(TIMEOUT)
                .method("HEAD", HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, head.statusCode());
        assertEquals("", head.body());
        assertTrue(head.headers().firstValue("Content-Type").orElse("").startsWith("text/plain; version=0.0.4"));

        // Prometheus asks for gzip.
        HttpResponse<byte[]> gzipped = http.send(HttpRequest.newBuilder(metrics).timeout(TIMEOUT)
                .header("Accept-Encoding", "gzip").GET().build(), HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, gzipped.statusCode());
        assertEquals("gzip", gzipped.headers().firstValue("Content-Encoding").orElse(null));
        String text;
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(gzipped.body()))) {
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertTrue(ExpositionParser.parse(text).families().containsKey("sibyl_cf_reads_total"));
    }

    @Test
    void stuckScrapersHoldUpNeitherThriftNorOtherScrapes() throws Exception {
        List<Socket> stuck = new ArrayList<>();
        try {
            // Requests that never end, and one that asks for many answers and reads none.
            for (int i = 0; i < 10; i++) {
                Socket s = new Socket("127.0.0.1", metrics.getPort());
                s.getOutputStream().write("GET /metr".getBytes(StandardCharsets.US_ASCII));
                s.getOutputStream().flush();
                stuck.add(s);
            }
            Socket greedy = new Socket("127.0.0.1", metrics.getPort());
            greedy.setReceiveBufferSize(4096);
            stuck.add(greedy);
            OutputStream out = greedy.getOutputStream();
            byte[] request = "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
            for (int i = 0; i < 200; i++) out.write(request);
            out.flush();

            Cassandra.Client c = loggedIn();
            long ts = System.currentTimeMillis() * 1000;
            for (int i = 0; i < 100; i++) c.insert(KS, "beside-stuck" + i, path("Standard1", "c"), b("v"), ts, ONE);
            assertEquals(100, c.get_range_slices(KS, parent("Standard1"), all(), keys("", "", 1000), ONE).stream()
                    .filter(row -> row.getKey().startsWith("beside-stuck")).count());
            assertTrue(scrape().value("sibyl_cf_writes_total", cf("Standard1")) >= 100);
        } finally {
            stuck.forEach(MetricsEndpointTest::closeQuietly);
        }
    }

    @Test
    void metricsPortZeroListensNowhere() throws Exception {
        Set<Integer> before = listeningPorts();
        try (TestNode quiet = TestNode.start(dir.resolve("quiet"))) {
            assertTrue(quiet.metricsAddress().isEmpty());
            Set<Integer> opened = new HashSet<>(listeningPorts());
            opened.removeAll(before);
            assertEquals(Set.of(quiet.port()), opened, "the Thrift port alone");
        }
    }

    @Test
    void aNodeWhoseMetricsPortIsTakenServesClientsWithoutMetrics() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"));
             TestNode busy = TestNode.start(dir.resolve("busy"), metricsPort(taken.getLocalPort()))) {
            assertTrue(busy.metricsAddress().isEmpty());
            assertEquals("2.2.0", busy.client().describe_version());
        }
    }

    /** Local ports this process listens on over TCP, from /proc: sockets among its descriptors in state LISTEN. */
    private static Set<Integer> listeningPorts() throws IOException {
        Set<String> inodes = new HashSet<>();
        try (var fds = Files.list(Path.of("/proc/self/fd"))) {
            for (Path fd : (Iterable<Path>) fds::iterator) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith("socket:[")) inodes.add(target.substring(8, target.length() - 1));
                } catch (IOException gone) {
                    // closed while listing
                }
            }
        }
        Set<Integer> ports = new HashSet<>();
        for (String table : List.of("/proc/self/net/tcp", "/proc/self/net/tcp6")) {
            Path file = Path.of(table);
            if (!Files.exists(file)) continue;
            List<String> lines = Files.readAllLines(file);
            for (String line : lines.subList(1, lines.size())) {
                String[] f = line.trim().split("\\s+");
                if (f[3].equals("0A") && inodes.contains(f[9])) {
                    ports.add(Integer.parseInt(f[1].substring(f[1].indexOf(':') + 1), 16));
                }
            }
        }
        if (ports.isEmpty()) fail("no listening socket found in /proc, though the test node listens");
        return ports;
    }

    private static void awaitUntil(String what, java.util.function.BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) fail("timed out waiting for " + what);
            Thread.sleep(5);
        }
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // the test is over with it
        }
    }
}
