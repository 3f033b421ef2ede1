package sibyl.engine;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.UnaryOperator;
import sibyl.CommitLogOpener;
import sibyl.commitlog.CommitLogSettings;
import sibyl.commitlog.SyncMode;
import sibyl.db.CFMetaData;
import sibyl.db.Cell;
import sibyl.db.Column;
import sibyl.db.ColumnSelection;
import sibyl.db.KSMetaData;
import sibyl.db.QueryPath;
import sibyl.db.RowMutation;
import sibyl.db.RowRange;
import sibyl.db.RowSlice;
import sibyl.db.SuperColumn;
import sibyl.db.marshal.BytesType;
import sibyl.dht.Partitioner;
import sibyl.dht.RandomPartitioner;
import sibyl.io.SizeTieredBuckets;
import sibyl.testing.TestConf;

/** A durable store in a temporary directory with small memtables, and ways to look at all it holds. */
final class EngineFixture {
    static final String KS = "Keyspace1";
    static final String STD = "Standard1";
    static final String SUPER = "Super1";
    static final KSMetaData SCHEMA = new KSMetaData(KS, 1, List.of(
            CFMetaData.standard(KS, STD, BytesType.instance),
            CFMetaData.ofSuper(KS, SUPER, BytesType.instance, BytesType.instance)));
    static final SyncMode PERIODIC = new SyncMode.Periodic(Duration.ofMillis(200));
    private static final byte[] E = {};

    private EngineFixture() {
    }

    /** A durable store's two settings: its commit log's and its engine's. */
    record Settings(CommitLogOpener log, EngineSettings engine) {
        Settings withEngine(UnaryOperator<EngineSettings> change) {
            return new Settings(log, change.apply(engine));
        }
    }

    /**
     * The configuration's defaults but for a small commit log segment, no saved caches and these:
     *
     * @param memtableBytes MemtableThroughput in bytes
     * @param columnIndexSize bytes per column index block (small, so rows span several blocks)
     */
    static Settings options(Path dir, long memtableBytes, int gcGraceSeconds, int columnIndexSize) {
        EngineSettings engine = EngineSettings.from(TestConf.builder(dir).build()).toBuilder()
                .columnIndexSize(columnIndexSize)
                .memtableLimits(new MemtableLimits(memtableBytes, 10_000_000, Duration.ofMinutes(60)))
                .gcGraceSeconds(gcGraceSeconds).savedCachesDirectory(null).build();
        return new Settings(new CommitLogOpener(new CommitLogSettings(dir.resolve("commitlog"), PERIODIC, 256 << 10)),
                engine);
    }

    /** {@code e} with no background compaction: the SSTables stay as flushed, and nothing else reads them. */
    static EngineSettings withoutCompaction(EngineSettings e) {
        return e.toBuilder().buckets(new SizeTieredBuckets(32, 32, 0.5, 1.5, 0)).build();
    }

    /** {@link #SCHEMA} with each column family passed through {@code change} (to give it caches, say). */
    static List<KSMetaData> schema(UnaryOperator<CFMetaData> change) {
        List<CFMetaData> cfs = new ArrayList<>();
        for (CFMetaData cf : SCHEMA.columnFamilies()) cfs.add(change.apply(cf));
        return List.of(new KSMetaData(KS, SCHEMA.replicationFactor(), cfs));
    }

    static LocalStorageService open(Settings settings) throws Exception {
        return open(settings, new RandomPartitioner());
    }

    static LocalStorageService open(Settings settings, Partitioner partitioner) throws Exception {
        return LocalStorageService.open(partitioner, List.of(SCHEMA), settings.log(), settings.engine());
    }

    static LocalStorageService open(Settings settings, Clock clock) throws Exception {
        return open(settings.withEngine(e -> e.toBuilder().clock(clock).build()));
    }

    /** The store of column family {@code cf} of {@link #KS}. */
    static ColumnFamilyStore store(LocalStorageService db, String cf) {
        for (Keyspace ks : db.openKeyspaces()) if (ks.name().equals(KS)) return ks.store(cf);
        throw new AssertionError("no keyspace " + KS);
    }

    static RowMutation randomMutation(Random random, int keys) {
        String key = "k" + random.nextInt(keys);
        // Tombstones made now: within GCGraceSeconds, so compactions keep them and reads see
        // the same ghost rows before and after (older ones would rightly be purged).
        RowMutation.Builder m = RowMutation.builder(KS, key).localDeletionTime((int) (System.currentTimeMillis() / 1000));
        long ts = random.nextInt(1000);
        int changes = 1 + random.nextInt(4);
        for (int i = 0; i < changes; i++) {
            byte[] col = b("c" + random.nextInt(40));
            byte[] sc = b("s" + random.nextInt(4));
            switch (random.nextInt(12)) {
                case 0, 1, 2, 3 -> m.write(STD, col, b("v" + random.nextInt(100)), ts);
                case 4, 5 -> m.write(SUPER, sc, col, b("v" + random.nextInt(100)), ts);
                case 6 -> m.deleteColumn(STD, col, ts);
                case 7 -> m.deleteSubcolumn(SUPER, sc, col, ts);
                case 8 -> m.deleteSuperColumn(SUPER, sc, ts);
                case 9 -> m.deleteSlice(random.nextBoolean() ? STD : SUPER, null,
                        ColumnSelection.range(E, E, random.nextBoolean(), 1 + random.nextInt(4)), ts);
                case 10 -> m.write(STD, col, b("v" + random.nextInt(100)), ts);
                default -> m.deleteRow(random.nextBoolean() ? STD : SUPER, ts / 4);
            }
        }
        return m.build();
    }

    /** Every row of both column families by range scan, then each again by point reads and slices. */
    static String snapshot(LocalStorageService db) {
        StringBuilder s = new StringBuilder();
        List<String> keys = new ArrayList<>();
        for (String cf : List.of(STD, SUPER)) {
            List<RowSlice> rows = db.getRangeSlice(KS, QueryPath.cf(cf), ColumnSelection.all(),
                    new RowRange.Keys("", ""), 100_000);
            for (RowSlice row : rows) {
                s.append(cf).append('/').append(row.key()).append(": ");
                for (Cell c : row.cells()) s.append(describe(c)).append(' ');
                s.append('\n');
                if (cf.equals(STD)) keys.add(row.key());
            }
        }
        s.append("-- point reads\n");
        for (String key : keys) {
            s.append(key).append(": ");
            for (Cell c : db.getSlice(KS, key, QueryPath.cf(STD), ColumnSelection.all())) s.append(describe(c)).append(' ');
            s.append("| first3 ");
            for (Cell c : db.getSlice(KS, key, QueryPath.cf(STD), ColumnSelection.range(E, E, false, 3))) {
                s.append(describe(c)).append(' ');
            }
            s.append("| last2 ");
            for (Cell c : db.getSlice(KS, key, QueryPath.cf(STD), ColumnSelection.range(E, E, true, 2))) {
                s.append(describe(c)).append(' ');
            }
            s.append("| c7 ").append(db.get(KS, key, QueryPath.column(STD, b("c7"))).map(EngineFixture::describe).orElse("-"));
            s.append('\n');
        }
        return s.toString();
    }

    static String describe(Cell c) {
        if (c instanceof Column col) {
            return new String(col.name(), StandardCharsets.UTF_8) + "=" + new String(col.value(), StandardCharsets.UTF_8)
                    + "@" + col.timestamp();
        }
        SuperColumn sc = (SuperColumn) c;
        List<String> subs = new ArrayList<>();
        for (Column sub : sc.subcolumns()) subs.add(describe(sub));
        return new String(sc.name(), StandardCharsets.UTF_8) + subs;
    }

    static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
