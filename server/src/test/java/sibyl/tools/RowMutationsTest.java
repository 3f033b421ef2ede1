package sibyl.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static sibyl.db.TestSchema.b;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.cassandra.thrift.Deletion;
import org.apache.cassandra.thrift.Mutation;
import org.junit.jupiter.api.Test;
import sibyl.db.CFMetaData;
import sibyl.db.Column;
import sibyl.db.ColumnFamily;
import sibyl.db.SuperColumn;
import sibyl.db.marshal.BytesType;

/**
 * A reconciled row as 0.6 Thrift mutations: each tombstone kind as the Deletion that writes it, with its own
 * timestamp, each live column with its own; versions a tombstone above them hides are left out.
 */
class RowMutationsTest {
    private static final CFMetaData STD = CFMetaData.standard("Keyspace1", "Standard1", BytesType.instance);
    private static final CFMetaData SUPER = CFMetaData.ofSuper("Keyspace1", "Super1", BytesType.instance,
            BytesType.instance);
    private static final int NOW = 1_700_000_000;

    /** Each mutation in a line a person can check: what it is, its timestamp(s), its names. */
    private static List<String> describe(RowMutations row) {
        List<String> lines = new ArrayList<>();
        for (Mutation m : row.mutations()) {
            assertTrue(m.isSetColumn_or_supercolumn() != m.isSetDeletion(), "one of the two: " + m);
            if (m.isSetDeletion()) {
                Deletion d = m.getDeletion();
                assertTrue(d.isSetTimestamp());
                String where = d.isSetSuper_column() ? " in " + s(d.bufferForSuper_column()) : "";
                if (!d.isSetPredicate()) {
                    lines.add((d.isSetSuper_column() ? "delete super column" + where : "delete row") + " @" + d.getTimestamp());
                } else {
                    assertFalse(d.getPredicate().isSetSlice_range(), "names only");
                    List<String> names = new ArrayList<>();
                    for (ByteBuffer n : d.getPredicate().getColumn_names()) names.add(s(n));
                    lines.add("delete " + names + where + " @" + d.getTimestamp());
                }
            } else if (m.getColumn_or_supercolumn().isSetColumn()) {
                var c = m.getColumn_or_supercolumn().getColumn();
                lines.add("column " + s(c.bufferForName()) + "=" + s(c.bufferForValue()) + " @" + c.getTimestamp());
            } else {
                var sc = m.getColumn_or_supercolumn().getSuper_column();
                List<String> subs = new ArrayList<>();
                for (var c : sc.getColumns()) subs.add(s(c.bufferForName()) + "=" + s(c.bufferForValue()) + " @" + c.getTimestamp());
                lines.add("super column " + s(sc.bufferForName()) + " " + subs);
            }
        }
        return lines;
    }

    private static String s(ByteBuffer b) {
        return StandardCharsets.UTF_8.decode(b.duplicate()).toString();
    }

    @Test
    void aStandardRowSendsItsRowTombstoneColumnTombstonesByTimestampAndLiveColumns() {
        ColumnFamily row = ColumnFamily.builder(STD, 8)
                .delete(10, NOW)
                .add(Column.live(b("a"), b("old"), 5))          // under the row tombstone
                .add(Column.live(b("b"), b("new"), 20))
                .add(Column.tombstone(b("c"), 15, NOW))
                .add(Column.tombstone(b("d"), 15, NOW))
                .add(Column.tombstone(b("e"), 8, NOW))           // under the row tombstone
                .add(Column.tombstone(b("f"), 30, NOW))
                .add(Column.live(b("g"), b("tie"), 10))          // at the row tombstone: hidden, as in 0.6
                .build();
        RowMutations m = RowMutations.of(row, 1 << 20);
        assertEquals(List.of("delete row @10", "column b=new @20", "delete [c, d] @15", "delete [f] @30"), describe(m));
        assertEquals(1, m.columns());
        assertEquals(1, m.rowTombstones());
        assertEquals(0, m.superColumnTombstones());
        assertEquals(3, m.columnTombstones());
        assertEquals(3, m.shadowed());
    }

    @Test
    void aSuperRowSendsSuperColumnTombstonesAndSubcolumnsUnderTheirSuperColumn() {
        SuperColumn sc1 = SuperColumn.builder(b("sc1"), BytesType.instance, 4)
                .delete(12, NOW)
                .add(Column.live(b("x"), b("under"), 11))        // under sc1's tombstone
                .add(Column.live(b("y"), b("live"), 13))
                .add(Column.tombstone(b("z"), 14, NOW))
                .build();
        SuperColumn sc2 = SuperColumn.builder(b("sc2"), BytesType.instance, 1)
                .delete(9, NOW)                                  // under the row's tombstone
                .add(Column.live(b("w"), b("live"), 20))
                .build();
        SuperColumn sc3 = SuperColumn.builder(b("sc3"), BytesType.instance, 1)
                .add(Column.live(b("v"), b("under"), 5))         // under the row's tombstone
                .build();
        SuperColumn empty = SuperColumn.empty(b("sc4"), BytesType.instance); // 0.6's read repair wrote these
        ColumnFamily row = ColumnFamily.builder(SUPER, 4).delete(10, NOW).add(sc1).add(sc2).add(sc3).add(empty).build();
        RowMutations m = RowMutations.of(row, 1 << 20);
        assertEquals(List.of("delete row @10", "delete super column in sc1 @12", "super column sc1 [y=live @13]",
                "delete [z] in sc1 @14", "super column sc2 [w=live @20]"), describe(m));
        assertEquals(2, m.columns());
        assertEquals(1, m.rowTombstones());
        assertEquals(1, m.superColumnTombstones());
        assertEquals(1, m.columnTombstones());
        assertEquals(3, m.shadowed());
    }

    @Test
    void anExpiredColumnIsSentAsATombstoneAndOneStillLivingAsAColumn() {
        ColumnFamily row = ColumnFamily.builder(STD, 2)
                .add(Column.expiring(b("a"), b("gone"), 5, 100, NOW))
                .add(Column.expiring(b("b"), b("kept"), 6, 100, NOW + 1))
                .build();
        RowMutations m = RowMutations.of(row, 1 << 20, NOW);
        assertEquals(List.of("column b=kept @6", "delete [a] @5"), describe(m));
        assertEquals(1, m.columns());
        assertEquals(1, m.columnTombstones());
    }

    @Test
    void rowsWithNothingToSendAreEmpty() {
        ColumnFamily readRepair = ColumnFamily.builder(SUPER, 1).add(SuperColumn.empty(b("sc"), BytesType.instance)).build();
        assertTrue(RowMutations.of(readRepair, 1 << 20).isEmpty());
        ColumnFamily allHidden = ColumnFamily.builder(STD, 1).add(Column.live(b("a"), b("v"), Long.MIN_VALUE)).build();
        assertTrue(RowMutations.of(allHidden, 1 << 20).isEmpty());
    }

    @Test
    void longListsAreCutIntoMutationsOfAboutTheChunkSize() {
        SuperColumn.Builder wide = SuperColumn.builder(b("wide"), BytesType.instance, 1000);
        ColumnFamily.Builder std = ColumnFamily.builder(STD, 1000);
        for (int i = 0; i < 1000; i++) {
            String name = String.format("c%04d", i);
            wide.add(i % 3 == 0 ? Column.tombstone(b(name), 7, NOW) : Column.live(b(name), new byte[100], i));
            std.add(Column.tombstone(b(name), 7, NOW));
        }
        int chunk = 5_000;
        for (ColumnFamily row : List.of(ColumnFamily.builder(SUPER, 1).add(wide.build()).build(), std.build())) {
            RowMutations m = RowMutations.of(row, chunk);
            assertTrue(m.mutations().size() > 5, "cut: " + m.mutations().size());
            long total = 0;
            for (Mutation mutation : m.mutations()) {
                long size = RowMutations.sizeOf(mutation);
                assertTrue(size <= chunk + 200, "about the chunk size: " + size);
                total += size;
            }
            assertEquals(m.bytes(), total);
            assertEquals(1000, m.columns() + m.columnTombstones(), "every name in one of them");
        }
    }
}
