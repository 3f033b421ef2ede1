package sibyl.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.StringWriter;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sibyl.db.CFMetaData;
import sibyl.db.Column;
import sibyl.db.ColumnFamily;
import sibyl.dht.DecoratedKey;
import sibyl.dht.RandomPartitioner;
import sibyl.io.Cassandra06Writer;
import sibyl.io.Component;
import sibyl.io.Descriptor;

/**
 * json2sstable and sstable2json as their command lines run them, on a data directory of the
 * shipped configuration: what one writes the other reads back identical, in ring order; bad
 * input and bad command lines are refused in one line, leaving nothing behind.
 */
class ImportExportTest {
    private static final RandomPartitioner PARTITIONER = new RandomPartitioner();

    @TempDir
    Path dir;
    private Path conf;
    private Path keyspaceDir;

    @BeforeEach
    void installConf() throws IOException {
        conf = Files.createDirectories(dir.resolve("conf"));
        Path shipped = Path.of(System.getProperty("sibyl.home", "..")).resolve("conf/storage-conf.xml");
        Files.writeString(conf.resolve("storage-conf.xml"),
                Files.readString(shipped).replace("var/", dir.toAbsolutePath() + "/var/"));
        keyspaceDir = dir.resolve("var/data/Keyspace1");
    }

    record Run(int status, String out, String err) {
    }

    private Run json2sstable(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = SSTableImport.run(withConf(args), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private Run sstable2json(String... args) {
        StringWriter json = new StringWriter();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = SSTableExport.run(withConf(args), json, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(status, json + out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private String[] withConf(String... args) {
        List<String> all = new ArrayList<>(List.of("--conf", conf.toString()));
        all.addAll(List.of(args));
        return all.toArray(String[]::new);
    }

    /** Random rows of a column family under distinct keys, in no particular order. */
    private static List<Object[]> rows(Random random, CFMetaData cf, int count) {
        List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < count; i++) rows.add(new Object[] {"key" + i + JsonRowsTest.randomKey(random), JsonRowsTest.randomRow(random, cf)});
        Collections.shuffle(rows, random);
        return rows;
    }

    private static String json(List<Object[]> rows) throws IOException {
        List<String> keys = new ArrayList<>();
        List<ColumnFamily> cfs = new ArrayList<>();
        for (Object[] r : rows) {
            keys.add((String) r[0]);
            cfs.add((ColumnFamily) r[1]);
        }
        return JsonRowsTest.write(keys, cfs);
    }

    private static List<Object[]> inRingOrder(List<Object[]> rows) {
        List<Object[]> sorted = new ArrayList<>(rows);
        sorted.sort(Comparator.comparing(r -> PARTITIONER.decorateKey((String) r[0])));
        return sorted;
    }

    private Path file(String name, String text) throws IOException {
        return Files.writeString(dir.resolve(name), text);
    }

    @Test
    void rowsInAnyOrderImportIntoOneSSTableThatExportsInRingOrder() throws Exception {
        long seed = System.nanoTime();
        System.out.println("ImportExportTest seed " + seed);
        Random random = new Random(seed);
        for (CFMetaData cf : List.of(JsonRowsTest.STD, JsonRowsTest.SUPER)) {
            List<Object[]> rows = rows(random, cf, 300);
            Path input = file(cf.name() + ".json", json(rows));
            Run imported = json2sstable("-K", "Keyspace1", "-c", cf.name(), input.toString());
            assertEquals(0, imported.status(), imported.err());
            assertTrue(imported.out().startsWith("Wrote 300 rows of Keyspace1." + cf.name() + " to " + keyspaceDir), imported.out());
            assertTrue(imported.out().contains("bin/nodetool refresh Keyspace1 " + cf.name()), imported.out());
            Run exported = sstable2json("Keyspace1", cf.name());
            assertEquals(0, exported.status(), exported.err());
            assertEquals(json(inRingOrder(rows)), exported.out(), "seed " + seed);
        }
        assertEquals(List.of("Standard1-0-Data.db", "Standard1-0-Filter.db", "Standard1-0-Index.db",
                "Standard1-0-Statistics.db", "Standard1-0-Summary.db", "Super1-1-Data.db", "Super1-1-Filter.db",
                "Super1-1-Index.db", "Super1-1-Statistics.db", "Super1-1-Summary.db"), names(keyspaceDir),
                "one SSTable each, under the next generation of the keyspace, and no work files left");
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"Murmur3Partitioner", "ByteOrderedPartitioner"})
    void underThreeElevensPartitionersTooRowsExportInTheirRingOrder(String name) throws Exception {
        Path file = conf.resolve("storage-conf.xml");
        Files.writeString(file, Files.readString(file).replaceFirst("<Partitioner>[^<]*</Partitioner>",
                "<Partitioner>" + name + "</Partitioner>"));
        sibyl.dht.Partitioner partitioner = sibyl.dht.Partitioners.forName(name);
        long seed = System.nanoTime();
        System.out.println("ImportExportTest seed " + seed + " (" + name + ")");
        List<Object[]> rows = rows(new Random(seed), JsonRowsTest.STD, 200);
        Run imported = json2sstable("-K", "Keyspace1", "-c", "Standard1", file("rows.json", json(rows)).toString());
        assertEquals(0, imported.status(), imported.err());
        Run exported = sstable2json("Keyspace1", "Standard1");
        assertEquals(0, exported.status(), exported.err());
        List<Object[]> ring = new ArrayList<>(rows);
        ring.sort(Comparator.comparing(r -> partitioner.decorateKey((String) r[0])));
        assertEquals(json(ring), exported.out(), "seed " + seed);
    }

    @Test
    void aColumnFamilyExportsMergedAndOneSSTableOrSnapshotOnItsOwn() throws Exception {
        ColumnFamily older = row(Column.live(b("c"), b("old"), 1), Column.live(b("d"), b("only-old"), 1));
        ColumnFamily newer = row(Column.live(b("c"), b("new"), 2));
        assertEquals(0, json2sstable("-K", "Keyspace1", "-c", "Standard1",
                file("a.json", JsonRowsTest.write(List.of("k", "a"), List.of(older, older))).toString()).status());
        assertEquals(0, json2sstable("-K", "Keyspace1", "-c", "Standard1",
                file("b.json", JsonRowsTest.write(List.of("k"), List.of(newer))).toString()).status());

        Run merged = sstable2json("Keyspace1", "Standard1");
        assertEquals(inRingOrder(Map.of("a", older, "k", ColumnFamily.merge(older, newer))), merged.out());

        Run first = sstable2json(keyspaceDir.resolve("Standard1-0-Data.db").toString());
        assertEquals(0, first.status(), first.err());
        assertEquals(inRingOrder(Map.of("a", older, "k", older)), first.out());

        Path snapshot = Files.createDirectories(keyspaceDir.resolve("snapshots/1700000000000-before"));
        for (String component : List.of("Data", "Index", "Filter", "Summary", "Statistics")) {
            Files.copy(keyspaceDir.resolve("Standard1-1-" + component + ".db"), snapshot.resolve("Standard1-1-" + component + ".db"));
        }
        Run fromSnapshot = sstable2json(snapshot.resolve("Standard1-1-Index.db").toString());
        assertEquals(0, fromSnapshot.status(), fromSnapshot.err());
        assertEquals(JsonRowsTest.write(List.of("k"), List.of(newer)), fromSnapshot.out());
    }

    @Test
    void cassandra06SSTablesExportByFileAndMergedWithSibylsByColumnFamily() throws Exception {
        ColumnFamily older = row(Column.live(b("c"), b("old"), 1), Column.live(b("d"), b("only-old"), 1));
        ColumnFamily newer = row(Column.live(b("c"), b("new"), 2));
        // Tombstones of every kind survive: the row's (with its local deletion time) and a column's.
        ColumnFamily deleted = row(Column.tombstone(b("e"), 3, 1_280_000_000)).withDeletion(2, 1_280_000_001);
        Map<String, ColumnFamily> legacyRows = Map.of("k", older, "gone", deleted);
        List<Map.Entry<DecoratedKey, ColumnFamily>> sorted = new ArrayList<>();
        for (String key : legacyRows.keySet()) sorted.add(Map.entry(PARTITIONER.decorateKey(key), legacyRows.get(key)));
        sorted.sort(Map.Entry.comparingByKey());
        Descriptor legacy = Cassandra06Writer.write(keyspaceDir, "Standard1", 0, PARTITIONER, 1024, sorted);
        assertEquals(0, json2sstable("-K", "Keyspace1", "-c", "Standard1",
                file("b.json", JsonRowsTest.write(List.of("k"), List.of(newer))).toString()).status());
        assertTrue(Files.exists(keyspaceDir.resolve("Standard1-1-Statistics.db")), "json2sstable passed over 0.6's generation");

        Run one = sstable2json(legacy.path(Component.DATA).toString());
        assertEquals(0, one.status(), one.err());
        assertEquals(inRingOrder(legacyRows), one.out());
        Run merged = sstable2json("Keyspace1", "Standard1");
        assertEquals(0, merged.status(), merged.err());
        assertEquals(inRingOrder(Map.of("k", ColumnFamily.merge(older, newer), "gone", deleted)), merged.out());
    }

    /** What an export of these rows is: in ring order. */
    private static String inRingOrder(Map<String, ColumnFamily> rows) throws IOException {
        List<String> keys = new ArrayList<>(rows.keySet());
        keys.sort(Comparator.comparing(PARTITIONER::decorateKey));
        return JsonRowsTest.write(keys, keys.stream().map(rows::get).toList());
    }

    @Test
    void the06FormWritesTheNamedSSTableAndNeverOverOne() throws Exception {
        ColumnFamily row = row(Column.live(b("c"), b("v"), 5));
        Path input = file("in.json", JsonRowsTest.write(List.of("k"), List.of(row)));
        Path elsewhere = Files.createDirectories(dir.resolve("elsewhere/Keyspace1"));
        Path target = elsewhere.resolve("Standard1-7-Data.db");

        Run imported = json2sstable("-K", "Keyspace1", "-c", "Standard1", input.toString(), target.toString());
        assertEquals(0, imported.status(), imported.err());
        assertTrue(imported.out().startsWith("Wrote 1 rows of Keyspace1.Standard1 to " + target), imported.out());
        assertTrue(Files.exists(elsewhere.resolve("Standard1-7-Statistics.db")));
        assertEquals(inRingOrder(Map.of("k", row)), sstable2json(target.toString()).out());

        List<String> before = names(elsewhere);
        Run again = json2sstable("-K", "Keyspace1", "-c", "Standard1", input.toString(), target.toString());
        assertEquals(1, again.status());
        assertTrue(again.err().contains("generation 7 of Standard1 is in use there"), again.err());
        assertEquals(before, names(elsewhere), "nothing written over, nothing left");

        Run otherCf = json2sstable("-K", "Keyspace1", "-c", "Standard2", input.toString(), target.toString());
        assertEquals(1, otherCf.status());
        assertTrue(otherCf.err().contains("names an SSTable of Standard1, not of Standard2"), otherCf.err());
        Run notData = json2sstable("-K", "Keyspace1", "-c", "Standard1", input.toString(),
                elsewhere.resolve("Standard1-8-Index.db").toString());
        assertEquals(1, notData.status());
        assertTrue(notData.err().contains("is not the name of an SSTable's Data file"), notData.err());
    }

    @Test
    void chosenKeysExcludedKeysAndKeysOnly() throws Exception {
        List<String> keys = List.of("k1", "k2", "k3", "k4");
        List<ColumnFamily> rows = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) rows.add(row(Column.live(b("c"), b("v" + i), i)));
        assertEquals(0, json2sstable("-K", "Keyspace1", "-c", "Standard1", file("in.json", JsonRowsTest.write(keys, rows)).toString()).status());
        List<String> ring = new ArrayList<>(keys);
        ring.sort(Comparator.comparing(PARTITIONER::decorateKey));

        Run listed = sstable2json("-e", "Keyspace1", "Standard1");
        assertEquals(String.join("\n", ring) + "\n", listed.out());

        Run chosen = sstable2json("-k", "k3", "-k", "nosuch", "-k", "k1", "Keyspace1", "Standard1");
        List<String> expectedKeys = ring.stream().filter(k -> k.equals("k1") || k.equals("k3")).toList();
        List<ColumnFamily> expectedRows = expectedKeys.stream().map(k -> rows.get(keys.indexOf(k))).toList();
        assertEquals(JsonRowsTest.write(expectedKeys, expectedRows), chosen.out());

        Run excluded = sstable2json("-x", "k2", "-x", "k4", "Keyspace1", "Standard1");
        assertEquals(JsonRowsTest.write(expectedKeys, expectedRows), excluded.out());
    }

    @Test
    void badInputIsOneLineAndLeavesNothingBehind() throws Exception {
        // Bad at the end of a file large enough to have spilled runs: they go too.
        StringBuilder text = new StringBuilder("{\n");
        for (int i = 0; i < 2000; i++) text.append("  \"k").append(i).append("\": [[\"63\", \"76\", 1, false]],\n");
        text.append("  \"bad\": [[\"63\", \"76\", 1, maybe]]\n}\n");
        Path input = file("bad.json", text.toString());
        OfflineStorage storage = OfflineStorage.load(conf, dir);
        ToolError e = assertThrows(ToolError.class, () -> SSTableImport.importJson(storage, "Keyspace1", "Standard1", input,
                10_000, 0));
        assertEquals(input + ":2002:27: row \"bad\": expected true or false (whether the column is deleted), found 'm'",
                e.getMessage());
        assertEquals(List.of(), names(keyspaceDir), "no SSTable, temporary file or run left");

        Run run = json2sstable("-K", "Keyspace1", "-c", "Standard1", input.toString());
        assertEquals(1, run.status());
        assertEquals("json2sstable: " + e.getMessage() + "\n", run.err());
        assertEquals("", run.out());
        assertEquals(List.of(), names(keyspaceDir));
    }

    @Test
    void theGenerationFollowsEveryFileOfTheKeyspaceTemporaryOnesIncluded() throws Exception {
        Files.createDirectories(keyspaceDir);
        Files.writeString(keyspaceDir.resolve("tmp-Standard2-6-Data.db"), "a flush of the running node, under way");
        Run run = json2sstable("-K", "Keyspace1", "-c", "Standard1",
                file("in.json", "{\"k\": [[\"63\", \"76\", 1, false]]}").toString());
        assertEquals(0, run.status(), run.err());
        assertTrue(Files.exists(keyspaceDir.resolve("Standard1-7-Statistics.db")), names(keyspaceDir).toString());
        assertTrue(Files.exists(keyspaceDir.resolve("tmp-Standard2-6-Data.db")), "the node's files are left alone");
    }

    @Test
    void aDamagedSSTableStopsTheExportWithTheFileAndOffset() throws Exception {
        assertEquals(0, json2sstable("-K", "Keyspace1", "-c", "Standard1",
                file("in.json", "{\"k\": [[\"63\", \"76\", 1, false]]}").toString()).status());
        Path data = keyspaceDir.resolve("Standard1-0-Data.db");
        try (FileChannel ch = FileChannel.open(data, StandardOpenOption.WRITE)) {
            ch.write(java.nio.ByteBuffer.wrap(new byte[] {(byte) 0xff}), ch.size() - 6);
        }
        Run run = sstable2json("Keyspace1", "Standard1");
        assertEquals(1, run.status());
        assertTrue(run.err().startsWith("sstable2json: corrupt sstable file " + data + " at offset "), run.err());
        assertEquals(1, run.err().lines().count(), run.err());
    }

    @Test
    void commandLinesAreCheckedAndHelpIsThere() throws Exception {
        Run help = json2sstable("--help");
        assertEquals(0, help.status());
        assertTrue(help.out().startsWith("Usage: json2sstable [--conf DIR] -K KEYSPACE -c COLUMNFAMILY FILE"), help.out());
        assertTrue(sstable2json("-h").out().startsWith("Usage: sstable2json"));

        Run missing = json2sstable("-K", "Keyspace1", "x.json");
        assertEquals(2, missing.status());
        assertTrue(missing.err().startsWith("json2sstable: -K KEYSPACE and -c COLUMNFAMILY are required\nUsage:"), missing.err());
        assertEquals(2, sstable2json("-q", "Keyspace1", "Standard1").status());
        assertEquals(2, sstable2json().status());

        Run unknownCf = json2sstable("-K", "Keyspace1", "-c", "Nope", "x.json");
        assertEquals(1, unknownCf.status());
        assertEquals("json2sstable: column family Nope is not in keyspace Keyspace1 of " + conf.resolve("storage-conf.xml")
                + "\n", unknownCf.err());
        Run noFile = json2sstable("-K", "Keyspace1", "-c", "Standard1", dir.resolve("none.json").toString());
        assertEquals("json2sstable: no such file: " + dir.resolve("none.json") + "\n", noFile.err());
        Run unknownKs = sstable2json("Nope", "Standard1");
        assertEquals("sstable2json: keyspace Nope is not in " + conf.resolve("storage-conf.xml") + "\n", unknownKs.err());
        Run notAnSSTable = sstable2json(dir.resolve("x.json").toString());
        assertEquals("sstable2json: " + dir.resolve("x.json") + " is not an SSTable file (such as Standard1-1-Data.db)\n",
                notAnSSTable.err());
        Run empty = sstable2json("Keyspace1", "Standard2");
        assertEquals(0, empty.status());
        assertEquals("{\n}\n", empty.out());
        assertTrue(empty.err().contains("Keyspace1.Standard2 has no SSTables"), empty.err());
        Path clusterConf = Path.of(System.getProperty("sibyl.home", "..")).resolve("conf/cluster").toAbsolutePath().normalize();
        Run cluster = SSTableImportRunner.withConf(clusterConf);
        assertEquals(1, cluster.status());
        assertEquals("json2sstable: " + clusterConf.resolve("storage-conf.xml") + " stores into a Cassandra cluster (its"
                + " Cluster element): a node so configured keeps no SSTables of its own to export or import into\n", cluster.err());
        Run badConf = SSTableImportRunner.withConf(dir);
        assertEquals(1, badConf.status());
        assertEquals("json2sstable: no storage-conf.xml in " + dir + " (--conf DIR names the directory)\n", badConf.err());
    }

    /** json2sstable pointed at another configuration directory than the test's. */
    private static final class SSTableImportRunner {
        static Run withConf(Path confDir) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int status = SSTableImport.run(new String[] {"--conf", confDir.toString(), "-K", "Keyspace1", "-c",
                    "Standard1", "x.json"}, new PrintStream(out, true, StandardCharsets.UTF_8),
                    new PrintStream(err, true, StandardCharsets.UTF_8));
            return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        }
    }

    private static ColumnFamily row(Column... columns) {
        ColumnFamily.Builder row = ColumnFamily.builder(JsonRowsTest.STD, columns.length);
        for (Column c : columns) row.add(c);
        return row.build();
    }

    private static List<String> names(Path directory) throws IOException {
        if (!Files.exists(directory)) return List.of();
        try (Stream<Path> files = Files.list(directory)) {
            return files.map(f -> f.getFileName().toString()).sorted().toList();
        }
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
