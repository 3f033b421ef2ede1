package sibyl.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sibyl.commitlog.SyncMode;
import sibyl.db.CFMetaData;
import sibyl.db.Cell;
import sibyl.db.ColumnSelection;
import sibyl.db.KSMetaData;
import sibyl.db.QueryPath;
import sibyl.db.RowMutation;
import sibyl.db.SliceReader;
import sibyl.db.marshal.BytesType;
import sibyl.dht.RandomPartitioner;
import sibyl.io.SSTableReader;

/**
 * A slice with a count over a wide row spread over several SSTables and the memtable reads only
 * the column index blocks it needs, and answers exactly what merging the whole row answers.
 */
class CountedSliceTest {
    private static final String KS = "Keyspace1";
    private static final String STD = "Standard1";
    private static final String SUPER = "Super1";
    private static final KSMetaData SCHEMA = new KSMetaData(KS, 1, List.of(
            CFMetaData.standard(KS, STD, BytesType.instance),
            CFMetaData.ofSuper(KS, SUPER, BytesType.instance, BytesType.instance)));
    private static final int COLUMNS = 4000;
    private static final int COLUMN_INDEX_SIZE = 1024;
    private static final byte[] E = {};

    @TempDir
    Path dir;

    private final RandomPartitioner partitioner = new RandomPartitioner();
    private LocalStorageService db;

    @BeforeEach
    void open() throws Exception {
        EngineFixture.Settings options = EngineFixture.options(dir, 1L << 30, 864_000, COLUMN_INDEX_SIZE);
        db = LocalStorageService.open(partitioner, List.of(SCHEMA), options.log(),
                EngineFixture.withoutCompaction(options.engine()));
    }

    @AfterEach
    void close() {
        db.close();
    }

    /**
     * "wide": columns c00000.. spread over four SSTables by index mod 4; a fifth SSTable deletes
     * the first 50 and every 7th and rewrites every 11th; the memtable deletes 100..149 and
     * rewrites every 13th. "shadowed": a row tombstone in a later SSTable hides the older columns
     * except those rewritten after it.
     */
    private void writeRows() throws Exception {
        for (int part = 0; part < 4; part++) {
            RowMutation.Builder m = RowMutation.builder(KS, "wide");
            RowMutation.Builder s = RowMutation.builder(KS, "shadowed");
            for (int i = part; i < COLUMNS; i += 4) {
                m.write(STD, name(i), value("v" + i, 64), 10);
                s.write(STD, name(i), value("s" + i, 64), 10);
            }
            db.apply(m.build());
            db.apply(s.build());
            db.forceFlush(KS, STD);
        }
        RowMutation.Builder m = RowMutation.builder(KS, "wide").localDeletionTime(now());
        for (int i = 0; i < COLUMNS; i++) {
            if (i < 50 || i % 7 == 0) m.deleteColumn(STD, name(i), 20);
            else if (i % 11 == 0) m.write(STD, name(i), value("w" + i, 64), 30);
        }
        db.apply(m.build());
        db.apply(RowMutation.builder(KS, "shadowed").localDeletionTime(now()).deleteRow(STD, 15).build());
        db.forceFlush(KS, STD);
        m = RowMutation.builder(KS, "wide").localDeletionTime(now());
        RowMutation.Builder s = RowMutation.builder(KS, "shadowed");
        for (int i = 0; i < COLUMNS; i++) {
            if (i >= 100 && i < 150) m.deleteColumn(STD, name(i), 40);
            else if (i % 13 == 0) m.write(STD, name(i), value("m" + i, 8), 40);
            if (i % 97 == 0) s.write(STD, name(i), value("late" + i, 8), 20);
        }
        db.apply(m.build());
        db.apply(s.build());
        assertEquals(5, store(STD).liveSSTables().size());
    }

    @Test
    void aCountedSliceReadsFewBlocksOfAWideRow() throws Exception {
        writeRows();
        long total = 0;
        for (SSTableReader r : store(STD).liveSSTables()) total += r.dataLength();
        for (boolean reversed : List.of(false, true)) {
            ColumnSelection.Range first10 = ColumnSelection.range(E, E, reversed, 10);
            String expected = expected("wide", first10);
            long before = bytesRead();
            List<Cell> slice = db.getSlice(KS, "wide", QueryPath.cf(STD), first10);
            long read = bytesRead() - before;
            assertEquals(expected, render(slice));
            assertEquals(10, slice.size());
            // Each of five SSTables: its first 4 KiB read (header and first blocks) and perhaps a block more.
            assertTrue(read * 10 < total, (reversed ? "reversed " : "") + "slice read " + read + " of " + total + " bytes");
        }
        // From the start past 50 deleted columns: still only the blocks up to the tenth live one.
        ColumnSelection.Range pastTombstones = ColumnSelection.range(name(0), E, false, 10);
        String expected = expected("wide", pastTombstones);
        long before = bytesRead();
        List<Cell> slice = db.getSlice(KS, "wide", QueryPath.cf(STD), pastTombstones);
        long read = bytesRead() - before;
        assertEquals(expected, render(slice));
        assertTrue(read * 10 < total, "slice past tombstones read " + read + " of " + total + " bytes");
    }

    @Test
    void countedSlicesEqualTheWholeMerge() throws Exception {
        writeRows();
        long seed = System.nanoTime();
        Random random = new Random(seed);
        for (int i = 0; i < 300; i++) {
            String key = random.nextBoolean() ? "wide" : "shadowed";
            byte[] start = random.nextInt(4) == 0 ? E : name(random.nextInt(COLUMNS + 10));
            byte[] finish = random.nextInt(3) == 0 ? E : name(random.nextInt(COLUMNS + 10));
            int count = random.nextInt(5) == 0 ? random.nextInt(COLUMNS) : random.nextInt(20);
            ColumnSelection.Range range = ColumnSelection.range(start, finish, random.nextBoolean(), count);
            assertEquals(expected(key, range), render(db.getSlice(KS, key, QueryPath.cf(STD), range)),
                    "seed " + seed + " key " + key + " " + range);
        }
        assertEquals(expected("absent", ColumnSelection.range(E, E, false, 5)),
                render(db.getSlice(KS, "absent", QueryPath.cf(STD), ColumnSelection.range(E, E, false, 5))));
        assertEquals(SliceReader.read(store(STD).getRow(partitioner.decorateKey("wide")), null, ColumnSelection.all(), 0).size(),
                db.getCount(KS, "wide", QueryPath.cf(STD)));
    }

    @Test
    void superColumnSlicesEqualTheWholeMerge() throws Exception {
        for (int part = 0; part < 3; part++) {
            RowMutation.Builder m = RowMutation.builder(KS, "sup").localDeletionTime(now());
            for (int sc = part; sc < 60; sc += 3) {
                for (int c = 0; c < 5; c++) m.write(SUPER, name(sc), name(c), value("v" + sc + "." + c, 16), 10 + part);
                if (sc % 5 == part) m.deleteSuperColumn(SUPER, name(sc + 1), 12);
                if (sc % 4 == 0) m.deleteSubcolumn(SUPER, name(sc + 2), name(part), 11);
            }
            db.apply(m.build());
            db.forceFlush(KS, SUPER);
        }
        db.apply(RowMutation.builder(KS, "sup").localDeletionTime(now()).deleteRow(SUPER, 10).build());
        long seed = System.nanoTime();
        Random random = new Random(seed);
        for (int i = 0; i < 200; i++) {
            byte[] start = random.nextInt(4) == 0 ? E : name(random.nextInt(70));
            ColumnSelection.Range range = ColumnSelection.range(start, E, random.nextBoolean(), random.nextInt(15));
            List<Cell> actual = db.getSlice(KS, "sup", QueryPath.cf(SUPER), range);
            List<Cell> whole = SliceReader.read(store(SUPER).getRow(partitioner.decorateKey("sup")), null, range, 0);
            assertEquals(render(whole), render(actual), "seed " + seed + " " + range);
        }
    }

    // ---- helpers

    private String expected(String key, ColumnSelection.Range range) {
        return render(SliceReader.read(store(STD).getRow(partitioner.decorateKey(key)), null, range, 0));
    }

    private ColumnFamilyStore store(String cf) {
        for (Keyspace ks : db.openKeyspaces()) if (ks.name().equals(KS)) return ks.store(cf);
        throw new AssertionError("no keyspace " + KS);
    }

    private long bytesRead() {
        long bytes = 0;
        for (SSTableReader r : store(STD).liveSSTables()) bytes += r.dataBytesRead();
        return bytes;
    }

    private static String render(List<Cell> cells) {
        return cells.toString();
    }

    private static byte[] name(int i) {
        return String.format("c%05d", i).getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] value(String prefix, int length) {
        byte[] v = new byte[length];
        byte[] p = prefix.getBytes(StandardCharsets.UTF_8);
        System.arraycopy(p, 0, v, 0, Math.min(p.length, length));
        return v;
    }

    private static int now() {
        return (int) (System.currentTimeMillis() / 1000);
    }
}
