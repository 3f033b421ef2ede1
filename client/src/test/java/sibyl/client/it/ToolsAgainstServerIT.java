package sibyl.client.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.cassandra.thrift.Column;
import org.apache.cassandra.thrift.ColumnOrSuperColumn;
import org.apache.cassandra.thrift.ColumnParent;
import org.apache.cassandra.thrift.ConsistencyLevel;
import org.apache.cassandra.thrift.KeyRange;
import org.apache.cassandra.thrift.KeySlice;
import org.apache.cassandra.thrift.SlicePredicate;
import org.apache.cassandra.thrift.SliceRange;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TSocket;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tools as a new user meets them: bin/server started in the background, then bin/cli,
 * bin/stress and bin/nodetool run against it, their output read as the user reads it.
 */
class ToolsAgainstServerIT {
    @TempDir
    static Path dir;

    private static int thriftPort;
    private static int jmxPort;
    private static ProcessHandle server;

    @BeforeAll
    static void startServer() throws Exception {
        thriftPort = LocalNode.freePort();
        jmxPort = LocalNode.freePort();
        Path conf = Files.createDirectories(dir.resolve("conf"));
        String xml = Files.readString(LocalNode.home().resolve("conf/storage-conf.xml"))
                .replaceFirst("<ThriftPort>\\d+</ThriftPort>", "<ThriftPort>" + thriftPort + "</ThriftPort>")
                .replaceFirst("<ThriftAddress>[^<]*</ThriftAddress>", "<ThriftAddress>127.0.0.1</ThriftAddress>")
                .replaceFirst("<JmxPort>\\d+</JmxPort>", "<JmxPort>" + jmxPort + "</JmxPort>")
                .replace("var/", dir.toAbsolutePath() + "/var/")
                // Counters for bin/stress -o add, as 3.11's stress names them.
                .replaceFirst("(<ColumnFamily Name=\"Standard2\")", "<ColumnFamily Name=\"Counter1\""
                        + " DefaultValidationClass=\"CounterColumnType\"/>\n<ColumnFamily Name=\"SuperCounter1\""
                        + " ColumnType=\"Super\" DefaultValidationClass=\"CounterColumnType\"/>\n$1");
        Files.writeString(conf.resolve("storage-conf.xml"), xml);
        Files.copy(LocalNode.home().resolve("conf/logback.xml"), conf.resolve("logback.xml"));
        Path pidfile = dir.resolve("sibyl.pid");
        Result started = run(List.of("bin/server", "-p", pidfile.toString(), "--conf", conf.toString()), null);
        assertEquals(0, started.status(), started.output());
        server = ProcessHandle.of(Long.parseLong(Files.readString(pidfile).trim())).orElseThrow();
    }

    @AfterAll
    static void stopServer() throws Exception {
        if (server == null) return;
        server.destroy();
        server.onExit().get(60, TimeUnit.SECONDS);
    }

    record Result(int status, String output) {
    }

    private static Result run(List<String> command, String stdin) throws Exception {
        List<String> cmd = new ArrayList<>(command);
        cmd.set(0, LocalNode.home().resolve(cmd.get(0)).toString());
        Path out = Files.createTempFile(dir, "out", ".txt");
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile());
        if (stdin == null) pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        else pb.redirectInput(Files.writeString(Files.createTempFile(dir, "in", ".txt"), stdin).toFile());
        Process p = pb.start();
        assertTrue(p.waitFor(180, TimeUnit.SECONDS), "finished: " + cmd);
        return new Result(p.exitValue(), Files.readString(out));
    }

    private static Result cli(String script) throws Exception {
        Path file = Files.writeString(Files.createTempFile(dir, "script", ".txt"), script);
        return run(List.of("bin/cli", "--host", "127.0.0.1", "--port", String.valueOf(thriftPort), "-f",
                file.toString()), null);
    }

    private static Result nodetool(String... command) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("bin/nodetool", "-h", "127.0.0.1", "-p", String.valueOf(jmxPort)));
        cmd.addAll(List.of(command));
        return run(cmd, null);
    }

    /** A line of one column family's cfstats section, as a number. */
    private static long cfstat(String output, String columnFamily, String label) {
        Matcher m = Pattern.compile("Column Family: " + columnFamily + "\\n(?:\\t\\t.*\\n)*?\\t\\t" + label + ": (\\d+)")
                .matcher(output);
        assertTrue(m.find(), label + " of " + columnFamily + " in:\n" + output);
        return Long.parseLong(m.group(1));
    }

    @Test
    void nodetoolFlushWritesSSTablesAndCompactMergesThem() throws Exception {
        // Twitter.UserAudits is used by no other test here.
        Result write = cli("set Twitter.UserAudits['flush-1']['name'] = 'Ada'\nset Twitter.UserAudits['flush-2']['name'] = 'Bo'\n");
        assertEquals(0, write.status(), write.output());
        Result before = nodetool("cfstats");
        assertEquals(0, before.status(), before.output());
        long sstables = cfstat(before.output(), "UserAudits", "SSTable count");
        assertTrue(cfstat(before.output(), "UserAudits", "Memtable Columns Count") >= 2, before.output());

        Result flush = nodetool("flush", "Twitter", "UserAudits");
        assertEquals(0, flush.status(), flush.output());
        Result after = nodetool("cfstats");
        assertEquals(sstables + 1, cfstat(after.output(), "UserAudits", "SSTable count"), after.output());
        assertEquals(0, cfstat(after.output(), "UserAudits", "Memtable Columns Count"), after.output());
        assertEquals(1, cfstat(after.output(), "UserAudits", "Memtable Switch Count"), after.output());
        assertTrue(cfstat(after.output(), "UserAudits", "Space used \\(live\\)") > 0, after.output());

        assertEquals(0, cli("set Twitter.UserAudits['flush-3']['name'] = 'Cy'\n").status());
        assertEquals(0, nodetool("flush", "Twitter").status());
        assertEquals(sstables + 2, cfstat(nodetool("cfstats").output(), "UserAudits", "SSTable count"));

        Result compact = nodetool("compact", "Twitter");
        assertEquals(0, compact.status(), compact.output());
        assertEquals(1, cfstat(nodetool("cfstats").output(), "UserAudits", "SSTable count"));
        Result read = cli("get Twitter.UserAudits['flush-1']\nget Twitter.UserAudits['flush-3']\n");
        assertTrue(read.output().contains("value=Ada") && read.output().contains("value=Cy"), read.output());
        // The reads went through the key cache (KeysCached: 200000 by default), shown as 0.6 showed it.
        Result stats = nodetool("cfstats");
        assertEquals(200000, cfstat(stats.output(), "UserAudits", "Key cache capacity"), stats.output());
        assertEquals(2, cfstat(stats.output(), "UserAudits", "Key cache size"), stats.output());
        assertTrue(Pattern.compile("Column Family: UserAudits\\n(?:\\t\\t.*\\n)*?\\t\\tKey cache hit rate: \\d\\.\\d{3}\\n")
                .matcher(stats.output()).find(), stats.output());
        assertEquals(0, cfstat(stats.output(), "UserAudits", "Row cache capacity"), stats.output());

        Result unknown = nodetool("flush", "NoSuchKeyspace");
        assertEquals(1, unknown.status(), unknown.output());
        assertEquals("nodetool: flush failed: Keyspace NoSuchKeyspace does not exist in this schema.\n", unknown.output());
    }

    @Test
    void json2sstableBesideTheRunningNodeThenNodetoolRefreshServesTheRows() throws Exception {
        // Twitter.Usernames is used by no other test here. Its names compare as UTF8Type: "id".
        Path json = Files.writeString(dir.resolve("usernames.json"),
                "{\n  \"adalovelace\": [[\"6964\", \"37\", 1700000000000000, false]]\n}\n");
        Result imported = run(List.of("bin/json2sstable", "--conf", dir.resolve("conf").toString(), "-K", "Twitter", "-c",
                "Usernames", json.toString()), null);
        assertEquals(0, imported.status(), imported.output());
        assertTrue(imported.output().contains("bin/nodetool refresh Twitter Usernames"), imported.output());
        assertTrue(cli("get Twitter.Usernames['adalovelace']\n").output().contains("Returned 0 results."),
                "not served before the refresh");

        Result refresh = nodetool("refresh", "Twitter", "Usernames");
        assertEquals(0, refresh.status(), refresh.output());
        assertEquals("Loaded 1 new SSTable of Twitter.Usernames\n", refresh.output());
        Result read = cli("get Twitter.Usernames['adalovelace']\n");
        assertTrue(read.output().contains("=> (column=id, value=7, timestamp=1700000000000000)"), read.output());
        assertEquals("No new SSTables of Twitter.Usernames\n", nodetool("refresh", "Twitter", "Usernames").output());

        Result unknown = nodetool("refresh", "Twitter", "NoSuchColumnFamily");
        assertEquals(1, unknown.status(), unknown.output());
        assertEquals("nodetool: refresh failed: unconfigured columnfamily NoSuchColumnFamily\n", unknown.output());
        Result missing = nodetool("refresh", "Twitter");
        assertEquals(2, missing.status(), missing.output());
        assertEquals("nodetool: refresh takes a keyspace and a column family (--help shows the usage)\n", missing.output());
    }

    @Test
    void nodetoolFlushFailsWithTheReasonWhenFlushesKeepFailing() throws Exception {
        // BloggyAppy is used by no other test here. A file where its data directory belongs
        // makes every flush of it fail (and be retried) until the file goes.
        assertEquals(0, cli("set BloggyAppy.Authors['stuck']['name'] = 'Dee'\n").status());
        Path ksDir = dir.resolve("var/data/BloggyAppy");
        Files.createDirectories(ksDir.getParent());
        Files.deleteIfExists(ksDir);
        Files.writeString(ksDir, "in the way");
        try {
            Result flush = nodetool("-t", "2", "flush", "BloggyAppy", "Authors");
            assertEquals(1, flush.status(), flush.output());
            assertTrue(flush.output().contains("flush failed: flush of keyspace BloggyAppy did not finish within 2000 ms"),
                    flush.output());
            assertTrue(flush.output().contains("the last flush failure: BloggyAppy.Authors"), flush.output());
        } finally {
            Files.delete(ksDir);
        }
        Result flush = nodetool("-t", "60", "flush", "BloggyAppy", "Authors");
        assertEquals(0, flush.status(), flush.output());
    }

    @Test
    void cliStoresReadsCountsAndDeletes() throws Exception {
        Result r = cli("""
                set Keyspace1.Standard1['cli-user']['first'] = 'John'
                set Keyspace1.Standard1['cli-user']['last'] = 'Smith'
                set Keyspace1.Super1['cli-user']['address']['city'] = 'Oslo'
                get Keyspace1.Standard1['cli-user']
                count Keyspace1.Standard1['cli-user']
                get Keyspace1.Super1['cli-user']['address']
                del Keyspace1.Standard1['cli-user']['first']
                count Keyspace1.Standard1['cli-user']
                show keyspaces
                """);
        assertEquals(0, r.status(), r.output());
        assertTrue(r.output().contains("value=John"), r.output());
        assertTrue(r.output().contains("value=Smith"), r.output());
        assertTrue(r.output().contains("value=Oslo"), r.output());
        assertTrue(r.output().contains("2 columns"), r.output());
        assertTrue(r.output().contains("1 columns") || r.output().contains("1 column"), r.output());
        assertTrue(r.output().contains("Keyspace1") && r.output().contains("Twissandra"), r.output());
    }

    @Test
    void cliShowsTheTwitterTutorialsNamesAsText() throws Exception {
        // Twitter.Users and UserRelationships are used by no other test here. Users compares with
        // UTF8Type and UserRelationships' subcolumns with TimeUUIDType, so names are written and
        // printed as text and UUIDs, never as 0x hex.
        Result r = cli("""
                set Twitter.Users['7']['screen_name'] = 'adalovelace'
                set Twitter.Users['7']['name'] = 'Ada'
                set Twitter.UserRelationships['7']['user_timeline']['00000100-0001-1000-8000-000000000001'] = '102'
                set Twitter.UserRelationships['7']['user_timeline']['ffffff00-0000-1000-8000-000000000001'] = '101'
                get Twitter.Users['7']
                get Twitter.UserRelationships['7']['user_timeline']
                """);
        assertEquals(0, r.status(), r.output());
        List<String> shown = r.output().lines().filter(l -> l.startsWith("=> ")).toList();
        assertEquals(4, shown.size(), r.output());
        assertTrue(shown.get(0).startsWith("=> (column=name, value=Ada, timestamp="), r.output());
        assertTrue(shown.get(1).startsWith("=> (column=screen_name, value=adalovelace, timestamp="), r.output());
        // In time order: the second UUID is the earlier one, though its bytes sort later.
        assertTrue(shown.get(2).startsWith("=> (column=ffffff00-0000-1000-8000-000000000001, value=101, timestamp="),
                r.output());
        assertTrue(shown.get(3).startsWith("=> (column=00000100-0001-1000-8000-000000000001, value=102, timestamp="),
                r.output());
        assertFalse(r.output().contains("0x"), r.output());
    }

    @Test
    void cliNamesWhatIsWrongAndExitsNonZeroInBatchMode() throws Exception {
        Result r = cli("get Keyspace1.NoSuchFamily['k']\n");
        assertEquals(1, r.status(), r.output());
        assertTrue(r.output().contains("NoSuchFamily"), r.output());
    }

    @Test
    void stressInsertsWhatItReportsAndNodetoolCountsTheWrites() throws Exception {
        Result stress = run(List.of("bin/stress", "-o", "insert", "-n", "400", "-t", "4", "-c", "3",
                "-p", String.valueOf(thriftPort), "-h", "127.0.0.1", "-C", "Standard2", "--seed", "7"), null);
        assertEquals(0, stress.status(), stress.output());
        Matcher done = Pattern.compile("Done: (\\d+) insert operations").matcher(stress.output());
        assertTrue(done.find(), stress.output());
        assertEquals(400, Integer.parseInt(done.group(1)));

        List<KeySlice> rows = allRows("Standard2");
        assertEquals(400, rows.size());
        for (KeySlice row : rows) assertEquals(3, row.getColumnsSize(), row.getKey());

        Result cfstats = nodetool("cfstats");
        assertEquals(0, cfstats.status(), cfstats.output());
        Matcher writes = Pattern.compile("Column Family: Standard2\\n(?:\\t\\t.*\\n)*?\\t\\tWrite Count: (\\d+)")
                .matcher(cfstats.output());
        assertTrue(writes.find(), cfstats.output());
        assertEquals(400, Integer.parseInt(writes.group(1)), cfstats.output());
    }

    /** A bin/stress run's "Done:" and "Verify:" figures: operations, errors, mismatches, missing rows. */
    private static long[] stressFigures(Result r, String operation) {
        Matcher done = Pattern.compile("Done: (\\d+) " + operation + " operations in .*, (\\d+) errors")
                .matcher(r.output());
        assertTrue(done.find(), r.output());
        Matcher verify = Pattern.compile("Verify: (\\d+) mismatched columns, (\\d+) missing rows").matcher(r.output());
        assertTrue(verify.find(), r.output());
        return new long[] {Long.parseLong(done.group(1)), Long.parseLong(done.group(2)),
            Long.parseLong(verify.group(1)), Long.parseLong(verify.group(2))};
    }

    /** The rows of {@code columnFamily} in Keyspace1 (1000 at most, 100 columns each), on a connection of its own. */
    private static List<KeySlice> allRows(String columnFamily) throws Exception {
        try (TSocket socket = new TSocket("127.0.0.1", thriftPort, 10_000)) {
            socket.open();
            Cassandra.Client client = new Cassandra.Client(new TBinaryProtocol(socket));
            SlicePredicate all = new SlicePredicate().setSlice_range(
                    new SliceRange(java.nio.ByteBuffer.allocate(0), java.nio.ByteBuffer.allocate(0), false, 100));
            KeyRange range = new KeyRange(1000).setStart_key("").setEnd_key("");
            return new ArrayList<>(client.get_range_slices("Keyspace1", new ColumnParent(columnFamily), all, range,
                    ConsistencyLevel.ONE));
        }
    }

    private static Result stress(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("bin/stress", "-p", String.valueOf(thriftPort), "-h", "127.0.0.1",
                "--seed", "11"));
        cmd.addAll(List.of(args));
        return run(cmd, null);
    }

    /**
     * bin/stress -o add in the 0.7 dialect: every increment it reports done is in the counters, once, read back
     * through the 0.6 interface (a counter's value is its count as 8 bytes).
     */
    @Test
    void stressAddCountsEveryIncrementItReportsOnce() throws Exception {
        for (String family : List.of("standard", "super")) {
            Result add = stress("-o", "add", "--dialect", "0.7", "--framed", "-y", family, "-n", "50", "-t", "4",
                    "--count", "400");
            assertEquals(0, add.status(), add.output());
            assertTrue(add.output().contains("Done: 400 add operations in "), add.output());
            assertTrue(add.output().contains(", 0 errors"), add.output());
            long total = 0;
            for (KeySlice row : allRows(family.equals("super") ? "SuperCounter1" : "Counter1")) {
                for (ColumnOrSuperColumn c : row.getColumns()) {
                    List<Column> columns = c.isSetSuper_column() ? c.getSuper_column().getColumns() : List.of(c.getColumn());
                    for (Column col : columns) total += ByteBuffer.wrap(col.getValue()).getLong();
                }
            }
            assertEquals(400, total, family);
        }
        Result in06 = stress("-o", "add", "-n", "10");
        assertEquals(2, in06.status(), in06.output());
        assertTrue(in06.output().contains("-o add is a call of Cassandra 0.7 and later: add --dialect 0.7"), in06.output());
    }

    @Test
    void stressPlainInsertAndGetOfOneColumnReadBackWhatTheyWrote() throws Exception {
        // Keys 0..299 of Standard1 and Super1 are used by no other test here (the cli's rows are 'cli-user').
        for (String family : List.of("standard", "super")) {
            Result insert = stress("-o", "insert_column", "-y", family, "-n", "300", "-t", "4");
            assertEquals(0, insert.status(), insert.output());
            assertTrue(insert.output().contains("Done: 300 insert_column operations in "), insert.output());
            assertTrue(insert.output().contains(", 0 errors"), insert.output());

            for (String[] loops : List.of(new String[0], new String[] {"--event-loops", "2"})) {
                List<String> args = new ArrayList<>(List.of("-o", "get_column", "-y", family, "-n", "300", "-t", "4",
                        "--count", "300", "--distribution", "sequential", "--verify"));
                args.addAll(List.of(loops));
                Result get = stress(args.toArray(String[]::new));
                assertEquals(0, get.status(), get.output());
                assertArrayEquals(new long[] {300, 0, 0, 0}, stressFigures(get, "get_column"), get.output());
                // get_slice of one column reads the same column back.
                args.set(1, "read");
                args.addAll(List.of("-c", "1"));
                Result read = stress(args.toArray(String[]::new));
                assertEquals(0, read.status(), read.output());
                assertArrayEquals(new long[] {300, 0, 0, 0}, stressFigures(read, "read"), read.output());
            }

            // Keys 300..399 were never written: each get is answered NotFoundException, a missing row, no error;
            // a value of another size is a mismatch in every column read.
            Result beyond = stress("-o", "get_column", "-y", family, "-n", "400", "-t", "2", "--verify",
                    "--distribution", "sequential");
            assertEquals(0, beyond.status(), beyond.output());
            assertArrayEquals(new long[] {400, 0, 0, 100}, stressFigures(beyond, "get_column"), beyond.output());
            Result wrong = stress("-o", "get_column", "-y", family, "-n", "300", "-t", "2", "-S", "35", "--verify",
                    "--distribution", "sequential", "--event-loops", "1");
            assertEquals(1, wrong.status(), wrong.output());
            assertArrayEquals(new long[] {300, 0, 300, 0}, stressFigures(wrong, "get_column"), wrong.output());
        }

        // Each plain insert wrote exactly one column: C0 of each row (of S0 in Super1).
        List<KeySlice> rows = allRows("Standard1");
        rows.removeIf(row -> row.getKey().equals("cli-user"));
        assertEquals(300, rows.size());
        for (KeySlice row : rows) {
            assertEquals(1, row.getColumnsSize(), row.getKey());
            assertEquals("C0", new String(row.getColumns().get(0).getColumn().getName()), row.getKey());
        }
        List<KeySlice> supers = allRows("Super1");
        supers.removeIf(row -> row.getKey().equals("cli-user"));
        assertEquals(300, supers.size());
        for (KeySlice row : supers) {
            assertEquals(1, row.getColumnsSize(), row.getKey());
            assertEquals("S0", new String(row.getColumns().get(0).getSuper_column().getName()), row.getKey());
            assertEquals(1, row.getColumns().get(0).getSuper_column().getColumnsSize(), row.getKey());
        }
    }

    @Test
    void nodetoolShowsTheNodeRingAndPools() throws Exception {
        Result info = nodetool("info");
        assertEquals(0, info.status(), info.output());
        assertTrue(info.output().matches("(?s)\\d+\\n.*Uptime \\(seconds\\) : \\d+.*Heap Memory \\(MB\\).*"), info.output());
        String token = info.output().lines().findFirst().orElseThrow();

        Result ring = nodetool("ring");
        assertEquals(0, ring.status(), ring.output());
        assertTrue(ring.output().contains("Up") && ring.output().contains(token), ring.output());

        Result tpstats = nodetool("tpstats");
        assertEquals(0, tpstats.status(), tpstats.output());
        assertTrue(tpstats.output().contains("THRIFT-WORKERS"), tpstats.output());

        Result bad = nodetool("frobnicate");
        assertEquals(2, bad.status(), bad.output());
        assertTrue(bad.output().contains("unknown command 'frobnicate'"), bad.output());
    }

    @Test
    void nodetoolSaysWhenItCannotReachTheNode() throws Exception {
        Result r = run(List.of("bin/nodetool", "-h", "127.0.0.1", "-p", String.valueOf(LocalNode.freePort()), "info"), null);
        assertEquals(1, r.status(), r.output());
        assertTrue(r.output().contains("cannot reach 127.0.0.1:"), r.output());
    }
}
