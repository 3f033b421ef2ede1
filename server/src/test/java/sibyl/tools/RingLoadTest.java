package sibyl.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static sibyl.db.TestSchema.b;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.cassandra.thrift.Column;
import org.apache.cassandra.thrift.ColumnOrSuperColumn;
import org.apache.cassandra.thrift.ColumnParent;
import org.apache.cassandra.thrift.ConsistencyLevel;
import org.apache.cassandra.thrift.Deletion;
import org.apache.cassandra.thrift.KeyRange;
import org.apache.cassandra.thrift.KeySlice;
import org.apache.cassandra.thrift.Mutation;
import org.apache.cassandra.thrift.SlicePredicate;
import org.apache.cassandra.thrift.SliceRange;
import org.apache.cassandra.thrift.SuperColumn;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import sibyl.config.StorageConf;
import sibyl.config.StorageConfLoader;
import sibyl.db.CFMetaData;
import sibyl.db.ColumnFamily;
import sibyl.db.KSMetaData;
import sibyl.db.MergingRowIterator;
import sibyl.db.marshal.BytesType;
import sibyl.dht.DecoratedKey;
import sibyl.dht.Partitioner;
import sibyl.dht.Partitioners;
import sibyl.dht.RandomPartitioner;
import sibyl.io.Cassandra06Writer;
import sibyl.io.Component;
import sibyl.io.Descriptor;
import sibyl.io.SSTableDirectory;
import sibyl.io.SSTableReader;
import sibyl.io.SSTableWriter;
import sibyl.it.TestNode;
import sibyl.it.TestNode.Backend;
import sibyl.service.ConfiguredSchema;

/**
 * Many nodes' SSTables into one running node (issue #31, "Many 0.6 nodes into one"): rings made from the real
 * 0.6 fixtures under {@code src/test/resources/c06/} (each row on some nodes only, the same generations in
 * every node's directory) and three nodes holding conflicting versions, loaded with bin/sstableloader's code
 * over real sockets into a node of each backend, then read back through Thrift.
 */
class RingLoadTest {
    private static final Path FIXTURES = Path.of(System.getProperty("sibyl.home", "..")).resolve(
            "server/src/test/resources/c06");
    private static final HexFormat HEX = HexFormat.of();

    @TempDir
    Path dir;

    record Run(int status, String out, String err) {
    }

    private static Run load(Path conf, TestNode node, String keyspace, String columnFamily, List<Path> inputs) {
        List<String> args = new ArrayList<>(List.of("--conf", conf.toString(), "-h", "127.0.0.1", "-p",
                String.valueOf(node.port()), "-K", keyspace, "-c", columnFamily));
        for (Path p : inputs) args.add(p.toString());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = SSTableLoader.run(args.toArray(String[]::new), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** A storage-conf.xml edit giving a test node the keyspaces and partitioner of a fixture's 0.6 node. */
    private static UnaryOperator<String> schemaOf(String fixtureConf) {
        String keyspaces = between(fixtureConf, "<Keyspaces>", "</Keyspaces>");
        String partitioner = between(fixtureConf, "<Partitioner>", "</Partitioner>");
        return xml -> xml.replaceFirst("(?s)<Keyspaces>.*</Keyspaces>", java.util.regex.Matcher.quoteReplacement(keyspaces))
                .replaceFirst("(?s)<Partitioner>[^<]*</Partitioner>", java.util.regex.Matcher.quoteReplacement(partitioner));
    }

    private static String between(String text, String open, String close) {
        int from = text.indexOf(open);
        return text.substring(from, text.indexOf(close, from) + close.length());
    }

    /** A configuration directory holding {@code xml} as its storage-conf.xml, for the loader's --conf. */
    private Path confDir(String name, String xml) throws IOException {
        Path conf = Files.createDirectories(dir.resolve(name));
        Files.writeString(conf.resolve("storage-conf.xml"), xml);
        return conf;
    }

    /**
     * Splits the SSTables a fixture's keyspace directory holds (those 0.6 would load) over {@code nodes} node
     * directories as a ring with ReplicationFactor 2 keeps rows: each row on two of them, in an SSTable of the
     * generation it came from, so every node's directory repeats the generations. The last node's are written
     * in Sibyl's format, the others in 0.6's.
     *
     * @return the node directories
     */
    private List<Path> ring(Path keyspaceDir, CFMetaData cf, Partitioner partitioner, int nodes, int indexInterval)
            throws IOException {
        List<Path> dirs = new ArrayList<>();
        for (int n = 1; n <= nodes; n++) dirs.add(dir.resolve("node" + n).resolve(cf.keyspace()));
        for (Descriptor d : SSTableDirectory.list(keyspaceDir, cf.name())) {
            List<Map<DecoratedKey, ColumnFamily>> shares = new ArrayList<>();
            for (int n = 0; n < nodes; n++) shares.add(new TreeMap<>());
            SSTableReader reader = SSTableReader.open(d, cf, partitioner, indexInterval);
            try {
                Iterator<Map.Entry<DecoratedKey, ColumnFamily>> rows =
                        reader.rowsFrom(DecoratedKey.startOf(partitioner.getMinimumToken()));
                while (rows.hasNext()) {
                    Map.Entry<DecoratedKey, ColumnFamily> row = rows.next();
                    int first = Math.floorMod(row.getKey().key().hashCode(), nodes);
                    shares.get(first).put(row.getKey(), row.getValue());
                    shares.get((first + 1) % nodes).put(row.getKey(), row.getValue());
                }
            } finally {
                reader.release();
            }
            for (int n = 0; n < nodes; n++) {
                if (shares.get(n).isEmpty()) continue;
                if (n == nodes - 1) {
                    try (SSTableWriter w = SSTableWriter.create(new Descriptor(dirs.get(n), cf.name(), d.generation()), cf,
                            partitioner, 4096, indexInterval, shares.get(n).size())) {
                        for (var row : shares.get(n).entrySet()) w.append(row.getKey(), row.getValue());
                        w.finish(sibyl.db.LogPosition.NONE);
                    }
                } else {
                    Cassandra06Writer.write(dirs.get(n), cf.name(), d.generation(), partitioner, 4096,
                            shares.get(n).entrySet());
                }
            }
        }
        return dirs;
    }

    // ---- answers in the fixtures' line format (server/src/test/resources/c06/README.md)

    private static String rangeAnswer(Cassandra.Client client, String keyspace, String columnFamily, boolean withGhosts)
            throws Exception {
        SlicePredicate all = new SlicePredicate().setSlice_range(new SliceRange(ByteBuffer.allocate(0),
                ByteBuffer.allocate(0), false, 1_000_000));
        StringBuilder out = new StringBuilder();
        String start = "";
        boolean first = true;
        while (true) {
            List<KeySlice> page = client.get_range_slices(keyspace, new ColumnParent(columnFamily), all,
                    new KeyRange(100).setStart_key(start).setEnd_key(""), ConsistencyLevel.ONE);
            for (int i = first ? 0 : 1; i < page.size(); i++) {
                KeySlice row = page.get(i);
                if (!withGhosts && row.getColumns().isEmpty()) continue;
                out.append("R ").append(HEX.formatHex(row.getKey().getBytes(StandardCharsets.UTF_8))).append('\n');
                append(out, row.getColumns());
            }
            if (page.size() < 100) return out.toString();
            start = page.get(page.size() - 1).getKey();
            first = false;
        }
    }

    private static void append(StringBuilder out, List<ColumnOrSuperColumn> cells) {
        for (ColumnOrSuperColumn cell : cells) {
            if (cell.isSetSuper_column()) {
                SuperColumn sc = cell.getSuper_column();
                out.append("S ").append(HEX.formatHex(sc.getName())).append('\n');
                for (Column c : sc.getColumns()) out.append("  ").append(column(c)).append('\n');
            } else {
                out.append(column(cell.getColumn())).append('\n');
            }
        }
    }

    private static String column(Column c) {
        return "C " + HEX.formatHex(c.getName()) + " " + HEX.formatHex(c.getValue()) + " " + c.getTimestamp();
    }

    /** The fixture's expected range answer without the rows that come back with no columns. */
    private static String withoutGhosts(String answer) {
        StringBuilder out = new StringBuilder();
        String[] lines = answer.split("\n");
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].isEmpty()) continue;
            boolean ghost = lines[i].startsWith("R ") && (i + 1 == lines.length || lines[i + 1].startsWith("R "));
            if (!ghost) out.append(lines[i]).append('\n');
        }
        return out.toString();
    }

    /**
     * opp-drained was drained before it stopped: its SSTables hold everything it served, and its expected answers
     * are 0.6's own. Split over three nodes (each row on two), with the same generations in each and one node's
     * in Sibyl's format, and loaded into one fresh node, every column family answers as that 0.6 node did, rows
     * of deleted columns included.
     */
    @Test
    void aRingOfThreeOrderPreservingNodesLoadsIntoOneThatAnswersAsZeroSixDid() throws Exception {
        Path fixture = FIXTURES.resolve("opp-drained");
        String xml = Files.readString(fixture.resolve("storage-conf.xml"));
        Path conf = confDir("conf-opp", xml);
        StorageConf storage = StorageConfLoader.load(conf.resolve("storage-conf.xml"), dir);
        Partitioner partitioner = Partitioners.forName(storage.partitioner());
        KSMetaData keyspace = ConfiguredSchema.keyspaces(storage).stream().filter(k -> k.name().equals("Keyspace1"))
                .findFirst().orElseThrow();
        try (TestNode node = TestNode.start(Files.createDirectories(dir.resolve("node")), schemaOf(xml))) {
            Cassandra.Client client = node.client();
            for (CFMetaData cf : keyspace.columnFamilies()) {
                List<Path> nodes = ring(fixture.resolve("data/Keyspace1"), cf, partitioner, 3, storage.indexInterval());
                Run run = load(conf, node, "Keyspace1", cf.name(), nodes);
                assertEquals(0, run.status(), run.err());
                assertTrue(run.out().contains("Read " + 3 * SSTableDirectory.list(fixture.resolve("data/Keyspace1"),
                        cf.name()).size() + " SSTable(s) of Keyspace1." + cf.name()), run.out());
                String expected = Files.readString(fixture.resolve("expected/Keyspace1." + cf.name() + ".txt"));
                assertEquals(expected, rangeAnswer(client, "Keyspace1", cf.name(), true), cf.name());
            }
        }
    }

    /**
     * random-killed's SSTables (every comparator, both column family types, deletions of every kind across
     * SSTables), each generation on a node of its own under the same name, load into a node of either backend
     * and read as their merge: checked against the rows merged here, column by column.
     */
    @ParameterizedTest
    @MethodSource("sibyl.it.TestNode#backends")
    void everyComparatorLoadsAsItsSSTablesMerge(Backend backend) throws Exception {
        Path fixture = FIXTURES.resolve("random-killed");
        String xml = Files.readString(fixture.resolve("storage-conf.xml"));
        Path conf = confDir("conf-random", xml);
        StorageConf storage = StorageConfLoader.load(conf.resolve("storage-conf.xml"), dir);
        Partitioner partitioner = Partitioners.forName(storage.partitioner());
        try (TestNode node = TestNode.start(backend, Files.createDirectories(dir.resolve("node")), schemaOf(xml), null)) {
            Cassandra.Client client = node.client();
            for (KSMetaData keyspace : ConfiguredSchema.keyspaces(storage)) {
                if (keyspace.name().equals("system")) continue;
                for (CFMetaData cf : keyspace.columnFamilies()) {
                    List<Descriptor> sstables = SSTableDirectory.list(fixture.resolve("data").resolve(keyspace.name()),
                            cf.name());
                    List<Path> nodes = new ArrayList<>();
                    for (Descriptor d : sstables) {
                        Path to = Files.createDirectories(dir.resolve(cf.name() + "-from-" + d.generation())
                                .resolve(keyspace.name()));
                        for (Component c : d.components()) {
                            Files.copy(d.path(c), to.resolve(cf.name() + "-1-" + c.suffix()));
                        }
                        nodes.add(to);
                    }
                    Run run = load(conf, node, keyspace.name(), cf.name(), nodes);
                    assertEquals(0, run.status(), run.err());
                    String expected = merged(sstables, cf, partitioner, storage.indexInterval());
                    assertEquals(expected, rangeAnswer(client, keyspace.name(), cf.name(), false),
                            backend + " " + keyspace.name() + "." + cf.name());
                }
            }
        }
    }

    /** What reads of the merge of {@code sstables} return, rows with nothing live left out, in the fixtures' format. */
    private static String merged(List<Descriptor> sstables, CFMetaData cf, Partitioner partitioner, int indexInterval)
            throws IOException {
        List<SSTableReader> readers = new ArrayList<>();
        List<Iterator<Map.Entry<DecoratedKey, ColumnFamily>>> sources = new ArrayList<>();
        for (Descriptor d : sstables) {
            SSTableReader r = SSTableReader.open(d, cf, partitioner, indexInterval);
            readers.add(r);
            sources.add(r.rowsFrom(DecoratedKey.startOf(partitioner.getMinimumToken())));
        }
        StringBuilder out = new StringBuilder();
        try {
            Iterator<Map.Entry<DecoratedKey, ColumnFamily>> rows = MergingRowIterator.of(sources);
            while (rows.hasNext()) {
                Map.Entry<DecoratedKey, ColumnFamily> row = rows.next();
                StringBuilder cells = new StringBuilder();
                sibyl.db.Deletion rowDeletion = row.getValue().deletion();
                for (sibyl.db.Cell cell : row.getValue().cells()) {
                    if (cell instanceof sibyl.db.Column c) {
                        if (c.isLive(rowDeletion, 0)) cells.append(column(c)).append('\n');
                    } else {
                        sibyl.db.SuperColumn live = ((sibyl.db.SuperColumn) cell).live(rowDeletion, 0);
                        if (live == null) continue;
                        cells.append("S ").append(HEX.formatHex(live.name())).append('\n');
                        for (sibyl.db.Column c : live.subcolumns()) cells.append("  ").append(column(c)).append('\n');
                    }
                }
                if (cells.isEmpty()) continue;
                out.append("R ").append(HEX.formatHex(row.getKey().key().getBytes(StandardCharsets.UTF_8))).append('\n')
                        .append(cells);
            }
        } finally {
            readers.forEach(SSTableReader::release);
        }
        return out.toString();
    }

    private static String column(sibyl.db.Column c) {
        return "C " + HEX.formatHex(c.name()) + " " + HEX.formatHex(c.value()) + " " + c.timestamp();
    }

    // ---- three nodes' conflicting versions

    private static final CFMetaData STD = CFMetaData.standard("Keyspace1", "Standard1", BytesType.instance);
    private static final CFMetaData SUPER = CFMetaData.ofSuper("Keyspace1", "Super1", BytesType.instance,
            BytesType.instance);
    /** When the 0.6 nodes made their tombstones: 2001, long past any GCGraceSeconds. */
    private static final int LONG_AGO = 1_000_000_000;

    /** A row built from cells: "name=value@ts" a column, "-name@ts" a column tombstone, "-@ts" the row tombstone. */
    private static ColumnFamily std(String... cells) {
        ColumnFamily.Builder row = ColumnFamily.builder(STD, cells.length);
        for (String cell : cells) {
            int at = cell.lastIndexOf('@');
            long ts = Long.parseLong(cell.substring(at + 1));
            String body = cell.substring(0, at);
            if (body.equals("-")) row.delete(ts, LONG_AGO);
            else if (body.startsWith("-")) row.add(sibyl.db.Column.tombstone(b(body.substring(1)), ts, LONG_AGO));
            else row.add(sibyl.db.Column.live(b(body.substring(0, body.indexOf('='))), b(body.substring(body.indexOf('=') + 1)), ts));
        }
        return row.build();
    }

    /** A super row: "sc:name=value@ts", "sc:-name@ts" (subcolumn tombstone), "sc:-@ts" (super column tombstone), "-@ts". */
    private static ColumnFamily sup(String... cells) {
        Map<String, sibyl.db.SuperColumn.Builder> supers = new LinkedHashMap<>();
        ColumnFamily.Builder row = ColumnFamily.builder(SUPER, cells.length);
        for (String cell : cells) {
            int at = cell.lastIndexOf('@');
            long ts = Long.parseLong(cell.substring(at + 1));
            String body = cell.substring(0, at);
            if (body.equals("-")) {
                row.delete(ts, LONG_AGO);
                continue;
            }
            String name = body.substring(0, body.indexOf(':'));
            String sub = body.substring(body.indexOf(':') + 1);
            sibyl.db.SuperColumn.Builder sc = supers.computeIfAbsent(name,
                    n -> sibyl.db.SuperColumn.builder(b(n), BytesType.instance, 4));
            if (sub.equals("-")) sc.delete(ts, LONG_AGO);
            else if (sub.startsWith("-")) sc.add(sibyl.db.Column.tombstone(b(sub.substring(1)), ts, LONG_AGO));
            else sc.add(sibyl.db.Column.live(b(sub.substring(0, sub.indexOf('='))), b(sub.substring(sub.indexOf('=') + 1)), ts));
        }
        for (sibyl.db.SuperColumn.Builder sc : supers.values()) row.add(sc.build());
        return row.build();
    }

    private static Descriptor write(Path directory, CFMetaData cf, Map<String, ColumnFamily> rows) throws IOException {
        RandomPartitioner p = new RandomPartitioner();
        TreeMap<DecoratedKey, ColumnFamily> sorted = new TreeMap<>();
        rows.forEach((k, v) -> sorted.put(p.decorateKey(k), v));
        return Cassandra06Writer.write(directory, cf.name(), 1, p, 4096, sorted.entrySet());
    }

    /** What a read of a whole row returns, "name=value@ts" each, super columns as "sc:[...]". */
    private static List<String> row(Cassandra.Client client, String cf, String key) throws Exception {
        List<String> cells = new ArrayList<>();
        for (ColumnOrSuperColumn c : client.get_slice("Keyspace1", key, new ColumnParent(cf),
                new SlicePredicate().setSlice_range(new SliceRange(ByteBuffer.allocate(0), ByteBuffer.allocate(0), false,
                        1000)), ConsistencyLevel.ONE)) {
            if (c.isSetColumn()) {
                cells.add(text(c.getColumn()));
            } else {
                List<String> subs = new ArrayList<>();
                for (Column sub : c.getSuper_column().getColumns()) subs.add(text(sub));
                cells.add(new String(c.getSuper_column().getName(), StandardCharsets.UTF_8) + ":" + subs);
            }
        }
        return cells;
    }

    private static String text(Column c) {
        return new String(c.getName(), StandardCharsets.UTF_8) + "=" + new String(c.getValue(), StandardCharsets.UTF_8)
                + "@" + c.getTimestamp();
    }

    private static Mutation insert(String name, String value, long ts) {
        return new Mutation().setColumn_or_supercolumn(new ColumnOrSuperColumn().setColumn(
                new Column(ByteBuffer.wrap(b(name)), ByteBuffer.wrap(b(value)), ts)));
    }

    /**
     * Three nodes hold different versions of the same rows; the node loaded into holds some already. Every row
     * reads as the merge by timestamp: newer overwrites win, equal timestamps go to the tombstone or the larger
     * value, column, super column, subcolumn and row tombstones of one node hide older versions from the others
     * (and from the node itself), newer writes come back over them. The tombstones get the node's own time as
     * their local deletion time.
     */
    @ParameterizedTest
    @MethodSource("sibyl.it.TestNode#backends")
    void conflictingVersionsFromThreeNodesMergeByTimestamp(Backend backend) throws Exception {
        Path a = dir.resolve("a/Keyspace1");
        Path bb = dir.resolve("b/Keyspace1");
        Path c = dir.resolve("c/Keyspace1");
        Map<String, ColumnFamily> stdA = new TreeMap<>();
        Map<String, ColumnFamily> stdB = new TreeMap<>();
        Map<String, ColumnFamily> stdC = new TreeMap<>();
        stdA.put("overwrite", std("c=a@10"));
        stdB.put("overwrite", std("c=b@20"));
        stdC.put("overwrite", std("c=c@15"));
        stdA.put("tie", std("c=x@10", "d=live@10"));
        stdB.put("tie", std("c=y@10"));
        stdC.put("tie", std("-d@10"));
        stdA.put("columnDeleted", std("c1=v@10", "c2=v@10"));
        stdB.put("columnDeleted", std("-c1@12"));
        stdA.put("columnDeletedBefore", std("c1=v@10"));
        stdB.put("columnDeletedBefore", std("-c1@5"));
        stdA.put("rowDeleted", std("c1=old@10", "c2=new@30"));
        stdB.put("rowDeleted", std("-@20"));
        stdC.put("rowDeleted", std("c3=old@15"));
        stdA.put("ghost", std("c1=v@5"));
        stdB.put("ghost", std("-@20"));
        stdA.put("writtenAgain", std("-@20"));
        stdB.put("writtenAgain", std("c1=back@25"));
        stdA.put("nodeNewer", std("c1=old@50"));
        stdB.put("nodeOlder", std("-c1@5"));
        stdC.put("nodeRowDeleted", std("-@2"));
        write(a, STD, stdA);
        write(bb, STD, stdB);
        write(c, STD, stdC);
        Map<String, ColumnFamily> supA = new TreeMap<>();
        Map<String, ColumnFamily> supB = new TreeMap<>();
        Map<String, ColumnFamily> supC = new TreeMap<>();
        supA.put("superColumnDeleted", sup("sc1:x=old@10", "sc1:y=new@20", "sc2:z=v@10"));
        supB.put("superColumnDeleted", sup("sc1:-@15"));
        supA.put("subcolumnDeleted", sup("sc1:x=old@10"));
        supC.put("subcolumnDeleted", sup("sc1:-x@11", "sc1:z=v@12"));
        supA.put("superRowDeleted", sup("sc1:x=old@10", "sc2:y=new@30"));
        supB.put("superRowDeleted", sup("-@20"));
        supC.put("superRowDeleted", sup("sc3:-@25", "sc3:w=newer@26"));
        write(a, SUPER, supA);
        write(bb, SUPER, supB);
        write(c, SUPER, supC);

        int before = (int) (System.currentTimeMillis() / 1000);
        try (TestNode node = TestNode.start(backend, Files.createDirectories(dir.resolve("node")), UnaryOperator.identity(),
                null)) {
            Cassandra.Client client = node.client();
            Map<String, Map<String, List<Mutation>>> held = new LinkedHashMap<>();
            held.put("nodeNewer", Map.of("Standard1", List.of(insert("c1", "node", 100))));
            held.put("nodeOlder", Map.of("Standard1", List.of(insert("c1", "node", 1), insert("c2", "keep", 1))));
            held.put("nodeRowDeleted", Map.of("Standard1", List.of(insert("c1", "node", 1))));
            client.batch_mutate("Keyspace1", held, ConsistencyLevel.ONE);

            Path conf = node.confDir();
            for (String cf : List.of("Standard1", "Super1")) {
                Run run = load(conf, node, "Keyspace1", cf, List.of(a, bb, c));
                assertEquals(0, run.status(), run.err());
                if (cf.equals("Standard1")) {
                    assertTrue(run.out().contains("Sent 10 rows to 127.0.0.1:" + node.port()), run.out());
                    assertTrue(run.out().contains("0 of super columns"), run.out());
                }
            }

            assertEquals(List.of("c=b@20"), row(client, "Standard1", "overwrite"));
            assertEquals(List.of("c=y@10"), row(client, "Standard1", "tie"));
            assertEquals(List.of("c2=v@10"), row(client, "Standard1", "columnDeleted"));
            assertEquals(List.of("c1=v@10"), row(client, "Standard1", "columnDeletedBefore"));
            assertEquals(List.of("c2=new@30"), row(client, "Standard1", "rowDeleted"));
            assertEquals(List.of(), row(client, "Standard1", "ghost"));
            assertEquals(List.of("c1=back@25"), row(client, "Standard1", "writtenAgain"));
            assertEquals(List.of("c1=node@100"), row(client, "Standard1", "nodeNewer"));
            assertEquals(List.of("c2=keep@1"), row(client, "Standard1", "nodeOlder"));
            assertEquals(List.of(), row(client, "Standard1", "nodeRowDeleted"));
            assertEquals(List.of("sc1:[y=new@20]", "sc2:[z=v@10]"), row(client, "Super1", "superColumnDeleted"));
            assertEquals(List.of("sc1:[z=v@12]"), row(client, "Super1", "subcolumnDeleted"));
            assertEquals(List.of("sc2:[y=new@30]", "sc3:[w=newer@26]"), row(client, "Super1", "superRowDeleted"));

            // Later writes reconcile with the loaded versions as with any: one under the loaded row tombstone stays
            // hidden, a newer deletion removes a loaded column.
            Map<String, Map<String, List<Mutation>>> late = Map.of("rowDeleted", Map.of("Standard1", List.of(
                    insert("c4", "late-but-older", 19),
                    new Mutation().setDeletion(new Deletion().setTimestamp(31)
                            .setPredicate(new SlicePredicate().setColumn_names(List.of(ByteBuffer.wrap(b("c2")))))))));
            client.batch_mutate("Keyspace1", late, ConsistencyLevel.ONE);
            assertEquals(List.of(), row(client, "Standard1", "rowDeleted"));

            if (backend == Backend.EMBEDDED) {
                node.invoke("org.apache.cassandra.service:type=StorageService", "forceTableFlush", "Keyspace1", new String[0]);
                assertTombstonesMadeAfter(before, node, dir.resolve("node"));
            }
        }
    }

    /** The node's own SSTables hold the loaded tombstones with local deletion times of the load, not 0.6's. */
    private static void assertTombstonesMadeAfter(int before, TestNode node, Path installDir) throws IOException {
        Path keyspaceDir = installDir.resolve("var/data/Keyspace1");
        RandomPartitioner p = new RandomPartitioner();
        ColumnFamily ghost = null;
        ColumnFamily superRow = null;
        for (Descriptor d : SSTableDirectory.list(keyspaceDir, "Standard1")) {
            SSTableReader r = SSTableReader.open(d, STD, p, 128);
            try {
                ColumnFamily row = r.getRow(p.decorateKey("ghost"));
                if (row != null) ghost = ghost == null ? row : ColumnFamily.merge(ghost, row);
            } finally {
                r.release();
            }
        }
        for (Descriptor d : SSTableDirectory.list(keyspaceDir, "Super1")) {
            SSTableReader r = SSTableReader.open(d, SUPER, p, 128);
            try {
                ColumnFamily row = r.getRow(p.decorateKey("superColumnDeleted"));
                if (row != null) superRow = superRow == null ? row : ColumnFamily.merge(superRow, row);
            } finally {
                r.release();
            }
        }
        assertTrue(ghost != null && ghost.deletion().markedForDeleteAt() == 20, String.valueOf(ghost));
        assertTrue(ghost.deletion().localDeletionTime() >= before, "row tombstone made at the load: " + ghost.deletion());
        sibyl.db.SuperColumn sc1 = (sibyl.db.SuperColumn) superRow.cell(b("sc1"));
        assertEquals(15, sc1.deletion().markedForDeleteAt());
        assertTrue(sc1.deletion().localDeletionTime() >= before, "super column tombstone made at the load");
    }
}
