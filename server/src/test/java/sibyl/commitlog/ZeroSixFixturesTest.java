package sibyl.commitlog;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import sibyl.config.StorageConfLoader;
import sibyl.db.Cell;
import sibyl.db.Column;
import sibyl.db.ColumnFamily;
import sibyl.db.KSMetaData;
import sibyl.db.ResolvedMutation;
import sibyl.db.SuperColumn;
import sibyl.service.ConfiguredSchema;
import sibyl.testing.LogCapture;

/**
 * The commit logs of real Cassandra 0.6.5 nodes (src/test/resources/c06, see its README): Sibyl
 * replays exactly the deltas 0.6.5's own deserializer and header rules replay, as
 * {@code expected/commitlog.txt} lists them, in order, through the configuration's own schema;
 * and leaves the segments as they were.
 */
class ZeroSixFixturesTest {
    private static final Path FIXTURES = Paths.get("src/test/resources/c06");
    /** "@start-end Keyspace key=hex | CF id N replay ..." with what the delta holds. */
    private static final Pattern REPLAYED = Pattern.compile(
            "  @(\\d+)-\\d+ (\\S+) key=([0-9a-f]*) \\| (\\S+) id \\d+ replay(.*)");
    private static final Pattern REPLAY_STARTS = Pattern.compile("  replay starts at (\\d+)");

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"random-killed", "copp-stopped"})
    void replaysExactlyWhatZeroSixReplays(String fixture) throws Exception {
        Path commitlog = dir.resolve("commitlog");
        Files.createDirectory(commitlog);
        List<Path> segments;
        try (Stream<Path> files = Files.list(FIXTURES.resolve(fixture).resolve("commitlog"))) {
            segments = files.sorted().toList();
        }
        for (Path s : segments) Files.copy(s, commitlog.resolve(s.getFileName()));
        List<KSMetaData> keyspaces = ConfiguredSchema.keyspaces(
                StorageConfLoader.load(FIXTURES.resolve(fixture).resolve("storage-conf.xml")));

        List<String> replayed = new ArrayList<>();
        try (LogCapture logs = new LogCapture(LegacyReplayer.class);
             CommitLog log = CommitLog.open(commitlog, C06Fixture.PERIODIC, 1 << 20)) {
            ReplaySummary summary = log.recover(keyspaces, FlushedPositions.NONE, m -> replayed.addAll(describe(m)));
            assertEquals(segments.size(), summary.legacySegments());
            assertTrue(logs.messages(Level.INFO).stream().anyMatch(l -> l.contains("in the order of Java 8 or later")),
                    logs.messages(Level.INFO).toString());
            assertEquals(List.of(), logs.messages(Level.WARN));
        }
        assertEquals(expected(fixture), replayed);
        for (Path s : segments) assertArrayEquals(Files.readAllBytes(s), Files.readAllBytes(commitlog.resolve(s.getFileName())));
    }

    /**
     * 0.6 on Java 17 numbered random-killed's column families as {@code expected/cfids.txt} shows;
     * on Java 6 it would have numbered them as the fixtures' README works out with a simulation of
     * Java 6's HashMap of its own (written apart from {@link JavaHashMapOrder}).
     */
    @org.junit.jupiter.api.Test
    void columnFamilyNumbersAreThoseOfTheRealNodeAndOfJavaSix() throws Exception {
        List<KSMetaData> keyspaces = ConfiguredSchema.keyspaces(
                StorageConfLoader.load(FIXTURES.resolve("random-killed/storage-conf.xml")));
        List<String> java17 = new ArrayList<>();
        for (String line : Files.readAllLines(FIXTURES.resolve("random-killed/expected/cfids.txt"))) {
            java17.add(line.substring(line.indexOf(' ') + 1));
        }
        assertEquals(java17, names(LegacyColumnFamilyIds.number(keyspaces, JavaHashMapOrder.JAVA_8)));
        assertEquals(List.of("Keyspace2.Standard1", "Keyspace2.StdUTF8", "Keyspace2.SuperTimeUUID", "Keyspace1.SuperLong",
                "Keyspace1.StdTimeUUID", "Keyspace1.Super1", "Keyspace1.Standard1", "Keyspace1.StdLong",
                "Keyspace1.StdLexicalUUID", "Keyspace1.StdUTF8", "Keyspace1.StdAscii", "system.LocationInfo",
                "system.HintsColumnFamily"), names(LegacyColumnFamilyIds.number(keyspaces, JavaHashMapOrder.JAVA_6)));
    }

    private static List<String> names(List<ColumnFamilyId> byId) {
        return byId.stream().map(ColumnFamilyId::toString).toList();
    }

    /**
     * The deltas {@code expected/commitlog.txt} shows replayed, less two kinds:
     * <ul>
     * <li>those of entries that begin before their segment's "replay starts at": the listing judges each
     *     entry by the header alone, but 0.6's replay seeks to that position first and never reads them
     *     (each such entry ends exactly at a flush position, so its data is in an SSTable);</li>
     * <li>those of only super columns that hold nothing, which 0.6's read repair writes and Sibyl leaves out.</li>
     * </ul>
     */
    private static List<String> expected(String fixture) throws IOException {
        List<String> deltas = new ArrayList<>();
        long replayStart = 0;
        for (String line : Files.readAllLines(FIXTURES.resolve(fixture).resolve("expected/commitlog.txt"))) {
            Matcher starts = REPLAY_STARTS.matcher(line);
            if (starts.matches()) replayStart = Long.parseLong(starts.group(1));
            Matcher m = REPLAYED.matcher(line);
            if (!m.matches() || Long.parseLong(m.group(1)) < replayStart) continue;
            String holds = m.group(5).trim();
            if (holds.matches("supers=\\d+")) continue;
            deltas.add(m.group(2) + " " + m.group(3) + " " + m.group(4) + " " + holds);
        }
        return deltas;
    }

    /** A replayed mutation's deltas in expected/commitlog.txt's words. */
    private static List<String> describe(ResolvedMutation m) {
        List<String> lines = new ArrayList<>();
        String key = HexFormat.of().formatHex(m.key().getBytes(java.nio.charset.StandardCharsets.UTF_8));
        for (ColumnFamily cf : m.columnFamilies()) {
            int supers = 0;
            int deletedSupers = 0;
            int columns = 0;
            int tombstones = 0;
            for (Cell cell : cf.cells()) {
                if (cell instanceof SuperColumn sc) {
                    supers++;
                    if (sc.deletion().isMarkedForDelete()) deletedSupers++;
                    for (Column c : sc.subcolumns()) {
                        if (c.isTombstone()) tombstones++;
                        else columns++;
                    }
                } else if (((Column) cell).isTombstone()) {
                    tombstones++;
                } else {
                    columns++;
                }
            }
            StringBuilder s = new StringBuilder(m.keyspace() + " " + key + " " + cf.metadata().name());
            if (cf.deletion().isMarkedForDelete()) s.append(" row-deleted@").append(cf.deletion().markedForDeleteAt());
            if (supers > 0) s.append(" supers=").append(supers).append(deletedSupers > 0 ? " (" + deletedSupers + " deleted)" : "");
            if (columns > 0) s.append(" columns=").append(columns);
            if (tombstones > 0) s.append(" tombstones=").append(tombstones);
            lines.add(s.toString());
        }
        return lines;
    }
}
