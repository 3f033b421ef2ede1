package sibyl.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static sibyl.db.TestSchema.b;

import org.junit.jupiter.api.Test;
import sibyl.db.marshal.BytesType;

/** The shapes of docs/thrift-api.md §Paths, for each kind of path, with 0.6's texts; and the stores' check. */
class PathShapeTest {
    private static final CFMetaData STANDARD = CFMetaData.standard("Keyspace1", "Standard1", BytesType.instance);
    private static final CFMetaData SUPER = CFMetaData.ofSuper("Keyspace1", "Super1", BytesType.instance,
            BytesType.instance);

    @Test
    void aColumnPathGoesDownToAColumnOrToASuperColumn() {
        for (PathShape shape : new PathShape[] {PathShape.COLUMN, PathShape.INSERT}) {
            assertNull(shape.problem(STANDARD, false, true));
            assertEquals("supercolumn parameter is invalid for standard CF Standard1", shape.problem(STANDARD, true, true));
            assertEquals("column parameter is not optional for standard CF Standard1", shape.problem(STANDARD, false, false));
            assertNull(shape.problem(SUPER, true, true));
            assertNull(shape.problem(SUPER, true, false));
            assertEquals("supercolumn parameter is not optional for super CF Super1", shape.problem(SUPER, false, true));
        }
        assertNull(PathShape.COLUMN.problemAfterNames(SUPER, true, false), "get may stop at a super column");
        assertEquals("column parameter is not optional for insert into super CF Super1",
                PathShape.INSERT.problemAfterNames(SUPER, true, false));
    }

    @Test
    void aRemovePathStopsAtAnyLevel() {
        assertNull(PathShape.REMOVE.problem(STANDARD, false, false));
        assertNull(PathShape.REMOVE.problem(STANDARD, false, true));
        assertEquals("supercolumn may not be specified for standard CF Standard1",
                PathShape.REMOVE.problem(STANDARD, true, false));
        assertNull(PathShape.REMOVE.problem(SUPER, false, false));
        assertNull(PathShape.REMOVE.problem(SUPER, true, false));
        assertNull(PathShape.REMOVE.problemAfterNames(SUPER, true, true));
        assertEquals("column may not be specified without a supercolumn for super CF Super1",
                PathShape.REMOVE.problemAfterNames(SUPER, false, true));
    }

    @Test
    void aParentIsTheColumnFamilyOrASuperColumnOfASuperColumnFamily() {
        assertNull(PathShape.PARENT.problem(STANDARD, false, false));
        assertEquals("columnfamily alone is required for standard CF Standard1",
                PathShape.PARENT.problem(STANDARD, true, false));
        assertNull(PathShape.PARENT.problem(SUPER, false, false));
        assertNull(PathShape.PARENT.problem(SUPER, true, false));
    }

    @Test
    void theStoresCheckRefusesInTheSameWords() {
        assertEquals("supercolumn parameter is not optional for super CF Super1", assertThrows(InvalidQueryException.class,
                () -> PathShape.COLUMN.check(SUPER, QueryPath.column("Super1", b("c")))).getMessage());
        assertEquals("columnfamily alone is required for standard CF Standard1", assertThrows(InvalidQueryException.class,
                () -> PathShape.PARENT.check(STANDARD, QueryPath.superColumn("Standard1", b("sc")))).getMessage());
        PathShape.PARENT.check(SUPER, QueryPath.superColumn("Super1", b("sc")));
        assertThrows(IllegalArgumentException.class,
                () -> PathShape.PARENT.check(STANDARD, QueryPath.column("Standard1", b("c"))), "a parent names no column");
    }
}
