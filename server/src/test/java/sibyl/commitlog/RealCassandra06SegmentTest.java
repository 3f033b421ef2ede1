package sibyl.commitlog;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sibyl.db.CFMetaData;
import sibyl.db.KSMetaData;
import sibyl.db.ResolvedMutation;
import sibyl.db.SystemKeyspace;
import sibyl.db.marshal.AsciiType;
import sibyl.db.marshal.LexicalUUIDType;
import sibyl.db.marshal.LongType;
import sibyl.db.marshal.UTF8Type;
import sibyl.testing.LogCapture;

/**
 * A segment a real Cassandra 0.6.5 wrote on Java 17 and left by kill -9 (made by
 * {@code resources/sibyl/commitlog/c06-java17/make.sh}): writes to six Twitter column families,
 * a flush of Twitter, then writes to three of them again, and writes and deletions in Keyspace1.
 */
class RealCassandra06SegmentTest {
    private static final String SEGMENT = "CommitLog-1796628932119.log";

    @TempDir
    Path dir;

    /** The node's storage-conf.xml: the sample Keyspace1, then Twitter, Blog and Zeta. */
    private static List<KSMetaData> keyspaces() {
        List<CFMetaData> twitter = new ArrayList<>();
        for (String cf : List.of("Users", "Tweets", "Timeline", "Followers", "Following", "Lists", "Hashtags",
                "Mentions", "Favorites", "Retweets", "Blocks", "Mutes", "Sessions", "Devices")) {
            twitter.add(CFMetaData.standard("Twitter", cf, UTF8Type.instance));
        }
        return List.of(C06Fixture.KEYSPACE1,
                new KSMetaData("Twitter", 1, twitter),
                new KSMetaData("Blog", 1, List.of(CFMetaData.standard("Blog", "Posts", LongType.instance),
                        CFMetaData.ofSuper("Blog", "Comments", LongType.instance, AsciiType.instance))),
                new KSMetaData("Zeta", 1, List.of(CFMetaData.standard("Zeta", "Events", LexicalUUIDType.instance))),
                SystemKeyspace.metadata());
    }

    @Test
    void replaysWhatTheNodeHadNotFlushedAndNothingElse() throws IOException {
        Path segment = dir.resolve(SEGMENT);
        try (InputStream in = getClass().getResourceAsStream("c06-java17/" + SEGMENT)) {
            Files.copy(in, segment);
        }
        byte[] bytes = Files.readAllBytes(segment);
        LegacySegmentHeader header = CommitLogDirectoryScan.scan(dir).legacySegments().get(0).header();
        assertEquals(24, header.columnFamilyCount());

        List<String> deltas = new ArrayList<>();
        try (LogCapture logs = new LogCapture(LegacyReplayer.class);
             CommitLog log = CommitLog.open(dir, C06Fixture.PERIODIC, 1 << 20)) {
            ReplaySummary summary = log.recover(keyspaces(), FlushedPositions.NONE, m -> deltas.addAll(describe(m)));
            assertTrue(logs.messages(Level.INFO).stream().anyMatch(l -> l.contains("in the order of Java 8 or later")),
                    logs.messages(Level.INFO).toString());
            assertTrue(logs.messages(Level.INFO).stream().anyMatch(l -> l.contains("passed over 6 column family deltas")),
                    logs.messages(Level.INFO).toString());
            assertEquals(List.of(), logs.messages(Level.WARN));
            assertEquals(8, summary.legacyEntries());
        }
        assertEquals(List.of(
                "system/Bootstrap/LocationInfo: ColumnFamily(LocationInfo, Column(42, 01, ts=1796628932269))",
                "Keyspace1/k/Standard2: ColumnFamily(Standard2, Column(78, 79, ts=1796628932875000))",
                "Keyspace1/k/Super2: ColumnFamily(Super2, SuperColumn(73, Column(78, 79, ts=1796628932877000)))",
                "Twitter/b/Users: ColumnFamily(Users, Column(63, 772d5573657273, ts=1796628939221000))",
                "Twitter/b/Mutes: ColumnFamily(Mutes, Column(63, 772d4d75746573, ts=1796628939234000))",
                "Twitter/b/Hashtags: ColumnFamily(Hashtags, Column(63, 772d4861736874616773, ts=1796628939248000))",
                "Keyspace1/k/Standard2: ColumnFamily(Standard2, deleted at 1796628939282000)",
                "Keyspace1/k/Super2: ColumnFamily(Super2, SuperColumn(73, deleted at 1796628939301000))"), deltas);
        assertArrayEquals(bytes, Files.readAllBytes(segment));
    }

    private static List<String> describe(ResolvedMutation m) {
        return m.columnFamilies().stream()
                .map(cf -> m.keyspace() + "/" + m.key() + "/" + cf.metadata().name() + ": " + cf).toList();
    }
}
