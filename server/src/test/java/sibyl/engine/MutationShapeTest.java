package sibyl.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static sibyl.db.TestSchema.KS;
import static sibyl.db.TestSchema.STD;
import static sibyl.db.TestSchema.SUPER;
import static sibyl.db.TestSchema.b;
import static sibyl.db.TestSchema.m;

import org.junit.jupiter.api.Test;
import sibyl.db.ColumnSelection;
import sibyl.db.InvalidQueryException;
import sibyl.db.QueryPath;
import sibyl.db.RowMutation;
import sibyl.db.TestSchema;
import sibyl.dht.RandomPartitioner;

class MutationShapeTest {
    private final LocalStorageService db = TestStores.service(new RandomPartitioner());

    private String refused(RowMutation mutation) {
        return assertThrows(InvalidQueryException.class, () -> db.apply(mutation)).getMessage();
    }

    @Test
    void aMutationWithABadPartAppliesNothing() {
        assertEquals("unconfigured columnfamily Nope",
                refused(m("k").write(STD, b("c"), b("v"), 1).write("Nope", b("c"), b("v"), 1).build()));
        assertEquals("supercolumn parameter is not optional for super CF Super1",
                refused(m("k").write(STD, b("c"), b("v"), 1).write(SUPER, b("c"), b("v"), 1).build()));
        assertEquals(0, db.getCount(KS, "k", QueryPath.cf(STD)));
    }

    @Test
    void shapesThatDoNotFitTheColumnFamilyAreRefused() {
        assertEquals("supercolumn parameter is invalid for standard CF Standard1",
                refused(m("k").write(STD, b("sc"), b("c"), b("v"), 1).build()));
        assertEquals("supercolumn may not be specified for standard CF Standard1",
                refused(m("k").deleteSuperColumn(STD, b("sc"), 1).build()));
        assertEquals("supercolumn parameter is not optional for super CF Super1",
                refused(m("k").deleteColumn(SUPER, b("c"), 1).build()));
        assertEquals("columnfamily alone is required for standard CF Standard1",
                refused(m("k").deleteSlice(STD, b("sc"), ColumnSelection.all(), 1).build()));
        assertEquals("Keyspace Nope does not exist in this schema.",
                assertThrows(InvalidQueryException.class,
                        () -> db.apply(RowMutation.builder("Nope", "k").deleteRow(STD, 1).build())).getMessage());
    }

    @Test
    void readsOfTheWrongShapeAreRefused() {
        assertThrows(InvalidQueryException.class, () -> db.get(KS, "k", QueryPath.cf(STD)));
        assertThrows(InvalidQueryException.class, () -> db.get(KS, "k", QueryPath.column(SUPER, b("c"))));
        assertThrows(InvalidQueryException.class,
                () -> db.getSlice(KS, "k", QueryPath.superColumn(STD, b("sc")), ColumnSelection.all()));
        assertEquals("unconfigured columnfamily X",
                assertThrows(InvalidQueryException.class, () -> db.getCount(KS, "k", QueryPath.cf("X"))).getMessage());
    }

    @Test
    void theSystemKeyspaceIsAlwaysThere() {
        assertEquals("system", db.keyspaces().get(db.keyspaces().size() - 1).name());
        db.apply(RowMutation.builder("system", "k").write("LocationInfo", b("c"), b("v"), 1).build());
        assertEquals(1, db.getCount("system", "k", QueryPath.cf("LocationInfo")));
    }
}
