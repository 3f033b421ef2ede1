package sibyl.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sibyl.db.CacheCapacity;
import sibyl.db.CacheConfig;
import sibyl.db.Cell;
import sibyl.db.Column;
import sibyl.db.ColumnSelection;
import sibyl.db.KSMetaData;
import sibyl.db.QueryPath;
import sibyl.db.RowMutation;
import sibyl.db.SliceReader;
import sibyl.dht.DecoratedKey;
import sibyl.dht.RandomPartitioner;
import sibyl.io.SSTableReader;

/**
 * Reads of named columns of a standard row stop at the first SSTable too old to hold a newer
 * version of every name (docs/semantics.md §Tombstones for which version wins), and answer
 * exactly what merging every source answers; a full row cache leaves a row read once to them.
 */
class NamedReadTest {
    private static final String KS = EngineFixture.KS;
    private static final String STD = EngineFixture.STD;

    @TempDir
    Path dir;

    private final RandomPartitioner partitioner = new RandomPartitioner();
    private LocalStorageService db;

    @BeforeEach
    void open() throws Exception {
        db = open(dir, List.of(EngineFixture.SCHEMA));
    }

    private LocalStorageService open(Path dir, List<KSMetaData> schema) throws Exception {
        EngineFixture.Settings options = EngineFixture.options(dir, 1L << 30, 864_000, 4096);
        return LocalStorageService.open(partitioner, schema, options.log(),
                EngineFixture.withoutCompaction(options.engine()));
    }

    @AfterEach
    void close() {
        db.close();
    }

    @Test
    void aColumnRewrittenSinceTheLastFlushIsReadFromTheMemtableAlone() throws Exception {
        for (int ts = 10; ts <= 40; ts += 10) {
            db.apply(RowMutation.builder(KS, "k").write(STD, b("c"), b("v" + ts), ts).write(STD, b("other"), b("o"), ts)
                    .build());
            db.forceFlush(KS, STD);
        }
        assertEquals(4, store().liveSSTables().size());

        long[] before = bytesRead();
        assertEquals("v40", value(db.get(KS, "k", QueryPath.column(STD, b("c")))));
        assertEquals(List.of(true, false, false, false), readSince(before), "only the newest SSTable is read");

        db.apply(RowMutation.builder(KS, "k").write(STD, b("c"), b("v50"), 50).build());
        before = bytesRead();
        assertEquals("v50", value(db.get(KS, "k", QueryPath.column(STD, b("c")))));
        assertEquals(List.of(false, false, false, false), readSince(before), "no SSTable is read");

        // A name the memtable does not hold: the SSTables are read down to the newest version of it.
        before = bytesRead();
        assertEquals(List.of("c", "other"), names(db.getSlice(KS, "k", QueryPath.cf(STD),
                ColumnSelection.names(b("c"), b("other")))));
        assertEquals(List.of(true, false, false, false), readSince(before));

        // A name no source holds: every SSTable the bloom filter lets through is read.
        before = bytesRead();
        assertEquals(Optional.empty(), db.get(KS, "k", QueryPath.column(STD, b("absent"))));
        assertEquals(List.of(true, true, true, true), readSince(before));
    }

    @Test
    void aFullRowCacheLetsARowReadOnceBeReadByItsNames() throws Exception {
        db.close();
        CacheConfig caches = CacheConfig.sized(CacheCapacity.entries(0), CacheCapacity.entries(2));
        db = open(dir.resolve("cached"), EngineFixture.schema(cf -> cf.withCaches(caches)));
        for (int ts = 10; ts <= 30; ts += 10) {
            for (String key : List.of("a", "b", "k")) {
                db.apply(RowMutation.builder(KS, key).write(STD, b("c"), b("v" + ts), ts).build());
            }
            db.forceFlush(KS, STD);
        }
        for (String key : List.of("a", "b")) value(db.get(KS, key, QueryPath.column(STD, b("c"))));
        assertEquals(2, store().rowCache().size(), "rows read while the cache had room are cached");

        long[] before = bytesRead();
        assertEquals("v30", value(db.get(KS, "k", QueryPath.column(STD, b("c")))));
        assertEquals(List.of(true, false, false), readSince(before), "the first miss reads the column, not the row");
        assertEquals(List.of("a", "b"), keys(store().rowCache().keys()));

        before = bytesRead();
        assertEquals("v30", value(db.get(KS, "k", QueryPath.column(STD, b("c")))));
        assertEquals(List.of(true, true, true), readSince(before), "the second miss reads the whole row to cache it");
        assertEquals(List.of("b", "k"), keys(store().rowCache().keys()));
    }

    @Test
    void anOlderTimestampWrittenLaterDoesNotHideANewerVersionInAnSSTable() throws Exception {
        db.apply(RowMutation.builder(KS, "k").write(STD, b("c"), b("new"), 100).build());
        db.forceFlush(KS, STD);
        db.apply(RowMutation.builder(KS, "k").write(STD, b("c"), b("old"), 50).build());
        assertEquals("new", value(db.get(KS, "k", QueryPath.column(STD, b("c")))));
        db.forceFlush(KS, STD);
        assertEquals("new", value(db.get(KS, "k", QueryPath.column(STD, b("c")))));
    }

    @Test
    void equalTimestampsInTwoSSTablesAreReconciledByValue() throws Exception {
        // Row "up" has the larger value in the newer SSTable, "down" in the older one: whichever of two
        // SSTables with the same newest timestamp is read first, an equal timestamp must not end the read.
        db.apply(RowMutation.builder(KS, "up").write(STD, b("c"), b("aaa"), 7).build());
        db.apply(RowMutation.builder(KS, "down").write(STD, b("c"), b("zzz"), 7).build());
        db.forceFlush(KS, STD);
        db.apply(RowMutation.builder(KS, "up").write(STD, b("c"), b("zzz"), 7).build());
        db.apply(RowMutation.builder(KS, "down").write(STD, b("c"), b("aaa"), 7).build());
        db.forceFlush(KS, STD);
        for (String key : List.of("up", "down")) {
            db.apply(RowMutation.builder(KS, key).write(STD, b("d"), b("x"), 7).build());
            assertEquals("zzz", value(db.get(KS, key, QueryPath.column(STD, b("c")))), key);
            // A column tombstone of the same timestamp beats both live versions.
            db.apply(RowMutation.builder(KS, key).localDeletionTime(now()).deleteColumn(STD, b("c"), 7).build());
            assertEquals(Optional.empty(), db.get(KS, key, QueryPath.column(STD, b("c"))), key);
        }
    }

    @Test
    void aRowTombstoneNewerThanAnSSTableHidesItAndAnOlderOneDoesNot() throws Exception {
        db.apply(RowMutation.builder(KS, "k").write(STD, b("c"), b("v"), 10).write(STD, b("d"), b("v"), 30).build());
        db.forceFlush(KS, STD);
        db.apply(RowMutation.builder(KS, "k").localDeletionTime(now()).deleteRow(STD, 20).build());
        assertEquals(Optional.empty(), db.get(KS, "k", QueryPath.column(STD, b("c"))));
        assertEquals("v", value(db.get(KS, "k", QueryPath.column(STD, b("d")))));
        db.forceFlush(KS, STD);
        assertEquals(List.of("d"), names(db.getSlice(KS, "k", QueryPath.cf(STD),
                ColumnSelection.names(b("c"), b("d"), b("e")))));
    }

    @Test
    void namedReadsEqualTheWholeMerge() throws Exception {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        List<String> keys = List.of("a", "b", "c");
        for (int flush = 0; flush < 6; flush++) {
            for (int i = 0; i < 60; i++) {
                RowMutation.Builder m = RowMutation.builder(KS, keys.get(random.nextInt(keys.size())))
                        .localDeletionTime(now());
                // Timestamps rise with the flushes but overlap, and repeat, so ties and late old writes occur.
                long ts = flush * 5L + random.nextInt(12);
                byte[] name = name(random.nextInt(15));
                switch (random.nextInt(10)) {
                    case 0 -> m.deleteColumn(STD, name, ts);
                    case 1 -> m.deleteRow(STD, ts - 3);
                    default -> m.write(STD, name, b("v" + random.nextInt(4)), ts);
                }
                db.apply(m.build());
            }
            if (flush < 5) db.forceFlush(KS, STD);
        }
        for (int i = 0; i < 400; i++) {
            String key = random.nextInt(10) == 0 ? "absent" : keys.get(random.nextInt(keys.size()));
            List<byte[]> wanted = new ArrayList<>();
            for (int n = random.nextInt(4); n >= 0; n--) wanted.add(name(random.nextInt(17)));
            ColumnSelection.Names selection = ColumnSelection.names(wanted);
            String context = "seed " + seed + " key " + key + " " + selection;
            assertEquals(expected(key, selection), db.getSlice(KS, key, QueryPath.cf(STD), selection).toString(), context);
            Optional<Cell> one = db.get(KS, key, QueryPath.column(STD, wanted.get(0)));
            assertEquals(expected(key, ColumnSelection.names(wanted.get(0))),
                    one.map(c -> List.of(c).toString()).orElse("[]"), context);
        }
    }

    // ---- helpers

    private String expected(String key, ColumnSelection.Names names) {
        return SliceReader.read(store().getRow(partitioner.decorateKey(key)), null, names, 0).toString();
    }

    private ColumnFamilyStore store() {
        return EngineFixture.store(db, STD);
    }

    /** Bytes read so far from each live SSTable, newest (highest generation) first. */
    private long[] bytesRead() {
        List<SSTableReader> live = newestFirst();
        long[] read = new long[live.size()];
        for (int i = 0; i < read.length; i++) read[i] = live.get(i).dataBytesRead();
        return read;
    }

    private List<Boolean> readSince(long[] before) {
        long[] now = bytesRead();
        List<Boolean> read = new ArrayList<>();
        for (int i = 0; i < now.length; i++) read.add(now[i] > before[i]);
        return read;
    }

    private List<SSTableReader> newestFirst() {
        List<SSTableReader> live = new ArrayList<>(store().liveSSTables());
        live.sort((x, y) -> Integer.compare(y.descriptor().generation(), x.descriptor().generation()));
        return live;
    }

    private static List<String> keys(List<DecoratedKey> keys) {
        List<String> names = new ArrayList<>();
        for (DecoratedKey k : keys) names.add(k.key());
        return names;
    }

    private static String value(Optional<Cell> cell) {
        return new String(((Column) cell.orElseThrow()).value(), StandardCharsets.UTF_8);
    }

    private static List<String> names(List<Cell> cells) {
        List<String> names = new ArrayList<>();
        for (Cell c : cells) names.add(new String(c.name(), StandardCharsets.UTF_8));
        return names;
    }

    private static byte[] name(int i) {
        return String.format("c%02d", i).getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static int now() {
        return (int) (System.currentTimeMillis() / 1000);
    }
}
