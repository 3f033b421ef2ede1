package sibyl.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static sibyl.io.SSTableFixtures.b;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sibyl.db.CFMetaData;
import sibyl.db.Cell;
import sibyl.db.Column;
import sibyl.db.ColumnFamily;
import sibyl.db.ColumnSelection;
import sibyl.db.Deletion;
import sibyl.db.SliceReader;
import sibyl.db.SuperColumn;
import sibyl.db.marshal.BytesType;
import sibyl.db.marshal.UTF8Type;
import sibyl.dht.DecoratedKey;
import sibyl.dht.RandomPartitioner;
import sibyl.engine.Memtable;

/**
 * Compaction keeps what readers see, drops shadowed columns, and purges expired tombstones only
 * in a major compaction. Prints its seed; rerun with {@code -Dsibyl.seed=<seed>}.
 */
class CompactionTest {
    private static final long SEED = Long.getLong("sibyl.seed", System.nanoTime());
    /** Fixtures' tombstones are deleted at 1_000_000..1_000_999 s; this expires about half. */
    private static final int GC_BEFORE = 1_000_500;

    @TempDir
    Path dir;

    private final RandomPartitioner partitioner = new RandomPartitioner();
    private final DecoratedKey start = DecoratedKey.startOf(partitioner.getMinimumToken());

    /** What a reader of the row sees: live columns, super columns by name with their live subcolumns. */
    private static String visible(ColumnFamily row) {
        List<String> seen = new ArrayList<>();
        if (row != null) {
            for (Cell cell : row.cells()) {
                if (cell instanceof Column c) {
                    if (c.isLive(row.deletion(), 0)) seen.add(c.toString());
                } else {
                    SuperColumn live = ((SuperColumn) cell).live(row.deletion(), 0);
                    if (live != null) seen.add(java.util.HexFormat.of().formatHex(live.name()) + toList(live.subcolumns()));
                }
            }
        }
        return seen.toString();
    }

    private static void assertNothingShadowed(ColumnFamily row) {
        long rowDeletedAt = row.deletion().markedForDeleteAt();
        for (Cell cell : row.cells()) {
            if (cell instanceof Column c) {
                assertTrue(c.timestamp() > rowDeletedAt, "shadowed " + c + " kept in " + row);
            } else {
                SuperColumn sc = (SuperColumn) cell;
                for (Column c : sc.subcolumns()) {
                    assertTrue(c.timestamp() > Math.max(rowDeletedAt, sc.deletion().markedForDeleteAt()),
                            "shadowed " + c + " kept in " + sc);
                }
            }
        }
    }

    /** No tombstone and no column anywhere: only super columns that are empty and undeleted. */
    private static boolean holdsNothing(ColumnFamily row) {
        if (row.isMarkedForDelete()) return false;
        for (Cell cell : row.cells()) {
            if (cell instanceof Column || ((SuperColumn) cell).isMarkedForDelete() || ((SuperColumn) cell).subcolumnCount() > 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * A tombstone a major compaction should have purged: an expired column tombstone, or an expired row or super column
     * tombstone over nothing (over columns it stays, as in 0.6).
     */
    private static boolean hasExpiredTombstone(ColumnFamily row) {
        if (row.isMarkedForDelete() && row.deletion().localDeletionTime() < GC_BEFORE && row.cellCount() == 0) return true;
        for (Cell cell : row.cells()) {
            if (cell instanceof Column c) {
                if (c.isTombstone() && c.localDeletionTime() < GC_BEFORE) return true;
            } else {
                SuperColumn sc = (SuperColumn) cell;
                if (sc.isMarkedForDelete() && sc.deletion().localDeletionTime() < GC_BEFORE && sc.subcolumnCount() == 0) {
                    return true;
                }
                for (Column c : sc.subcolumns()) if (c.isTombstone() && c.localDeletionTime() < GC_BEFORE) return true;
            }
        }
        return false;
    }

    private List<SSTableReader> randomInputs(CFMetaData cf, Random random, Memtable model) throws IOException {
        List<SSTableReader> inputs = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            Memtable m = SSTableFixtures.randomMemtable(cf, partitioner, random, 60, 8);
            m.rowsFrom(start).forEachRemaining(e -> model.apply(e.getKey(), e.getValue(), 1));
            inputs.add(SSTableReader.open(SSTableFixtures.write(dir, i + 1, m, partitioner, 128), cf, partitioner, 8));
        }
        return inputs;
    }

    @Test
    void randomMergesKeepWhatReadersSee() throws IOException {
        System.out.println("CompactionTest seed " + SEED + " (rerun with -Dsibyl.seed=" + SEED + ")");
        Random random = new Random(SEED);
        for (CFMetaData cf : List.of(SSTableFixtures.standard(UTF8Type.instance),
                SSTableFixtures.ofSuper(BytesType.instance, UTF8Type.instance))) {
            for (boolean major : List.of(false, true)) {
                Memtable model = new Memtable(cf, Runnable::run);
                List<SSTableReader> inputs = randomInputs(cf, random, model);
                int generation = 10 + (major ? 1 : 0) + (cf.isSuper() ? 2 : 0);
                Compaction.Result result = Compaction.compact(inputs, new Descriptor(dir, cf.name(), generation), partitioner,
                        256, GC_BEFORE, GC_BEFORE, major);
                String context = "seed " + SEED + " " + cf.name() + (major ? " major" : " minor");
                SSTableReader output = SSTableReader.open(result.output().orElseThrow(), cf, partitioner, 8);
                try {
                    long rowsIn = 0;
                    for (SSTableReader input : inputs) {
                        assertEquals(1, input.referenceCount(), "compaction gave its references back");
                        rowsIn += input.statistics().rowCount();
                    }
                    assertEquals(rowsIn, result.rowsIn());
                    assertEquals(output.statistics().rowCount(), result.rowsOut());
                    model.rowsFrom(start).forEachRemaining(e -> {
                        ColumnFamily compacted = output.getRow(e.getKey());
                        assertEquals(visible(e.getValue()), visible(compacted), context + " " + e.getKey());
                        if (compacted == null) {
                            assertTrue(major || holdsNothing(e.getValue()), context + ": a minor compaction keeps every row "
                                    + "that holds something " + e.getKey());
                            return;
                        }
                        assertNothingShadowed(compacted);
                        assertEquals(!major && e.getValue().isMarkedForDelete(), !major && compacted.isMarkedForDelete());
                        if (major) assertFalse(hasExpiredTombstone(compacted), context + " " + compacted);
                    });
                    output.rowsFrom(start).forEachRemaining(e -> assertTrue(model.getRow(e.getKey()) != null));
                } finally {
                    output.release();
                    for (SSTableReader input : inputs) {
                        input.markObsolete();
                        input.release();
                    }
                }
            }
        }
    }

    @Test
    void expiredTombstonesGoInAMajorCompactionOnly() throws IOException {
        CFMetaData cf = SSTableFixtures.standard(UTF8Type.instance);
        DecoratedKey key = partitioner.decorateKey("k");
        Memtable older = new Memtable(cf, Runnable::run);
        older.apply(key, ColumnFamily.empty(cf).withCell(Column.live(b("a"), b("1"), 10))
                .withCell(Column.live(b("b"), b("1"), 10)).withCell(Column.live(b("c"), b("1"), 30)), 3);
        Memtable newer = new Memtable(cf, Runnable::run);
        newer.apply(key, ColumnFamily.empty(cf).withDeletion(20, GC_BEFORE - 1)
                .withCell(Column.tombstone(b("c"), 40, GC_BEFORE + 1))
                .withCell(Column.tombstone(b("d"), 40, GC_BEFORE - 1)), 3);
        List<SSTableReader> inputs = List.of(
                SSTableReader.open(SSTableFixtures.write(dir, 1, older, partitioner, 1024), cf, partitioner, 8),
                SSTableReader.open(SSTableFixtures.write(dir, 2, newer, partitioner, 1024), cf, partitioner, 8));

        SSTableReader minor = SSTableReader.open(Compaction.compact(inputs, new Descriptor(dir, cf.name(), 3), partitioner,
                1024, GC_BEFORE, GC_BEFORE, false).output().orElseThrow(), cf, partitioner, 8);
        ColumnFamily kept = minor.getRow(key);
        assertEquals(Deletion.of(20, GC_BEFORE - 1), kept.deletion(), "a minor compaction keeps the expired row tombstone");
        assertEquals("[c, d]", names(kept), "a and b were shadowed by it; both column tombstones stay");
        minor.release();

        SSTableReader major = SSTableReader.open(Compaction.compact(inputs, new Descriptor(dir, cf.name(), 4), partitioner,
                1024, GC_BEFORE, GC_BEFORE, true).output().orElseThrow(), cf, partitioner, 8);
        ColumnFamily purged = major.getRow(key);
        assertEquals(Deletion.of(20, GC_BEFORE - 1), purged.deletion(),
                "the expired row tombstone stays while the row holds a column (the tombstone of c), as in 0.6");
        assertEquals("[c]", names(purged), "the unexpired tombstone of c stays, the expired one of d goes");
        major.release();
        for (SSTableReader input : inputs) input.release();
    }

    @Test
    void superColumnTombstonesArePurgedAndEmptiedSuperColumnsDropped() throws IOException {
        CFMetaData cf = SSTableFixtures.ofSuper(UTF8Type.instance, UTF8Type.instance);
        DecoratedKey key = partitioner.decorateKey("k");
        Memtable memtable = new Memtable(cf, Runnable::run);
        SuperColumn gone = SuperColumn.empty(b("gone"), UTF8Type.instance).withDeletion(50, GC_BEFORE - 1)
                .withColumn(Column.live(b("x"), b("1"), 40));
        SuperColumn stays = SuperColumn.empty(b("stays"), UTF8Type.instance).withDeletion(50, GC_BEFORE - 1)
                .withColumn(Column.live(b("old"), b("1"), 40)).withColumn(Column.live(b("new"), b("1"), 60));
        memtable.apply(key, ColumnFamily.empty(cf).withCell(gone).withCell(stays), 2);
        SSTableReader input = SSTableReader.open(SSTableFixtures.write(dir, 1, memtable, partitioner, 1024), cf, partitioner, 8);

        SSTableReader output = SSTableReader.open(Compaction.compact(List.of(input), new Descriptor(dir, cf.name(), 2),
                partitioner, 1024, GC_BEFORE, GC_BEFORE, true).output().orElseThrow(), cf, partitioner, 8);
        ColumnFamily row = output.getRow(key);
        assertEquals("[stays]", names(row));
        SuperColumn sc = (SuperColumn) row.cell(b("stays"));
        assertEquals(Deletion.of(50, GC_BEFORE - 1), sc.deletion(),
                "an expired super column tombstone stays while the super column holds a subcolumn, as in 0.6");
        assertEquals(List.of(Column.live(b("new"), b("1"), 60)), List.copyOf(toList(sc.subcolumns())));
        output.release();
        input.release();
    }

    @Test
    void anExpiredRowTombstoneOverLiveColumnsStillHidesAnOlderWriteThatArrivesLate() throws IOException {
        CFMetaData cf = SSTableFixtures.standard(UTF8Type.instance);
        DecoratedKey key = partitioner.decorateKey("k");
        Memtable memtable = new Memtable(cf, Runnable::run);
        memtable.apply(key, ColumnFamily.empty(cf).withDeletion(20, GC_BEFORE - 1)
                .withCell(Column.live(b("a"), b("old"), 10)).withCell(Column.live(b("c"), b("1"), 30)), 3);
        SSTableReader input = SSTableReader.open(SSTableFixtures.write(dir, 1, memtable, partitioner, 1024), cf, partitioner, 8);
        SSTableReader output = SSTableReader.open(Compaction.compact(List.of(input), new Descriptor(dir, cf.name(), 2),
                partitioner, 1024, GC_BEFORE, GC_BEFORE, true).output().orElseThrow(), cf, partitioner, 8);
        ColumnFamily compacted = output.getRow(key);
        assertEquals("[c]", names(compacted));

        // A write older than the row's deletion, arriving after the compaction (a late replica, a loaded SSTable):
        // 0.6 kept the deletion time while the row held columns, so it stays hidden.
        ColumnFamily late = ColumnFamily.empty(cf).withCell(Column.live(b("a"), b("late"), 15));
        ColumnFamily read = ColumnFamily.merge(compacted, late);
        assertEquals(List.of("c"), SliceReader.read(read, null, ColumnSelection.all(), 0).stream()
                .map(cell -> new String(cell.name(), StandardCharsets.UTF_8)).toList());
        output.release();
        input.release();
    }

    @Test
    void aMergeWhereNothingSurvivesWritesNoSSTable() throws IOException {
        CFMetaData cf = SSTableFixtures.standard(UTF8Type.instance);
        Memtable memtable = new Memtable(cf, Runnable::run);
        memtable.apply(partitioner.decorateKey("k"), ColumnFamily.empty(cf).withDeletion(5, GC_BEFORE - 100)
                .withCell(Column.live(b("a"), b("1"), 4)), 2);
        SSTableReader input = SSTableReader.open(SSTableFixtures.write(dir, 1, memtable, partitioner, 1024), cf, partitioner, 8);
        Compaction.Result result = Compaction.compact(List.of(input), new Descriptor(dir, cf.name(), 2), partitioner, 1024,
                GC_BEFORE, GC_BEFORE, true);
        assertTrue(result.output().isEmpty());
        assertEquals(0, result.rowsOut());
        try (Stream<Path> files = Files.list(dir)) {
            assertTrue(files.noneMatch(p -> p.getFileName().toString().contains("-2-")), "no file of generation 2");
        }
        input.release();
    }

    @Test
    void aClosedInputIsRefused() throws IOException {
        CFMetaData cf = SSTableFixtures.standard(UTF8Type.instance);
        Memtable memtable = SSTableFixtures.randomMemtable(cf, partitioner, new Random(1), 5, 2);
        SSTableReader input = SSTableReader.open(SSTableFixtures.write(dir, 1, memtable, partitioner, 1024), cf, partitioner, 8);
        input.release();
        assertThrows(IllegalStateException.class, () -> Compaction.compact(List.of(input), new Descriptor(dir, cf.name(), 2),
                partitioner, 1024, GC_BEFORE, GC_BEFORE, true));
        assertNull(SSTableDirectory.list(dir, cf.name()).stream().filter(d -> d.generation() == 2).findAny().orElse(null));
    }

    private static String names(ColumnFamily row) {
        List<String> names = new ArrayList<>();
        for (Cell c : row.cells()) names.add(new String(c.name(), java.nio.charset.StandardCharsets.UTF_8));
        return names.toString();
    }

    private static <T> List<T> toList(Iterable<T> items) {
        List<T> list = new ArrayList<>();
        items.forEach(list::add);
        return list;
    }
}
