package sibyl.db;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The bulk ways of making a row version ({@link ColumnFamily.Builder}, {@link SuperColumn.Builder}
 * and {@link ColumnFamily#merge} of two versions) give exactly what one {@code withCell} after
 * another gives, whatever the order, duplicates and tombstones.
 */
class RowBuilderTest {
    private static final CFMetaData STANDARD = TestSchema.keyspace1().columnFamily(TestSchema.STD).orElseThrow();
    private static final CFMetaData SUPER = TestSchema.keyspace1().columnFamily(TestSchema.SUPER).orElseThrow();

    @Test
    void builtRowsAndMergedRowsEqualRowsMadeCellByCell() {
        long seed = System.nanoTime();
        System.out.println("RowBuilderTest.builtRowsAndMergedRowsEqualRowsMadeCellByCell seed " + seed);
        Random r = new Random(seed);
        for (int round = 0; round < 300; round++) {
            CFMetaData cf = round % 3 == 2 ? SUPER : STANDARD;
            List<Cell> cells = new ArrayList<>();
            int n = r.nextInt(round % 2 == 0 ? 8 : 300);
            for (int i = 0; i < n; i++) cells.add(randomCell(cf, r, n));
            Deletion deletion = r.nextInt(4) == 0 ? Deletion.of(r.nextInt(20), r.nextInt(3)) : Deletion.LIVE;

            ColumnFamily oneByOne = ColumnFamily.empty(cf);
            ColumnFamily.Builder builder = ColumnFamily.builder(cf, r.nextInt(10));
            if (deletion.isMarkedForDelete()) {
                oneByOne = oneByOne.withDeletion(deletion);
                builder.delete(deletion);
            }
            for (Cell c : cells) {
                oneByOne = oneByOne.withCell(c);
                builder.add(c);
            }
            String where = "seed " + seed + " round " + round;
            ColumnFamily built = builder.build();
            assertSameRow(oneByOne, built, where);

            // Any split of the cells into two rows merges back into the same row, either way round.
            int split = n == 0 ? 0 : r.nextInt(n + 1);
            ColumnFamily.Builder first = ColumnFamily.builder(cf, 0);
            ColumnFamily.Builder second = ColumnFamily.builder(cf, 0);
            if (deletion.isMarkedForDelete()) (r.nextBoolean() ? first : second).delete(deletion);
            for (int i = 0; i < n; i++) (i < split ? first : second).add(cells.get(i));
            assertSameRow(oneByOne, ColumnFamily.merge(first.build(), second.build()), where);
            assertSameRow(oneByOne, ColumnFamily.merge(second.build(), first.build()), where);
        }
    }

    @Test
    void cellsInDescendingOrderBuildTheSameRow() {
        ColumnFamily.Builder builder = ColumnFamily.builder(STANDARD, 4);
        ColumnFamily oneByOne = ColumnFamily.empty(STANDARD);
        for (int i = 50; i >= 0; i--) {
            Column c = Column.live(new byte[] {(byte) i}, new byte[] {1}, i);
            builder.add(c);
            oneByOne = oneByOne.withCell(c);
        }
        assertSameRow(oneByOne, builder.build(), "descending");
    }

    /** Names from a small range, so that many repeat; timestamps from a small range, so that many tie. */
    private static Cell randomCell(CFMetaData cf, Random r, int n) {
        byte[] name = {(byte) r.nextInt(Math.max(1, n / 2 + 1))};
        if (!cf.isSuper()) return randomColumn(r, name);
        SuperColumn.Builder sc = SuperColumn.builder(name, cf.subcomparator(), 0);
        if (r.nextInt(5) == 0) sc.delete(r.nextInt(20), r.nextInt(3));
        int subs = r.nextInt(6);
        for (int i = 0; i < subs; i++) sc.add(randomColumn(r, new byte[] {(byte) r.nextInt(8)}));
        return sc.build();
    }

    private static Column randomColumn(Random r, byte[] name) {
        long ts = r.nextInt(20);
        if (r.nextInt(4) == 0) return Column.tombstone(name, ts, r.nextInt(3));
        return Column.live(name, new byte[] {(byte) r.nextInt(3)}, ts);
    }

    private static void assertSameRow(ColumnFamily expected, ColumnFamily actual, String where) {
        assertEquals(expected.deletion(), actual.deletion(), where);
        assertEquals(expected.cellCount(), actual.cellCount(), where);
        List<Cell> e = new ArrayList<>();
        expected.cells().forEach(e::add);
        List<Cell> a = new ArrayList<>();
        actual.cells().forEach(a::add);
        assertEquals(e, a, where);
        for (Cell c : a) {
            if (c instanceof SuperColumn sc) {
                assertEquals(((SuperColumn) expected.cell(sc.name())).deletion(), sc.deletion(), where);
            }
        }
    }
}
