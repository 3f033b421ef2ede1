package sibyl.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static sibyl.db.TestSchema.b;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.cassandra.thrift.ConsistencyLevel;
import org.apache.cassandra.thrift.InvalidRequestException;
import org.apache.cassandra.thrift.Mutation;
import org.apache.cassandra.thrift.TimedOutException;
import org.apache.cassandra.thrift.UnavailableException;
import org.apache.thrift.TApplicationException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sibyl.db.CFMetaData;
import sibyl.db.Column;
import sibyl.db.ColumnFamily;
import sibyl.db.SuperColumn;
import sibyl.db.marshal.BytesType;
import sibyl.dht.DecoratedKey;
import sibyl.dht.OrderPreservingPartitioner;
import sibyl.dht.Partitioner;
import sibyl.dht.RandomPartitioner;
import sibyl.io.Cassandra06Writer;
import sibyl.io.Descriptor;
import sibyl.io.SSTableDirectory;

/**
 * bin/sstableloader's command line against a stand-in node ({@link FakeThriftNode}): what it refuses before
 * sending anything (files that are no SSTable of the column family, another partitioner's SSTables, a node
 * without the column family), what it passes over, how it batches, retries and stops. What the rows become in
 * a real node is {@link RingLoadTest}'s.
 */
class SSTableLoaderTest {
    private static final RandomPartitioner RANDOM = new RandomPartitioner();
    private static final CFMetaData STD = CFMetaData.standard("Keyspace1", "Standard1", BytesType.instance);
    private static final CFMetaData SUPER = CFMetaData.ofSuper("Keyspace1", "Super1", BytesType.instance,
            BytesType.instance);
    private static final NodeConnection.Retry FAST = new NodeConnection.Retry(5, 1, 4);
    private static final int NOW = 1_700_000_000;

    @TempDir
    Path dir;
    private Path conf;
    private FakeThriftNode node;

    @BeforeEach
    void setUp() throws Exception {
        conf = Files.createDirectories(dir.resolve("conf"));
        Path shipped = Path.of(System.getProperty("sibyl.home", "..")).resolve("conf/storage-conf.xml");
        Files.writeString(conf.resolve("storage-conf.xml"),
                Files.readString(shipped).replace("var/", dir.toAbsolutePath() + "/var/"));
        node = new FakeThriftNode()
                .columnFamily("Keyspace1", "Standard1", "Standard", "org.apache.cassandra.db.marshal.BytesType", null)
                .columnFamily("Keyspace1", "Super1", "Super", "org.apache.cassandra.db.marshal.BytesType",
                        "org.apache.cassandra.db.marshal.BytesType");
    }

    @AfterEach
    void tearDown() throws Exception {
        node.close();
    }

    record Run(int status, String out, String err) {
    }

    private Run load(String... args) {
        return load(FAST, args);
    }

    private Run load(NodeConnection.Retry retry, String... args) {
        List<String> all = new ArrayList<>(List.of("--conf", conf.toString(), "-h", "127.0.0.1", "-p",
                String.valueOf(node.port())));
        all.addAll(List.of(args));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = SSTableLoader.run(all.toArray(String[]::new), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), retry);
        return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** Standard rows {@code key -> one column "c" = value at timestamp}, as a 0.6 SSTable of {@code generation}. */
    private static Descriptor standard06(Path directory, int generation, Partitioner partitioner, Map<String, Long> rows)
            throws IOException {
        Files.createDirectories(directory);
        TreeMap<DecoratedKey, ColumnFamily> sorted = new TreeMap<>();
        for (Map.Entry<String, Long> r : rows.entrySet()) {
            sorted.put(partitioner.decorateKey(r.getKey()), ColumnFamily.builder(STD, 1)
                    .add(Column.live(b("c"), b(r.getKey() + "@" + r.getValue()), r.getValue())).build());
        }
        return Cassandra06Writer.write(directory, "Standard1", generation, partitioner, 4096, sorted.entrySet());
    }

    private static Map<String, Long> keys(String prefix, int count, long timestamp) {
        Map<String, Long> rows = new TreeMap<>();
        for (int i = 0; i < count; i++) rows.put(prefix + i, timestamp);
        return rows;
    }

    /** Every file under {@code top} with its bytes, to show that nothing changed. */
    private static Map<String, String> contents(Path top) throws IOException {
        Map<String, String> all = new TreeMap<>();
        try (Stream<Path> files = Files.walk(top)) {
            for (Path f : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
                all.put(top.relativize(f).toString(), Arrays.toString(Files.readAllBytes(f)));
            }
        }
        return all;
    }

    /** The keys of the rows the node was sent, over every batch in order. */
    private List<String> keysSent() {
        List<String> keys = new ArrayList<>();
        for (var batch : node.accepted) keys.addAll(batch.keySet());
        return keys;
    }

    @Test
    void helpAndBadCommandLines() {
        Run help = load("--help");
        assertEquals(0, help.status());
        assertTrue(help.out().startsWith("Usage: sstableloader"), help.out());
        for (String[] bad : List.of(new String[] {"-c", "Standard1", "x"}, new String[] {"-K", "Keyspace1", "x"},
                new String[] {"-K", "Keyspace1", "-c", "Standard1"}, new String[] {"-K", "Keyspace1", "-c", "Standard1",
                        "--frobnicate", "x"}, new String[] {"-K", "Keyspace1", "-c", "Standard1", "-p", "port", "x"},
                new String[] {"-K", "Keyspace1", "-c", "Standard1", "--consistency", "SOME", "x"},
                new String[] {"-K", "Keyspace1", "-c", "Standard1", "-pw", "secret", "x"},
                new String[] {"-K", "Keyspace1", "-c", "Standard1", "--connections", "0", "x"},
                new String[] {"-K", "Keyspace1", "-c"})) {
            Run run = load(bad);
            assertEquals(2, run.status(), List.of(bad) + ": " + run.err());
            assertTrue(run.err().startsWith("sstableloader: "), run.err());
            assertTrue(run.err().contains("Usage: sstableloader"), run.err());
        }
        assertEquals(0, node.calls());
    }

    @Test
    void filesThatAreNoSSTableOfTheColumnFamilyStopTheLoadBeforeAnythingIsSentAndStayAsTheyWere() throws Exception {
        Path good = dir.resolve("node1/Keyspace1");
        standard06(good, 1, RANDOM, keys("k", 10, 1));
        Descriptor superTable = Cassandra06Writer.write(good, "Super1", 2, RANDOM, 4096, List.of(Map.entry(
                RANDOM.decorateKey("s"), ColumnFamily.builder(SUPER, 1).add(SuperColumn.builder(b("sc"),
                        BytesType.instance, 1).add(Column.live(b("x"), b("y"), 1)).build()).build())));
        Path unknown = Files.writeString(Files.createDirectories(dir.resolve("node2/Keyspace1")).resolve("notes.txt"),
                "copied from node 2");
        Path later = dir.resolve("node3/Keyspace1/Standard1-e-1-Data.db");
        Files.createDirectories(later.getParent());
        Files.write(later, new byte[100]);
        Path garbage = dir.resolve("node4/Keyspace1/Standard1-7-Data.db");
        Files.createDirectories(garbage.getParent());
        Files.write(garbage, new byte[64]);
        Files.write(garbage.resolveSibling("Standard1-7-Index.db"), new byte[64]);
        Map<String, String> before = contents(dir);

        List<List<String>> cases = List.of(
                List.of(good.toString(), dir.resolve("node2/Keyspace1").toString()),
                List.of(good.toString(), dir.resolve("node3/Keyspace1").toString()),
                List.of(good.toString(), dir.resolve("node4/Keyspace1").toString()),
                List.of(good.toString(), dir.resolve("no/such/dir").toString()),
                List.of(superTable.path(sibyl.io.Component.DATA).toString()),
                List.of(garbage.toString()),
                List.of(dir.resolve("node1").toString())); // the data directory, not the keyspace's
        List<Path> named = List.of(unknown, later, garbage, dir.resolve("no/such/dir"),
                superTable.path(sibyl.io.Component.DATA), garbage, good);
        for (int i = 0; i < cases.size(); i++) {
            List<String> args = new ArrayList<>(List.of("-K", "Keyspace1", "-c", "Standard1"));
            args.addAll(cases.get(i));
            Run run = load(args.toArray(String[]::new));
            assertEquals(1, run.status(), cases.get(i) + ": " + run.out() + run.err());
            assertTrue(run.err().startsWith("sstableloader: "), run.err());
            assertTrue(run.err().contains(named.get(i).toString()), "names " + named.get(i) + ": " + run.err());
            assertTrue(run.err().contains("nothing was sent"), run.err());
        }
        assertEquals(0, node.calls());
        assertEquals(before, contents(dir), "every file as it was");
    }

    @Test
    void sstablesOfAnotherPartitionerAreRefusedBeforeAnythingIsSent() throws Exception {
        Path randomDir = dir.resolve("random/Keyspace1");
        standard06(randomDir, 1, RANDOM, keys("k", 10, 1));
        Path oppDir = dir.resolve("opp/Keyspace1");
        standard06(oppDir, 1, new OrderPreservingPartitioner(), keys("k", 10, 1));

        Run underRandom = load("-K", "Keyspace1", "-c", "Standard1", randomDir.toString(), oppDir.toString());
        assertEquals(1, underRandom.status(), underRandom.err());
        assertTrue(underRandom.err().contains(oppDir.resolve("Standard1-1-Data.db").toString()), underRandom.err());
        assertTrue(underRandom.err().contains("written under org.apache.cassandra.dht.RandomPartitioner (the Partitioner"
                + " of --conf)"), underRandom.err());

        Files.writeString(conf.resolve("storage-conf.xml"), Files.readString(conf.resolve("storage-conf.xml"))
                .replace("org.apache.cassandra.dht.RandomPartitioner", "org.apache.cassandra.dht.OrderPreservingPartitioner"));
        Run underOpp = load("-K", "Keyspace1", "-c", "Standard1", oppDir.toString(), randomDir.toString());
        assertEquals(1, underOpp.status(), underOpp.err());
        assertTrue(underOpp.err().contains(randomDir.resolve("Standard1-1-Data.db").toString()), underOpp.err());
        assertTrue(underOpp.err().contains("was written under RandomPartitioner"), underOpp.err());
        assertEquals(0, node.calls());
    }

    @Test
    void whatTheNodeItselfWouldNotLoadIsPassedOverAndSaidSo() throws Exception {
        Path from = dir.resolve("node1/Keyspace1");
        standard06(from, 1, RANDOM, keys("live", 5, 10));
        standard06(from, 2, RANDOM, keys("compacted", 5, 10));
        Files.createFile(from.resolve("Standard1-2-Compacted")); // 0.6's mark: its compaction replaced it
        Files.write(from.resolve("Standard1-tmp-3-Data.db"), new byte[10]); // 0.6 was writing it
        Cassandra06Writer.write(from, "Super1", 4, RANDOM, 4096, List.of(Map.entry(RANDOM.decorateKey("s"),
                ColumnFamily.builder(SUPER, 1).add(SuperColumn.builder(b("sc"), BytesType.instance, 1)
                        .add(Column.live(b("x"), b("y"), 1)).build()).build())));
        Path empty = Files.createDirectories(dir.resolve("node2/Keyspace1"));

        Run run = load("-K", "Keyspace1", "-c", "Standard1", from.toString(), empty.toString());
        assertEquals(0, run.status(), run.err());
        assertTrue(run.out().contains("Skipped " + from.resolve("Standard1-2-Compacted")), run.out());
        assertTrue(run.out().contains("Skipped " + from.resolve("Standard1-tmp-3-Data.db")), run.out());
        assertTrue(run.err().contains(empty + ": holds no SSTable of Standard1"), run.err());
        List<String> sent = keysSent();
        assertEquals(5, sent.size(), sent.toString());
        assertTrue(sent.stream().allMatch(k -> k.startsWith("live")), sent.toString());
    }

    @Test
    void sstablesOfSeveralNodesWithTheSameGenerationsAreReadTogetherAndEachRowSentOnce() throws Exception {
        Path n1 = dir.resolve("node1/Keyspace1");
        Path n2 = dir.resolve("node2/Keyspace1");
        Map<String, Long> first = keys("k", 30, 10);
        Map<String, Long> second = keys("k", 30, 20);
        second.keySet().removeIf(k -> Integer.parseInt(k.substring(1)) < 10); // k10..k29 newer on node 2
        second.putAll(keys("only2-", 5, 5));
        standard06(n1, 1, RANDOM, first);
        Descriptor n2Table = standard06(n2, 1, RANDOM, second);

        Run run = load("-K", "Keyspace1", "-c", "Standard1", n1.toString(),
                n2Table.path(sibyl.io.Component.INDEX).toString(), n2.toString()); // the same SSTable twice
        assertEquals(0, run.status(), run.err());
        assertTrue(run.out().contains(n1.resolve("Standard1-1-Data.db") + " (Cassandra 0.6): 30 rows"), run.out());
        assertTrue(run.out().contains(n2.resolve("Standard1-1-Data.db") + " (Cassandra 0.6): 25 rows"), run.out());
        assertTrue(run.out().contains("Sent 35 rows to 127.0.0.1:" + node.port() + " in 1 batch_mutate calls: 35 columns,"
                + " 0 tombstones (0 of rows, 0 of super columns, 0 of columns); 0 versions under a tombstone left out"),
                run.out());
        Map<String, List<Mutation>> rows = new TreeMap<>();
        for (var batch : node.accepted) {
            for (var row : batch.entrySet()) rows.put(row.getKey(), row.getValue().get("Standard1"));
        }
        assertEquals(35, rows.size());
        for (int i = 0; i < 30; i++) {
            var column = rows.get("k" + i).get(0).getColumn_or_supercolumn().getColumn();
            long ts = i < 10 ? 10 : 20;
            assertEquals(ts, column.getTimestamp());
            assertEquals("k" + i + "@" + ts, new String(column.getValue(), StandardCharsets.UTF_8));
        }
    }

    @Test
    void batchesAreBoundedInBytesAndCarryTheRowsInRingOrder() throws Exception {
        Path from = dir.resolve("node1/Keyspace1");
        Map<String, Long> rows = keys("row", 2000, 1);
        standard06(from, 1, RANDOM, rows);
        long bound = 8 << 10;
        NodeConnection.Node to = new NodeConnection.Node("127.0.0.1", node.port(), false, null, null);
        List<Descriptor> sstables = SSTableDirectory.list(from, "Standard1");
        SSTableLoader.Result result = SSTableLoader.load(sstables, STD, RANDOM, 128, to, ConsistencyLevel.ONE, bound, 3,
                FAST, System.err);
        assertEquals(2000, result.rowsSent());
        assertTrue(node.calls() > 10, "batches: " + node.calls());
        assertEquals(node.calls(), result.batches());
        for (var batch : node.accepted) {
            long bytes = 0;
            for (var row : batch.values()) {
                assertEquals(List.of("Standard1"), List.copyOf(row.keySet()));
                for (Mutation m : row.get("Standard1")) bytes += RowMutations.sizeOf(m);
            }
            assertTrue(bytes <= bound, bytes + " bytes");
        }
        // A batch's rows arrive as a map (Thrift's is unordered), and batches of several connections in any order;
        // each batch holds a stretch of the ring, and together they hold every row once.
        List<List<String>> batches = new ArrayList<>();
        for (var batch : node.accepted) {
            List<String> keys = new ArrayList<>(batch.keySet());
            keys.sort((a, c) -> RANDOM.decorateKey(a).compareTo(RANDOM.decorateKey(c)));
            batches.add(keys);
        }
        batches.sort((a, c) -> RANDOM.decorateKey(a.get(0)).compareTo(RANDOM.decorateKey(c.get(0))));
        List<String> sent = new ArrayList<>();
        batches.forEach(sent::addAll);
        List<String> ringOrder = new ArrayList<>(rows.keySet());
        ringOrder.sort((a, c) -> RANDOM.decorateKey(a).compareTo(RANDOM.decorateKey(c)));
        assertTrue(ringOrder.equals(sent), "the rows in ring order, each once");
    }

    @Test
    void timeoutsUnavailabilityAndOverloadAreWaitedOutAndTheBatchSentAgain() throws Exception {
        Path from = dir.resolve("node1/Keyspace1");
        standard06(from, 1, RANDOM, keys("k", 20, 1));
        node.answer = (call, batch) -> {
            switch (call) {
                case 1 -> throw new TimedOutException();
                case 2 -> throw new UnavailableException();
                case 3 -> throw new TApplicationException(TApplicationException.UNKNOWN,
                        "Server overloaded: too many requests in flight; batch_mutate was not run, retry later");
                default -> { }
            }
        };
        Run run = load("-K", "Keyspace1", "-c", "Standard1", from.toString());
        assertEquals(0, run.status(), run.err());
        assertEquals(4, node.calls());
        assertEquals(3, run.err().lines().filter(l -> l.contains("sending the batch again in")).count(), run.err());
        assertTrue(run.err().contains("Server overloaded"), run.err());
        assertTrue(run.out().contains("in 1 batch_mutate calls (3 sent again)"), run.out());
        assertEquals(20, keysSent().size());
    }

    @Test
    void aNodeThatKeepsFailingStopsTheLoadAfterTheLastRetry() throws Exception {
        Path from = dir.resolve("node1/Keyspace1");
        standard06(from, 1, RANDOM, keys("k", 20, 1));
        node.answer = (call, batch) -> {
            throw new TimedOutException();
        };
        Run run = load(new NodeConnection.Retry(3, 1, 1), "-K", "Keyspace1", "-c", "Standard1", from.toString());
        assertEquals(1, run.status());
        assertEquals(3, node.calls());
        String last = run.err().lines().reduce((a, c) -> c).orElse("");
        assertTrue(last.contains("failed 3 times, the last time because the node timed out"), run.err());
        assertTrue(last.contains("no row had been sent"), run.err());
    }

    @Test
    void aRowTheNodeRefusesStopsTheLoadNamingIt() throws Exception {
        Path from = dir.resolve("node1/Keyspace1");
        standard06(from, 1, RANDOM, keys("k", 50, 1));
        node.answer = (call, batch) -> {
            if (batch.containsKey("k17")) throw new InvalidRequestException("column name must not be empty");
        };
        Run run = load("-K", "Keyspace1", "-c", "Standard1", from.toString());
        assertEquals(1, run.status(), run.out());
        assertEquals(1, run.err().lines().count(), run.err());
        assertTrue(run.err().startsWith("sstableloader: the node refused row 'k17' of Keyspace1.Standard1: column name"
                + " must not be empty"), run.err());
    }

    @Test
    void anyOtherFailureOfTheNodeStopsTheLoad() throws Exception {
        Path from = dir.resolve("node1/Keyspace1");
        standard06(from, 1, RANDOM, keys("k", 5, 1));
        node.answer = (call, batch) -> {
            throw new TApplicationException(TApplicationException.INTERNAL_ERROR, "write failed: this node is drained");
        };
        Run run = load("-K", "Keyspace1", "-c", "Standard1", from.toString());
        assertEquals(1, run.status());
        assertEquals(1, node.calls());
        assertTrue(run.err().contains("write failed: this node is drained"), run.err());
    }

    @Test
    void aNodeWithoutTheColumnFamilyOrWithOtherComparatorsIsRefusedBeforeAnythingIsSent() throws Exception {
        Path from = dir.resolve("node1/Keyspace1");
        standard06(from, 1, RANDOM, keys("k", 5, 1));
        node.keyspaces.clear();
        Run noKeyspace = load("-K", "Keyspace1", "-c", "Standard1", from.toString());
        assertEquals(1, noKeyspace.status());
        assertTrue(noKeyspace.err().contains("has no keyspace Keyspace1"), noKeyspace.err());
        node.columnFamily("Keyspace1", "Standard2", "Standard", "org.apache.cassandra.db.marshal.UTF8Type", null);
        Run noColumnFamily = load("-K", "Keyspace1", "-c", "Standard1", from.toString());
        assertTrue(noColumnFamily.err().contains("has no column family Standard1 in keyspace Keyspace1"),
                noColumnFamily.err());
        node.columnFamily("Keyspace1", "Standard1", "Standard", "org.apache.cassandra.db.marshal.UTF8Type", null);
        Run otherComparator = load("-K", "Keyspace1", "-c", "Standard1", from.toString());
        assertEquals(1, otherComparator.status());
        assertTrue(otherComparator.err().contains("CompareWith is org.apache.cassandra.db.marshal.UTF8Type there,"
                + " org.apache.cassandra.db.marshal.BytesType in --conf"), otherComparator.err());
        assertEquals(0, node.calls());
    }

    /** 0.6's calls cannot carry an increment: a counter column family is refused before anything is sent. */
    @Test
    void aCounterColumnFamilyIsRefusedBeforeAnythingIsSent() throws Exception {
        Path file = conf.resolve("storage-conf.xml");
        String xml = Files.readString(file);
        Files.writeString(file, xml.replaceFirst("(<ColumnFamily [^>]*Name=\"Standard1\")",
                "$1 DefaultValidationClass=\"CounterColumnType\""));
        Path from = dir.resolve("node1/Keyspace1");
        Files.createDirectories(from);
        Run run = load("-K", "Keyspace1", "-c", "Standard1", from.toString());
        assertEquals(1, run.status(), run.out());
        assertTrue(run.err().contains("Keyspace1.Standard1 holds counters, which sstableloader cannot send; nothing was"
                + " sent"), run.err());
        assertEquals(0, node.calls());
    }

    @Test
    void credentialsLogInToTheKeyspace() throws Exception {
        Path from = dir.resolve("node1/Keyspace1");
        standard06(from, 1, RANDOM, keys("k", 5, 1));
        Run run = load("-u", "jsmith", "-pw", "havebadpass", "--connections", "2", "-K", "Keyspace1", "-c", "Standard1",
                from.toString());
        assertEquals(0, run.status(), run.err());
        assertEquals(List.of("Keyspace1:jsmith:havebadpass", "Keyspace1:jsmith:havebadpass"), node.logins,
                "each of the two connections logged in");
    }

    @Test
    void aNodeThatIsNotThereIsSaidSo() throws Exception {
        Path from = dir.resolve("node1/Keyspace1");
        standard06(from, 1, RANDOM, keys("k", 5, 1));
        int closed;
        try (ServerSocket s = new ServerSocket(0)) {
            closed = s.getLocalPort();
        }
        List<String> args = List.of("--conf", conf.toString(), "-h", "127.0.0.1", "-p", String.valueOf(closed), "-K",
                "Keyspace1", "-c", "Standard1", from.toString());
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = SSTableLoader.run(args.toArray(String[]::new), new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(err, true, StandardCharsets.UTF_8), FAST);
        assertEquals(1, status);
        assertTrue(err.toString(StandardCharsets.UTF_8).startsWith("sstableloader: cannot connect to 127.0.0.1:" + closed),
                err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void theNodeDefaultsToTheConfigurationsThriftAddress() {
        assertEquals("localhost", SSTableLoader.defaultHost("0.0.0.0"));
        assertEquals("10.1.2.3", SSTableLoader.defaultHost("10.1.2.3"));
        assertTrue(!SSTableLoader.defaultHost(null).isEmpty());
    }
}
