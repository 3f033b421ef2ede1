package sibyl.client.stress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sibyl.client.fake.FakeCassandra;
import sibyl.client.fake.FakeServer;

class StressTest {

    private static final Pattern DONE = Pattern.compile("Done: (\\d+) (\\w+) operations in .*, (\\d+) errors");
    private static final Pattern VERIFY = Pattern.compile("Verify: (\\d+) mismatched columns, (\\d+) missing rows");

    @TempDir
    Path dir;

    private FakeServer server;

    @BeforeEach
    void start() {
        server = FakeServer.start();
    }

    @AfterEach
    void stop() throws InterruptedException {
        server.close();
    }

    record Run(int status, String out, String err) {
        long reported() {
            Matcher m = DONE.matcher(out);
            assertTrue(m.find(), out);
            return Long.parseLong(m.group(1));
        }

        long reportedErrors() {
            Matcher m = DONE.matcher(out);
            assertTrue(m.find(), out);
            return Long.parseLong(m.group(3));
        }

        long[] verify() {
            Matcher m = VERIFY.matcher(out);
            assertTrue(m.find(), out);
            return new long[] {Long.parseLong(m.group(1)), Long.parseLong(m.group(2))};
        }
    }

    private Run stress(String... args) {
        String[] all = new String[args.length + 6];
        all[0] = "-h";
        all[1] = "127.0.0.1";
        all[2] = "-p";
        all[3] = String.valueOf(server.port());
        all[4] = "--seed";
        all[5] = "42";
        System.arraycopy(args, 0, all, 6, args.length);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = Stress.run(all, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void insertCountMatchesWhatTheServerStored() {
        Run r = stress("-n", "2000", "-t", "4", "-c", "3", "-i", "0.2");
        assertEquals(0, r.status(), r.out() + r.err());
        assertEquals(2000, r.reported());
        assertEquals(2000, server.handler().rowCount(FakeCassandra.KEYSPACE, "Standard1"));
        assertEquals(6000, server.handler().columnCount(FakeCassandra.KEYSPACE, "Standard1"));
        assertTrue(r.out().contains("time_s"), "progress header");
    }

    @Test
    void readsOfInsertedDataVerifyClean() {
        assertEquals(0, stress("-n", "500", "-t", "4", "-S", "20").status());
        for (String op : List.of("read", "range_slice", "multiget")) {
            Run r = stress("-o", op, "-n", "500", "-t", "3", "-S", "20", "--count", "300", "--verify",
                    "--range-count", "7");
            assertEquals(0, r.status(), op + ": " + r.out() + r.err());
            assertEquals(300, r.reported(), op);
            assertEquals(0, r.verify()[0], op + " mismatches");
            assertEquals(0, r.verify()[1], op + " missing rows");
        }
    }

    @Test
    void thePlainInsertWritesOneColumnPerKeyThatGetAndGetSliceReadBack() {
        Run insert = stress("-o", "insert_column", "-n", "500", "-t", "4", "-S", "20");
        assertEquals(0, insert.status(), insert.out() + insert.err());
        assertEquals(500, insert.reported());
        assertTrue(insert.out().startsWith("Stress: insert_column on Keyspace1.Standard1"), insert.out());
        assertEquals(500, server.handler().rowCount(FakeCassandra.KEYSPACE, "Standard1"));
        assertEquals(500, server.handler().columnCount(FakeCassandra.KEYSPACE, "Standard1"));
        for (String loops : List.of("0", "2")) {
            for (String[] op : List.of(new String[] {"-o", "get_column"}, new String[] {"-o", "read", "-c", "1"})) {
                Run r = stress(concat(concat(op, new String[] {"-n", "500", "-t", "3", "-S", "20", "--count", "300",
                    "--verify"}), loops(loops)));
                assertEquals(0, r.status(), op[1] + ": " + r.out() + r.err());
                assertEquals(300, r.reported(), op[1]);
                assertEquals(0, r.verify()[0], op[1] + " mismatches");
                assertEquals(0, r.verify()[1], op[1] + " missing rows");
            }
        }
        // The plain get reads C0 of what a batch_mutate of several columns wrote too.
        assertEquals(0, stress("-n", "600", "-t", "2", "-c", "3", "-S", "20", "--distribution", "sequential")
                .status());
        Run get = stress("-o", "get_column", "-n", "600", "-t", "2", "-S", "20", "--verify");
        assertEquals(0, get.verify()[0]);
        assertEquals(0, get.verify()[1]);
    }

    @Test
    void thePlainGetCountsWrongValuesAndMissingColumns() {
        assertEquals(0, stress("-o", "insert_column", "-n", "100", "-t", "2", "-S", "10").status());
        for (String loops : List.of("0", "1")) {
            Run wrongSize = stress(concat(new String[] {"-o", "get_column", "-n", "100", "-t", "2", "-S", "12",
                "--verify", "--distribution", "sequential"}, loops(loops)));
            assertEquals(1, wrongSize.status(), "mismatches fail the run");
            assertEquals(100, wrongSize.verify()[0], "every column read");
            Run beyond = stress(concat(new String[] {"-o", "get_column", "-n", "250", "-t", "2", "-S", "10",
                "--verify", "--distribution", "sequential"}, loops(loops)));
            assertEquals(0, beyond.status(), "missing columns alone do not fail the run: " + beyond.out());
            assertEquals(0, beyond.reportedErrors(), "a NotFoundException is an answer, not an error");
            assertEquals(150, beyond.verify()[1], "keys 100..249 were never written");
            assertEquals(0, beyond.verify()[0]);
        }
        Run refused = stress("-o", "insert_column", "-n", "20", "-t", "2", "-C", "NoSuchFamily");
        assertEquals(1, refused.status());
        assertEquals(20, refused.reportedErrors());
        assertTrue(refused.out().contains("First error: insert into Keyspace1.NoSuchFamily key '"), refused.out());
    }

    @Test
    void thePlainCallsInASuperColumnFamilyUseSuperColumnS0() {
        Run r = stress("-o", "insert_column", "-y", "super", "-n", "200", "-t", "4");
        assertEquals(0, r.status(), r.out() + r.err());
        assertEquals(200, server.handler().columnCount(FakeCassandra.KEYSPACE, "Super1"));
        for (String loops : List.of("0", "2")) {
            Run get = stress(concat(new String[] {"-o", "get_column", "-y", "super", "-n", "200", "-t", "4",
                "--verify"}, loops(loops)));
            assertEquals(0, get.status(), get.out() + get.err());
            assertEquals(0, get.verify()[0]);
            assertEquals(0, get.verify()[1]);
            // A batch_mutate of one super column of one column wrote the same: get_slice reads it back.
            Run read = stress(concat(new String[] {"-o", "read", "-y", "super", "-c", "1", "-n", "200", "-t", "4",
                "--verify"}, loops(loops)));
            assertEquals(0, read.verify()[0]);
            assertEquals(0, read.verify()[1]);
        }
    }

    @Test
    void verifyCountsWrongValuesAndMissingRows() {
        assertEquals(0, stress("-n", "100", "-t", "2", "-c", "2", "-S", "10").status());
        Run wrongSize = stress("-o", "read", "-n", "100", "-t", "2", "-c", "2", "-S", "12", "--verify",
                "--distribution", "sequential");
        assertEquals(1, wrongSize.status(), "mismatches fail the run");
        assertEquals(200, wrongSize.verify()[0], "every column of every row read");
        Run beyond = stress("-o", "read", "-n", "200", "-t", "2", "-c", "2", "-S", "10", "--verify",
                "--distribution", "sequential");
        assertEquals(100, beyond.verify()[1], "keys 100..199 were never written");
        assertEquals(0, beyond.verify()[0]);
        assertEquals(0, beyond.status(), "missing rows alone do not fail the run");
    }

    @Test
    void framedTransport() throws Exception {
        try (FakeServer framed = FakeServer.start(new FakeCassandra(), true)) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            int status = Stress.run(new String[] {"--framed", "-h", "127.0.0.1", "-p", String.valueOf(framed.port()),
                "-n", "100", "-t", "2"}, new PrintStream(out, true, StandardCharsets.UTF_8), System.err);
            assertEquals(0, status, out.toString(StandardCharsets.UTF_8));
            assertEquals(100, framed.handler().rowCount(FakeCassandra.KEYSPACE, "Standard1"));
        }
    }

    @Test
    void superColumnFamilies() {
        Run r = stress("-y", "super", "--supers", "3", "-c", "4", "-n", "200", "-t", "4");
        assertEquals(0, r.status(), r.out() + r.err());
        assertEquals(200, server.handler().rowCount(FakeCassandra.KEYSPACE, "Super1"));
        assertEquals(200 * 3 * 4, server.handler().columnCount(FakeCassandra.KEYSPACE, "Super1"));
        Run read = stress("-y", "super", "--supers", "3", "-c", "4", "-n", "200", "-t", "4", "-o", "read",
                "--verify");
        assertEquals(0, read.verify()[0]);
        assertEquals(0, read.verify()[1]);
    }

    @Test
    void durationRunWritesCsvIntervals() throws IOException {
        Path csv = dir.resolve("run.csv");
        Run r = stress("-o", "mixed", "-n", "1000", "-t", "2", "-d", "0.6", "-i", "0.2", "--csv", csv.toString(),
                "--distribution", "gaussian");
        assertEquals(0, r.status(), r.out() + r.err());
        List<String> rows = Files.readAllLines(csv);
        assertEquals(ProgressReport.CSV_HEADER, rows.get(0));
        assertTrue(rows.size() >= 3, rows.toString());
        String[] last = rows.get(rows.size() - 1).split(",");
        assertEquals(r.reported(), Long.parseLong(last[1]), "the last row's total is the run's total");
        assertTrue(Double.parseDouble(last[0]) >= 0.6);
    }

    @Test
    void failedOperationsAreCountedAndFailTheRun() {
        Run r = stress("-n", "50", "-t", "2", "-C", "NoSuchFamily");
        assertEquals(1, r.status());
        assertEquals(0, r.reported());
        assertEquals(50, r.reportedErrors());
        assertTrue(r.out().contains("First error: batch_mutate in Keyspace1 (1 rows): invalid request: "
                + "unconfigured columnfamily NoSuchFamily"), r.out());
    }

    @Test
    void eventLoopsRunTheSameOperationsAndChecks() throws Exception {
        Run insert = stress("-n", "2000", "-t", "6", "-c", "3", "--event-loops", "2");
        assertEquals(0, insert.status(), insert.out() + insert.err());
        assertEquals(2000, insert.reported());
        assertTrue(insert.out().contains("6 connections on 2 event loops"), insert.out());
        assertEquals(6000, server.handler().columnCount(FakeCassandra.KEYSPACE, "Standard1"));
        for (String op : List.of("read", "range_slice", "multiget", "mixed")) {
            Run r = stress("-o", op, "-n", "2000", "-t", "5", "-c", "3", "--count", "400", "--verify",
                    "--range-count", "7", "--event-loops", "3");
            assertEquals(0, r.status(), op + ": " + r.out() + r.err());
            assertEquals(400, r.reported(), op);
            assertEquals(0, r.verify()[0], op + " mismatches");
            assertEquals(0, r.verify()[1], op + " missing rows");
        }
        Run wrongSize = stress("-o", "read", "-n", "100", "-t", "2", "-c", "3", "-S", "12", "--verify",
                "--distribution", "sequential", "--event-loops", "1");
        assertEquals(1, wrongSize.status(), "mismatches fail the run");
        assertEquals(300, wrongSize.verify()[0], "every column of every row read");

        try (FakeServer framed = FakeServer.start(new FakeCassandra(), true)) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            int status = Stress.run(new String[] {"--framed", "-h", "127.0.0.1", "-p", String.valueOf(framed.port()),
                "-n", "300", "-t", "4", "--event-loops", "2"}, new PrintStream(out, true, StandardCharsets.UTF_8),
                System.err);
            assertEquals(0, status, out.toString(StandardCharsets.UTF_8));
            assertEquals(300, framed.handler().rowCount(FakeCassandra.KEYSPACE, "Standard1"));
        }
    }

    @Test
    void eventLoopsReadUnframedRepliesThatArriveInManyPieces() {
        Run insert = stress("-n", "300", "-t", "4", "-c", "10", "-S", "300", "--distribution", "sequential");
        assertEquals(0, insert.status(), insert.out() + insert.err());
        // 100 rows of 10 columns of 300 bytes: replies of about 330 KB, far more than one read of a socket gives.
        Run r = stress("-o", "range_slice", "-n", "300", "-t", "3", "-c", "10", "-S", "300", "--count", "30",
                "--range-count", "100", "--verify", "--event-loops", "1");
        assertEquals(0, r.status(), r.out() + r.err());
        assertEquals(30, r.reported());
        assertEquals(0, r.reportedErrors(), r.out());
        assertEquals(0, r.verify()[0], "mismatches");
    }

    @Test
    void rateLimitsTheOperationsStartedBothWays() {
        for (String loops : List.of("0", "2")) {
            String[] mode = loops.equals("0") ? new String[0] : new String[] {"--event-loops", loops};
            String[] args = concat(new String[] {"-o", "insert", "-n", "100000", "-t", "4", "-d", "2", "--rate", "400",
                "-i", "10"}, mode);
            Run r = stress(args);
            assertEquals(0, r.status(), r.out() + r.err());
            // 400/s for 2 s, each connection on its own schedule: about 800, never many more. The lower
            // bound only shows the limiter lets calls through at a steady pace: on a machine loaded
            // fifteen times over its cores the client itself managed 235-300 a second.
            assertTrue(r.reported() >= 200 && r.reported() <= 810, loops + " loops: " + r.reported());
        }
    }

    @Test
    void rateSpreadsTheConnectionsStartsOverOnePeriodBothWays() {
        for (String loops : List.of("0", "1")) {
            int before = server.handler().insertArrivals().size();
            // Four connections at 4 calls/s in all: each calls once a second. Their first calls belong a quarter
            // of a second apart, not at one instant: simultaneous starts would make the run a series of bursts
            // of four, and measure a burst's latency instead of the rate's.
            Run r = stress(concat(new String[] {"-o", "insert_column", "-n", "1000", "-t", "4", "-d", "2",
                "--rate", "4", "-i", "10"}, loops(loops)));
            assertEquals(0, r.status(), r.out() + r.err());
            List<Long> arrivals = server.handler().insertArrivals();
            assertTrue(arrivals.size() - before >= 4, loops + " loops: " + (arrivals.size() - before) + " inserts");
            long spreadMillis = (arrivals.get(before + 3) - arrivals.get(before)) / 1_000_000;
            assertTrue(spreadMillis >= 450, loops + " loops: the first four calls arrived within " + spreadMillis
                    + " ms");
        }
    }

    /** bin/stress's options for {@code loops} event loops; "0" for a thread per connection (no option). */
    private static String[] loops(String loops) {
        return loops.equals("0") ? new String[0] : new String[] {"--event-loops", loops};
    }

    private static String[] concat(String[] a, String[] b) {
        String[] all = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }

    @Test
    void eventLoopsCountRefusedCallsAndKeepTheirConnections() throws IOException {
        Run r = stress("-n", "50", "-t", "2", "-C", "NoSuchFamily", "--event-loops", "1");
        assertEquals(1, r.status());
        assertEquals(0, r.reported());
        assertEquals(50, r.reportedErrors());
        assertTrue(r.out().contains("First error: batch_mutate in Keyspace1 (1 rows): invalid request: "
                + "unconfigured columnfamily NoSuchFamily"), r.out());
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Run down = stress("-p", String.valueOf(port), "-n", "10", "-h", "127.0.0.1:" + port, "--event-loops", "1");
        assertEquals(2, down.status());
        assertTrue(down.err().startsWith("stress: cannot start: connect to 127.0.0.1:" + port), down.err());
    }

    @Test
    void badOptionsAndUnreachableServersExitWithTwo() throws IOException {
        Run bad = stress("-o", "explode");
        assertEquals(2, bad.status());
        assertTrue(bad.err().contains("unknown operation 'explode'"), bad.err());
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Run down = stress("-p", String.valueOf(port), "-n", "10", "-h", "127.0.0.1:" + port);
        assertEquals(2, down.status());
        assertTrue(down.err().startsWith("stress: cannot start: connect: connection failed"), down.err());
    }

    @Test
    void keysArePaddedDecimalAndValuesReproducible() {
        assertEquals("0000000123", Payload.key(123));
        assertEquals("0000000000", Payload.key(0));
        assertEquals("9999999999", Payload.key(9_999_999_999L));
        assertEquals("12345678901", Payload.key(12_345_678_901L));
        assertEquals(123, Payload.keyIndex("0000000123"));
        assertEquals(new String(Payload.value(7, -1, 2, 16)), new String(Payload.value(7, -1, 2, 16)));
        assertTrue(!new String(Payload.value(7, -1, 2, 16)).equals(new String(Payload.value(7, -1, 3, 16))));
    }
}
