package sibyl.commitlog;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import sibyl.db.CFMetaData;
import sibyl.db.KSMetaData;
import sibyl.db.ResolvedMutation;
import sibyl.db.SystemKeyspace;
import sibyl.db.marshal.BytesType;
import sibyl.db.marshal.TimeUUIDType;
import sibyl.db.marshal.UTF8Type;

/**
 * The configuration of the 0.6 node in these tests (its sample Keyspace1, and a second keyspace), in
 * file order, with replay into a list and a record of a directory's files and bytes.
 */
final class C06Fixture {
    static final String KS = "Keyspace1";
    static final String KS2 = "Keyspace2";
    static final KSMetaData KEYSPACE1 = new KSMetaData(KS, 1, List.of(
            CFMetaData.standard(KS, "Standard1", BytesType.instance),
            CFMetaData.standard(KS, "Standard2", UTF8Type.instance),
            CFMetaData.standard(KS, "StandardByUUID1", TimeUUIDType.instance),
            CFMetaData.ofSuper(KS, "Super1", BytesType.instance, BytesType.instance),
            CFMetaData.ofSuper(KS, "Super2", UTF8Type.instance, UTF8Type.instance)));
    static final KSMetaData KEYSPACE2 = new KSMetaData(KS2, 1, List.of(
            CFMetaData.standard(KS2, "Events", BytesType.instance),
            CFMetaData.ofSuper(KS2, "Counts", BytesType.instance, BytesType.instance)));
    /** As the configuration lists them; {@code system} last, as Sibyl's schema gives it. */
    static final List<KSMetaData> KEYSPACES = List.of(KEYSPACE1, KEYSPACE2, SystemKeyspace.metadata());
    static final SyncMode PERIODIC = new SyncMode.Periodic(Duration.ofSeconds(10));

    /** A replay's mutations and summary. */
    record Replay(List<ResolvedMutation> mutations, ReplaySummary summary) {
        /** Each mutation as "keyspace/key/columnfamily" per delta, in replay order. */
        List<String> deltas() {
            List<String> deltas = new ArrayList<>();
            for (ResolvedMutation m : mutations) {
                m.columnFamilies().forEach(cf -> deltas.add(m.keyspace() + "/" + m.key() + "/" + cf.metadata().name()));
            }
            return deltas;
        }
    }

    private C06Fixture() {
    }

    /** 0.6's column family numbers on a JVM of this hash map order. */
    static List<ColumnFamilyId> numbering(JavaHashMapOrder order) {
        return LegacyColumnFamilyIds.number(KEYSPACES, order);
    }

    static C06LogWriter writer(JavaHashMapOrder order) {
        return new C06LogWriter(numbering(order), 1_000);
    }

    /** Opens a log on {@code dir}, replays it with the fixture's configuration, confirms if asked, closes it. */
    static Replay replay(Path dir, boolean confirm) throws IOException {
        List<ResolvedMutation> replayed = new ArrayList<>();
        try (CommitLog log = CommitLog.open(dir, PERIODIC, 1 << 20)) {
            ReplaySummary summary = log.recover(KEYSPACES, FlushedPositions.NONE, replayed::add);
            if (confirm) log.confirmLegacyReplay();
            return new Replay(replayed, summary);
        }
    }

    static Replay replay(Path dir) throws IOException {
        return replay(dir, false);
    }

    /** Every file in {@code dir} (not below) by name, with its bytes: to show nothing was changed. */
    static Map<String, String> contents(Path dir) {
        Map<String, String> files = new TreeMap<>();
        try (Stream<Path> listing = Files.list(dir)) {
            for (Path f : listing.toList()) {
                files.put(f.getFileName().toString(), Files.isDirectory(f) ? "<dir>"
                        : java.util.HexFormat.of().formatHex(Files.readAllBytes(f)));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return files;
    }
}
