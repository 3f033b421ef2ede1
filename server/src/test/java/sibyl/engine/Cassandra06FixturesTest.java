package sibyl.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import sibyl.CommitLogOpener;
import sibyl.commitlog.CommitLogSettings;
import sibyl.config.StorageConf;
import sibyl.config.StorageConfLoader;
import sibyl.db.Cell;
import sibyl.db.Column;
import sibyl.db.ColumnSelection;
import sibyl.db.QueryPath;
import sibyl.db.RowRange;
import sibyl.db.RowSlice;
import sibyl.db.SuperColumn;
import sibyl.dht.Partitioners;
import sibyl.io.SSTableFormat;
import sibyl.io.SSTableReader;
import sibyl.service.ConfiguredSchema;

/**
 * The data directories real Cassandra 0.6.5 nodes left (src/test/resources/c06, see its README), opened where
 * they stand with the nodes' own storage-conf.xml: every row and slice the node answered just before it stopped
 * is answered alike, for the data that lives in SSTables. What lives in a commit log tail (the entries
 * expected/commitlog.txt says 0.6 would replay) is left out here: its replay is the commit log's business, so
 * this test gives the node an empty commit log directory and compares the rows those entries do not touch. Then
 * a major compaction rewrites every 0.6 SSTable in Sibyl's format and the answers stay the same, before and
 * after a restart.
 */
class Cassandra06FixturesTest {
    private static final Path FIXTURES = Path.of("src/test/resources/c06");
    /** A replayed commit log entry: {@code @from-to Keyspace key=hex | CF id N replay ...[| CF ...]}. */
    private static final Pattern ENTRY = Pattern.compile("^  @\\d+-\\d+ (\\S+) key=([0-9a-f]*) (.*)$");
    private static final Pattern ENTRY_CF = Pattern.compile("\\| (\\S+) id \\d+ replay");
    private static final Pattern QUERY = Pattern.compile("Q (\\S+) (\\S+) key=([0-9a-f]*) super=(\\S+) start=([0-9a-f]*)"
            + " finish=([0-9a-f]*) reversed=(true|false) count=(\\d+)");
    private static final HexFormat HEX = HexFormat.of();

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"random-killed", "opp-drained", "copp-stopped"})
    void everyRowAndSliceOfTheSSTablesIsAnsweredAs06AnsweredIt(String fixture) throws Exception {
        Path source = FIXTURES.resolve(fixture);
        copy(source.resolve("data"), dir.resolve("data"));
        Files.createDirectories(dir.resolve("commitlog"));
        StorageConf conf = StorageConfLoader.load(rewritten(source.resolve("storage-conf.xml")));
        Set<String> inCommitLog = replayedRows(source.resolve("expected/commitlog.txt"));
        String expected = expected(source.resolve("expected"), inCommitLog);
        assertTrue(expected.lines().count() > 100, "the fixture holds rows outside its commit log: " + fixture);

        String answered;
        try (LocalStorageService db = open(conf)) {
            int legacy = 0;
            for (Keyspace ks : db.openKeyspaces()) {
                for (ColumnFamilyStore store : ks.stores()) {
                    for (SSTableReader r : store.liveSSTables()) legacy += r.format() == SSTableFormat.CASSANDRA_06 ? 1 : 0;
                }
            }
            assertEquals(db.sstablesAtStartUp(), legacy, "every SSTable is 0.6's, read in place");
            answered = answers(db, source.resolve("expected"), inCommitLog);
            assertEquals(expected, answered, fixture);
            for (Keyspace ks : db.openKeyspaces()) db.forceMajorCompaction(ks.name());
            for (Keyspace ks : db.openKeyspaces()) {
                for (ColumnFamilyStore store : ks.stores()) {
                    for (SSTableReader r : store.liveSSTables()) assertEquals(SSTableFormat.SIBYL, r.format(), r.toString());
                }
            }
            assertEquals(expected, answers(db, source.resolve("expected"), inCommitLog), fixture + ", compacted");
        }
        try (LocalStorageService db = open(conf)) {
            assertEquals(expected, answers(db, source.resolve("expected"), inCommitLog), fixture + ", restarted");
        }
        assertEquals(markedBy06(source.resolve("data")), markedBy06(dir.resolve("data")),
                "0.6's own -Compacted marks and their SSTables are left as they are");
    }

    /** The files of SSTables 0.6 marked compacted, with their marks. */
    private static List<String> markedBy06(Path data) throws IOException {
        try (Stream<Path> files = Files.walk(data)) {
            List<Path> all = files.filter(Files::isRegularFile).toList();
            List<String> prefixes = all.stream().map(p -> data.relativize(p).toString()).filter(n -> n.endsWith("-Compacted"))
                    .map(n -> n.substring(0, n.length() - "Compacted".length())).toList();
            return all.stream().map(p -> data.relativize(p).toString())
                    .filter(n -> prefixes.stream().anyMatch(n::startsWith)).sorted().toList();
        }
    }

    private LocalStorageService open(StorageConf conf) throws Exception {
        return LocalStorageService.open(Partitioners.forName(conf.partitioner()), ConfiguredSchema.keyspaces(conf),
                new CommitLogOpener(CommitLogSettings.from(conf)), EngineSettings.from(conf));
    }

    /** The node's storage-conf.xml with its directories moved here, as an operator moving them would edit it. */
    private Path rewritten(Path original) throws IOException {
        String xml = Files.readString(original, StandardCharsets.UTF_8)
                .replaceAll("<CommitLogDirectory>[^<]*</CommitLogDirectory>",
                        "<CommitLogDirectory>" + dir.resolve("commitlog") + "</CommitLogDirectory>")
                .replaceAll("<DataFileDirectory>[^<]*</DataFileDirectory>",
                        "<DataFileDirectory>" + dir.resolve("data") + "</DataFileDirectory>")
                .replaceAll("<SavedCachesDirectory>[^<]*</SavedCachesDirectory>",
                        "<SavedCachesDirectory>" + dir.resolve("saved_caches") + "</SavedCachesDirectory>");
        Path conf = Files.createDirectories(dir.resolve("conf")).resolve("storage-conf.xml");
        Files.writeString(conf, xml, StandardCharsets.UTF_8);
        return conf;
    }

    private static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> all = Files.walk(from)) {
            for (Path p : all.toList()) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) Files.createDirectories(target);
                else Files.copy(p, target);
            }
        }
    }

    /** "Keyspace CF keyhex" of every row a commit log entry that 0.6 would replay touches. */
    private static Set<String> replayedRows(Path commitLog) throws IOException {
        Set<String> rows = new HashSet<>();
        for (String line : Files.readAllLines(commitLog, StandardCharsets.UTF_8)) {
            Matcher m = ENTRY.matcher(line);
            if (!m.matches()) continue;
            Matcher cf = ENTRY_CF.matcher(m.group(3));
            while (cf.find()) rows.add(m.group(1) + " " + cf.group(1) + " " + m.group(2));
        }
        return rows;
    }

    /** The expected files, rows the commit log touches left out, in one text. */
    private static String expected(Path expected, Set<String> inCommitLog) throws IOException {
        StringBuilder s = new StringBuilder();
        for (Path file : rangeFiles(expected)) {
            String[] ksCf = ksCf(file);
            s.append("== ").append(file.getFileName()).append('\n');
            boolean skipping = false;
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                if (line.startsWith("R ")) skipping = inCommitLog.contains(ksCf[0] + " " + ksCf[1] + " " + line.substring(2));
                if (!skipping) s.append(line).append('\n');
            }
        }
        List<String> slices = Files.readAllLines(expected.resolve("slices.txt"), StandardCharsets.UTF_8);
        boolean skipping = false;
        for (String line : slices) {
            Matcher q = QUERY.matcher(line);
            if (q.matches()) skipping = inCommitLog.contains(q.group(1) + " " + q.group(2) + " " + q.group(3));
            if (!skipping) s.append(line).append('\n');
        }
        return s.toString();
    }

    /** What the node answers to the same range reads and slices, in the expected files' format. */
    private static String answers(LocalStorageService db, Path expected, Set<String> inCommitLog) throws IOException {
        StringBuilder s = new StringBuilder();
        for (Path file : rangeFiles(expected)) {
            String[] ksCf = ksCf(file);
            s.append("== ").append(file.getFileName()).append('\n');
            List<RowSlice> rows = db.getRangeSlice(ksCf[0], QueryPath.cf(ksCf[1]), ColumnSelection.all(),
                    new RowRange.Keys("", ""), 10_000);
            for (RowSlice row : rows) {
                String key = HEX.formatHex(row.key().getBytes(StandardCharsets.UTF_8));
                if (inCommitLog.contains(ksCf[0] + " " + ksCf[1] + " " + key)) continue;
                s.append("R ").append(key).append('\n');
                for (Cell c : row.cells()) render(c, "", s);
            }
        }
        for (String line : Files.readAllLines(expected.resolve("slices.txt"), StandardCharsets.UTF_8)) {
            Matcher q = QUERY.matcher(line);
            if (!q.matches() || inCommitLog.contains(q.group(1) + " " + q.group(2) + " " + q.group(3))) continue;
            s.append(line).append('\n');
            String key = new String(HEX.parseHex(q.group(3)), StandardCharsets.UTF_8);
            QueryPath path = q.group(4).equals("-") ? QueryPath.cf(q.group(2))
                    : QueryPath.superColumn(q.group(2), HEX.parseHex(q.group(4)));
            ColumnSelection range = ColumnSelection.range(HEX.parseHex(q.group(5)), HEX.parseHex(q.group(6)),
                    Boolean.parseBoolean(q.group(7)), Integer.parseInt(q.group(8)));
            for (Cell c : db.getSlice(q.group(1), key, path, range)) render(c, "", s);
        }
        return s.toString();
    }

    private static void render(Cell c, String indent, StringBuilder s) {
        if (c instanceof Column col) {
            s.append(indent).append("C ").append(HEX.formatHex(col.name())).append(' ').append(HEX.formatHex(col.value()))
                    .append(' ').append(col.timestamp()).append('\n');
            return;
        }
        SuperColumn sc = (SuperColumn) c;
        s.append(indent).append("S ").append(HEX.formatHex(sc.name())).append('\n');
        for (Column sub : sc.subcolumns()) render(sub, indent + "  ", s);
    }

    private static List<Path> rangeFiles(Path expected) throws IOException {
        List<Path> files = new ArrayList<>();
        try (Stream<Path> all = Files.list(expected)) {
            for (Path p : all.toList()) {
                String name = p.getFileName().toString();
                if (name.endsWith(".txt") && name.split("\\.").length == 3) files.add(p);
            }
        }
        files.sort(null);
        return files;
    }

    private static String[] ksCf(Path file) {
        String[] parts = file.getFileName().toString().split("\\.");
        return new String[] {parts[0], parts[1]};
    }
}
