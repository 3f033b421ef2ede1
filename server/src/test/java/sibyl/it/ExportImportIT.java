package sibyl.it;

import static org.apache.cassandra.thrift.ConsistencyLevel.ONE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static sibyl.it.Requests.all;
import static sibyl.it.Requests.b;
import static sibyl.it.Requests.hex;
import static sibyl.it.Requests.keys;
import static sibyl.it.Requests.longName;
import static sibyl.it.Requests.parent;
import static sibyl.it.Requests.path;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.cassandra.thrift.Column;
import org.apache.cassandra.thrift.ColumnOrSuperColumn;
import org.apache.cassandra.thrift.ColumnPath;
import org.apache.cassandra.thrift.KeySlice;
import org.apache.cassandra.thrift.NotFoundException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sibyl.dht.RandomPartitioner;

/**
 * bin/sstable2json and bin/json2sstable as an operator runs them: a node's column families
 * exported, imported into an empty node (before it starts, and while it runs with nodetool
 * refresh's operation), and every row and tombstone found again there; and a column family larger
 * than the heap the tools are given, exported and imported through that heap.
 */
class ExportImportIT {
    private static final String STORAGE_SERVICE = "org.apache.cassandra.service:type=StorageService";
    private static final List<String[]> COLUMN_FAMILIES = List.of(
            new String[] {"Keyspace1", "Standard1"}, new String[] {"Keyspace1", "Super1"},
            new String[] {"Twissandra", "Timeline"});

    @TempDir
    Path dir;

    private static Path home() {
        return Path.of(System.getProperty("sibyl.home", "..")).toAbsolutePath().normalize();
    }

    /** Data, commit log and caches under {@code install}, by absolute paths, so the forked tools find them too. */
    private static UnaryOperator<String> under(Path install) {
        return xml -> xml.replace("var/", install.toAbsolutePath() + "/var/");
    }

    record Result(int status, String out, String err) {
    }

    /** Runs a bin/ script, its standard output into {@code out} (a temporary file when null). */
    private Result run(Path out, Map<String, String> env, String... command) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(command));
        cmd.set(0, home().resolve(cmd.get(0)).toString());
        Path stdout = out != null ? out : Files.createTempFile(dir, "out", ".txt");
        Path stderr = Files.createTempFile(dir, "err", ".txt");
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(stdout.toFile()).redirectError(stderr.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        pb.environment().remove("JVM_OPTS");
        pb.environment().putAll(env);
        Process p = pb.start();
        assertTrue(p.waitFor(600, TimeUnit.SECONDS), "finished: " + cmd);
        return new Result(p.exitValue(), out != null ? "" : Files.readString(stdout), Files.readString(stderr));
    }

    @Test
    void everyRowAndTombstoneSurvivesExportAndImportIntoAnEmptyNode() throws Exception {
        Path installA = dir.resolve("a");
        Path installB = dir.resolve("b");
        Map<String, String> before = new LinkedHashMap<>();
        try (TestNode a = TestNode.start(installA, under(installA))) {
            Cassandra.Client c = a.client();
            write(c);
            flush(a);
            writeMore(c); // a second SSTable each: the export merges them
            flush(a);
            for (String[] cf : COLUMN_FAMILIES) {
                Path json = dir.resolve(cf[1] + ".json");
                Result export = run(json, Map.of(), "bin/sstable2json", "--conf", a.confDir().toString(), cf[0], cf[1]);
                assertEquals(0, export.status(), export.err());
                assertEquals("", export.err());
                before.put(cf[1], read(c, cf[0], cf[1]));
            }
        }
        String exported = Files.readString(dir.resolve("Standard1.json"));
        assertTrue(exported.contains("\"gone\": {\"deletedAt\": 300, \"localDeletionTime\": "), exported);
        assertTrue(exported.contains("[\"6f6c64\", \""), "the column tombstone of \"partial\": " + exported);

        // Standard1 and Super1 imported before the node starts; Timeline while it runs.
        Files.createDirectories(installB);
        TestNode bootstrap = TestNode.start(installB, under(installB)); // installs B's conf
        bootstrap.close();
        Path confB = installB.resolve("conf");
        for (String cf : List.of("Standard1", "Super1")) {
            Result imported = run(null, Map.of(), "bin/json2sstable", "--conf", confB.toString(), "-K", "Keyspace1", "-c",
                    cf, dir.resolve(cf + ".json").toString());
            assertEquals(0, imported.status(), imported.err());
            assertTrue(imported.out().startsWith("Wrote "), imported.out());
        }
        try (TestNode b = TestNode.start(installB, under(installB))) {
            Cassandra.Client c = b.client();
            Result timeline = run(null, Map.of(), "bin/json2sstable", "--conf", confB.toString(), "-K", "Twissandra", "-c",
                    "Timeline", dir.resolve("Timeline.json").toString());
            assertEquals(0, timeline.status(), timeline.err());
            assertEquals("", read(c, "Twissandra", "Timeline"), "not served before the refresh");
            assertEquals(1, b.invoke(STORAGE_SERVICE, "loadNewSSTables", "Twissandra", "Timeline"));
            assertEquals(0, b.invoke(STORAGE_SERVICE, "loadNewSSTables", "Twissandra", "Timeline"));

            for (String[] cf : COLUMN_FAMILIES) {
                assertEquals(before.get(cf[1]), read(c, cf[0], cf[1]), cf[1] + " reads as on the first node");
                Path again = dir.resolve(cf[1] + "-again.json");
                Result export = run(again, Map.of(), "bin/sstable2json", "--conf", confB.toString(), cf[0], cf[1]);
                assertEquals(0, export.status(), export.err());
                assertEquals(Files.readString(dir.resolve(cf[1] + ".json")), Files.readString(again),
                        cf[1] + ": the same rows, tombstones and shadowed versions, byte for byte");
            }
            tombstonesStillHideOlderWrites(c);
        }
    }

    /** Rows of every kind: live columns, a column tombstone, row tombstones with and without later columns, super column tombstones. */
    private static void write(Cassandra.Client c) throws Exception {
        for (int i = 0; i < 40; i++) {
            c.insert("Keyspace1", "row" + i, path("Standard1", "name"), b("value " + i), 100 + i, ONE);
            c.insert("Keyspace1", "row" + i, path("Standard1", "other"), b(new byte[] {0, 1, (byte) i}), 100, ONE);
        }
        for (String key : List.of("ключ", "q\"uote\\", "tab\tkey")) {
            c.insert("Keyspace1", key, path("Standard1", "c"), b("v"), 100, ONE);
        }
        c.insert("Keyspace1", "partial", path("Standard1", "old"), b("x"), 100, ONE);
        c.insert("Keyspace1", "partial", path("Standard1", "kept"), b("y"), 100, ONE);
        c.remove("Keyspace1", "partial", path("Standard1", "old"), 200, ONE);
        c.insert("Keyspace1", "gone", path("Standard1", "c"), b("before"), 100, ONE);
        c.remove("Keyspace1", "gone", new ColumnPath("Standard1"), 300, ONE);
        c.insert("Keyspace1", "gone", path("Standard1", "after"), b("written later"), 400, ONE);
        c.insert("Keyspace1", "deleted", path("Standard1", "c"), b("v"), 100, ONE);
        c.remove("Keyspace1", "deleted", new ColumnPath("Standard1"), 150, ONE);

        for (int i = 0; i < 10; i++) {
            c.insert("Keyspace1", "s" + i, path("Super1", "sc1", "a"), b("a" + i), 100, ONE);
            c.insert("Keyspace1", "s" + i, path("Super1", "sc2", "b"), b("b" + i), 100, ONE);
        }
        c.remove("Keyspace1", "s1", path("Super1", "sc1", null), 200, ONE);
        c.insert("Keyspace1", "s1", path("Super1", "sc1", "new"), b("after the tombstone"), 300, ONE);
        c.remove("Keyspace1", "s2", path("Super1", "sc2", "b"), 200, ONE);
        c.remove("Keyspace1", "s3", new ColumnPath("Super1"), 200, ONE);

        for (long t = 0; t < 20; t++) {
            ColumnPath p = new ColumnPath("Timeline").setColumn(longName(t * 1_000_000_007L - 9_000_000_000L));
            c.insert("Twissandra", "user" + (t % 3), p, b("tweet " + t), 100 + t, ONE);
        }
    }

    private static void writeMore(Cassandra.Client c) throws Exception {
        for (int i = 0; i < 40; i += 3) c.insert("Keyspace1", "row" + i, path("Standard1", "name"), b("newer " + i), 500, ONE);
        c.insert("Keyspace1", "s4", path("Super1", "sc1", "a"), b("newer"), 500, ONE);
        c.insert("Twissandra", "user1", new ColumnPath("Timeline").setColumn(longName(42)), b("newer"), 500, ONE);
    }

    private static void flush(TestNode node) throws Exception {
        for (String ks : List.of("Keyspace1", "Twissandra")) node.invoke(STORAGE_SERVICE, "forceTableFlush", ks, new String[0]);
    }

    /** Every row of the column family by range scan, rows in ring order, as text: keys, names, values, timestamps. */
    private static String read(Cassandra.Client c, String keyspace, String columnFamily) throws Exception {
        StringBuilder s = new StringBuilder();
        for (KeySlice row : c.get_range_slices(keyspace, parent(columnFamily), all(), keys("", "", 10_000), ONE)) {
            s.append(row.getKey()).append(':');
            for (ColumnOrSuperColumn cosc : row.getColumns()) {
                if (cosc.isSetColumn()) {
                    s.append(' ').append(describe(cosc.getColumn()));
                } else {
                    s.append(" [").append(hex(cosc.getSuper_column().bufferForName()));
                    for (Column sub : cosc.getSuper_column().getColumns()) s.append(' ').append(describe(sub));
                    s.append(']');
                }
            }
            s.append('\n');
        }
        return s.toString();
    }

    private static String describe(Column col) {
        return hex(col.bufferForName()) + "=" + hex(col.bufferForValue()) + "@" + col.getTimestamp();
    }

    /** The imported tombstones act as the originals did: older writes stay hidden, newer ones show. */
    private static void tombstonesStillHideOlderWrites(Cassandra.Client c) throws Exception {
        c.insert("Keyspace1", "gone", path("Standard1", "late"), b("older than the row tombstone"), 299, ONE);
        assertThrows(NotFoundException.class, () -> c.get("Keyspace1", "gone", path("Standard1", "late"), ONE));
        c.insert("Keyspace1", "gone", path("Standard1", "late"), b("newer"), 301, ONE);
        assertEquals("newer", Requests.text(c.get("Keyspace1", "gone", path("Standard1", "late"), ONE).getColumn().bufferForValue()));
        c.insert("Keyspace1", "partial", path("Standard1", "old"), b("older than its tombstone"), 199, ONE);
        assertThrows(NotFoundException.class, () -> c.get("Keyspace1", "partial", path("Standard1", "old"), ONE));
        c.insert("Keyspace1", "s1", path("Super1", "sc1", "z"), b("older than the super column tombstone"), 150, ONE);
        assertThrows(NotFoundException.class, () -> c.get("Keyspace1", "s1", path("Super1", "sc1", "z"), ONE));
        c.insert("Keyspace1", "s3", path("Super1", "sc9", "z"), b("older than the row tombstone"), 150, ONE);
        assertThrows(NotFoundException.class, () -> c.get("Keyspace1", "s3", path("Super1", "sc9", "z"), ONE));
    }

    // ---- more data than heap

    private static final int HEAP_MB = 32;
    private static final int ROWS = 10_000;
    private static final int COLUMNS = 10;
    private static final int VALUE_BYTES = 700;
    private static final Pattern RUNS = Pattern.compile("\\(sorted in (\\d+) runs\\)");

    /**
     * A column family of about 70 MB of data, written as JSON with its rows out of ring order,
     * imported and exported again by tools given a 32 MB heap: the import sorts it in runs, the
     * export streams it, and every row comes back as written, in ring order.
     */
    @Test
    void aColumnFamilyLargerThanTheHeapImportsAndExportsThroughIt() throws Exception {
        Path install = dir.resolve("big");
        TestNode.start(install, under(install)).close(); // installs the conf; the tools work offline
        Path conf = install.resolve("conf");
        long seed = System.nanoTime();
        System.out.println("ExportImportIT seed " + seed);
        Path input = dir.resolve("big.json");
        try (BufferedWriter out = Files.newBufferedWriter(input)) {
            out.write("{\n");
            for (int i = 0; i < ROWS; i++) {
                out.write(line(seed, "row" + i)); // in key order, which RandomPartitioner's ring order is not
                out.write(i < ROWS - 1 ? ",\n" : "\n");
            }
            out.write("}\n");
        }
        Map<String, String> smallHeap = Map.of("JVM_OPTS", "-Xmx" + HEAP_MB + "m");

        Result imported = run(null, smallHeap, "bin/json2sstable", "--conf", conf.toString(), "-K", "Keyspace1", "-c",
                "Standard1", input.toString());
        assertEquals(0, imported.status(), imported.err());
        Matcher runs = RUNS.matcher(imported.out());
        assertTrue(runs.find() && Integer.parseInt(runs.group(1)) > 1, "sorted in several runs: " + imported.out());
        Path data = install.resolve("var/data/Keyspace1/Standard1-0-Data.db");
        long dataBytes = Files.size(data);
        assertTrue(dataBytes > 2L * HEAP_MB << 20, "well over the heap: " + dataBytes + " bytes");

        Path output = dir.resolve("big-out.json");
        Result exported = run(output, smallHeap, "bin/sstable2json", "--conf", conf.toString(), "Keyspace1", "Standard1");
        assertEquals(0, exported.status(), exported.err());
        List<String> ring = new ArrayList<>();
        for (int i = 0; i < ROWS; i++) ring.add("row" + i);
        RandomPartitioner partitioner = new RandomPartitioner();
        ring.sort(Comparator.comparing(partitioner::decorateKey));
        try (BufferedReader in = Files.newBufferedReader(output)) {
            assertEquals("{", in.readLine());
            for (int i = 0; i < ROWS; i++) {
                String expected = line(seed, ring.get(i)) + (i < ROWS - 1 ? "," : "");
                String actual = in.readLine();
                if (!expected.equals(actual)) {
                    throw new AssertionError("seed " + seed + ": row " + i + " of the export is not " + ring.get(i) + " as written: "
                            + (actual == null ? "end of file" : actual.substring(0, Math.min(120, actual.length()))));
                }
            }
            assertEquals("}", in.readLine());
            assertEquals(null, in.readLine());
        }
        System.out.printf("ExportImportIT: %d rows, %d MB of SSTable data, %d MB of JSON, through a %d MB heap; %s%n", ROWS,
                dataBytes >> 20, Files.size(output) >> 20, HEAP_MB, imported.out().trim());
        try (Stream<Path> left = Files.list(install.resolve("var/data/Keyspace1"))) {
            assertEquals(5, left.count(), "one SSTable, its five files, and no runs left");
        }
    }

    /** One row as the export writes it: columns c0..c9 with values drawn from the row's own random numbers. */
    private static String line(long seed, String key) {
        Random random = new Random(seed ^ key.hashCode());
        HexFormat hex = HexFormat.of();
        StringBuilder s = new StringBuilder("  \"").append(key).append("\": [");
        byte[] value = new byte[VALUE_BYTES];
        for (int c = 0; c < COLUMNS; c++) {
            random.nextBytes(value);
            if (c > 0) s.append(", ");
            s.append("[\"").append(hex.formatHex(("c" + c).getBytes(StandardCharsets.UTF_8))).append("\", \"")
                    .append(hex.formatHex(value)).append("\", ").append(1_000_000L + c).append(", false]");
        }
        return s.append(']').toString();
    }

    @Test
    void badInputIsOneLineOnStandardErrorAndNothingIsWritten() throws Exception {
        Path install = dir.resolve("bad");
        TestNode.start(install, under(install)).close();
        Path input = Files.writeString(dir.resolve("bad.json"), "{\n  \"k\": [[\"6e616d65\", \"76\", 1, false]],\n  \"k2\": [[\"6e616d65\"]]\n}\n");
        Result result = run(null, Map.of(), "bin/json2sstable", "--conf", install.resolve("conf").toString(), "-K", "Keyspace1",
                "-c", "Standard1", input.toString());
        assertEquals(1, result.status());
        assertEquals("", result.out());
        assertEquals("json2sstable: " + input + ":3:21: row \"k2\": expected ',' after the column name, found ']'\n", result.err());
        try (Stream<Path> files = Files.list(install.resolve("var/data/Keyspace1"))) {
            assertEquals(List.of(), files.toList());
        }
    }
}
