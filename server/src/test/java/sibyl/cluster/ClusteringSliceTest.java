package sibyl.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static sibyl.db.marshal.Names.composite;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import sibyl.db.marshal.CompositeType;
import sibyl.db.marshal.MarshalTypes;

/** Slice bounds of composite names as the clustering restrictions that select the same names. */
class ClusteringSliceTest {
    private static final ClusteringNames ASCENDING = names("CompositeType(UTF8Type,LongType)", false, false);
    private static final ClusteringNames MIXED = names("CompositeType(UTF8Type,ReversedType(LongType))", false, true);
    private static final ClusteringNames DESCENDING = names(
            "CompositeType(ReversedType(UTF8Type),ReversedType(LongType))", true, true);

    @Test
    void aStartFromAPrefixAndAFinishAfterEverythingUnderIt() {
        ClusteringSlice s = ClusteringSlice.of(ASCENDING, composite(-1, text("a")), composite(1, text("c")));
        assertEquals(" AND (column1) >= (?) AND (column1) <= (?)", s.cql());
        assertEquals(List.of("a", "c"), strings(s.values()));
        assertFalse(s.filtered());
    }

    @Test
    void endOfComponentBytesDecideWhetherABoundIsIncluded() {
        assertEquals(" AND (column1, column2) > (?, ?)",
                ClusteringSlice.of(ASCENDING, composite(1, text("a"), ofLong(1)), null).cql());
        assertEquals(" AND (column1, column2) <= (?, ?)",
                ClusteringSlice.of(ASCENDING, null, composite(0, text("a"), ofLong(1))).cql());
        assertEquals(" AND (column1, column2) < (?, ?)",
                ClusteringSlice.of(ASCENDING, null, composite(-1, text("a"), ofLong(1))).cql());
        // a finish of a shorter prefix with 0 reaches the prefix itself, which no stored name is
        assertEquals(" AND (column1) < (?)", ClusteringSlice.of(ASCENDING, null, composite(0, text("a"))).cql());
        assertEquals(" AND (column1) >= (?)", ClusteringSlice.of(ASCENDING, composite(0, text("a")), null).cql());
    }

    @Test
    void descendingColumnsTakeTheOppositeRelations() {
        assertEquals(" AND (column1, column2) <= (?, ?) AND (column1) >= (?)", ClusteringSlice.of(DESCENDING,
                composite(0, text("b"), ofLong(3)), composite(1, text("a"))).cql());
    }

    @Test
    void boundsThatShareTheirFirstComponentRangeOverOneOrder() {
        ClusteringSlice s = ClusteringSlice.of(MIXED, composite(0, text("a"), ofLong(9)),
                composite(0, text("a"), ofLong(2)));
        assertEquals(" AND (column1, column2) <= (?, ?) AND (column1, column2) >= (?, ?)", s.cql());
        assertFalse(s.filtered());
        assertEquals(" AND (column1) >= (?) AND (column1) <= (?)",
                ClusteringSlice.of(MIXED, composite(-1, text("a")), composite(1, text("b"))).cql());
    }

    @Test
    void boundsOverComponentsOfBothOrdersAreCutAndFiltered() {
        ClusteringSlice s = ClusteringSlice.of(MIXED, composite(0, text("a"), ofLong(5)),
                composite(1, text("b"), ofLong(5)));
        assertEquals(" AND (column1) >= (?) AND (column1) <= (?)", s.cql());
        assertTrue(s.filtered());
        ClusteringSlice open = ClusteringSlice.of(MIXED, composite(1, text("a"), ofLong(5)), null);
        assertEquals(" AND (column1) >= (?)", open.cql());
        assertTrue(open.filtered());
    }

    @Test
    void anEmptyValueOfADescendingComponentCutsTheBound() {
        ClusteringSlice s = ClusteringSlice.of(DESCENDING, composite(0, text("b"), new byte[0]), null);
        assertEquals(" AND (column1) <= (?)", s.cql());
        assertTrue(s.filtered());
        ClusteringSlice first = ClusteringSlice.of(DESCENDING, composite(0, new byte[0]), null);
        assertEquals("", first.cql());
        assertTrue(first.filtered());
    }

    @Test
    void aStaticBoundIsLeftToTheComparator() {
        byte[] staticName = new byte[] {(byte) 0xff, (byte) 0xff, 0, 1, 'a', 0};
        ClusteringSlice s = ClusteringSlice.of(ASCENDING, staticName, composite(0, text("b"), ofLong(1)));
        assertEquals("", s.cql());
        assertTrue(s.filtered());
    }

    @Test
    void aReversedTypesNameIsOneDescendingColumn() {
        ClusteringNames reversed = new ClusteringNames("Newest", List.of(new ClusteringColumn("column1",
                CqlType.BIGINT, true)), null);
        ClusteringSlice s = ClusteringSlice.of(reversed, ofLong(9), ofLong(2));
        assertEquals(" AND column1 <= ? AND column1 >= ?", s.cql());
        assertFalse(s.filtered());
    }

    private static ClusteringNames names(String comparator, boolean firstDescending, boolean secondDescending) {
        CompositeType type = (CompositeType) MarshalTypes.forName(comparator);
        List<ClusteringColumn> columns = List.of(new ClusteringColumn("column1", CqlType.TEXT, firstDescending),
                new ClusteringColumn("column2", CqlType.BIGINT, secondDescending));
        return new ClusteringNames("Events", columns, type);
    }

    private static byte[] text(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] ofLong(long v) {
        return ByteBuffer.allocate(8).putLong(v).array();
    }

    private static List<String> strings(List<byte[]> values) {
        List<String> out = new ArrayList<>();
        for (byte[] v : values) out.add(new String(v, StandardCharsets.UTF_8));
        return out;
    }
}
