package sibyl.thrift20;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import sibyl.iface.v20.CfDef;
import sibyl.iface.v20.Column;
import sibyl.iface.v20.ColumnDef;
import sibyl.iface.v20.ColumnOrSuperColumn;
import sibyl.iface.v20.ColumnParent;
import sibyl.iface.v20.ColumnPath;
import sibyl.iface.v20.ConsistencyLevel;
import sibyl.iface.v20.CounterColumn;
import sibyl.iface.v20.CounterSuperColumn;
import sibyl.iface.v20.Deletion;
import sibyl.iface.v20.InvalidRequestException;
import sibyl.iface.v20.KeyRange;
import sibyl.iface.v20.KeySlice;
import sibyl.iface.v20.KsDef;
import sibyl.iface.v20.Mutation;
import sibyl.iface.v20.SlicePredicate;
import sibyl.iface.v20.SliceRange;

/**
 * Counter tables over a real socket in the 0.7+ dialect (docs/thrift-api-0.7.md §Counters), with the answers and
 * refusals CounterDifferentialIT checks against a real Cassandra 3.11.
 */
class Dialect20CounterTest extends Dialect20Connection {
    private static final ConsistencyLevel ONE = ConsistencyLevel.ONE;
    private static final String KS = "Counted";
    private static final String COUNTER = "org.apache.cassandra.db.marshal.CounterColumnType";

    private static ByteBuffer b(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
    }

    private static SlicePredicate all() {
        return new SlicePredicate().setSlice_range(new SliceRange(b(""), b(""), false, 100));
    }

    private static void refused(String why, Executable call) {
        assertEquals(why, assertThrows(InvalidRequestException.class, call).getWhy());
    }

    private void createKeyspace() throws Exception {
        client.system_add_keyspace(new KsDef(KS, "SimpleStrategy", List.of(
                new CfDef(KS, "C").setDefault_validation_class(COUNTER),
                new CfDef(KS, "CSup").setColumn_type("Super").setDefault_validation_class(COUNTER),
                new CfDef(KS, "S"))).setStrategy_options(Map.of("replication_factor", "1")));
        client.set_keyspace(KS);
    }

    /** Each counter as name=count, super columns as name{...}. */
    private static List<String> counts(List<ColumnOrSuperColumn> cells) {
        List<String> out = new ArrayList<>();
        for (ColumnOrSuperColumn c : cells) {
            if (c.isSetCounter_column()) {
                out.add(StandardCharsets.UTF_8.decode(c.counter_column.name.duplicate()) + "=" + c.counter_column.value);
            } else {
                CounterSuperColumn sc = c.counter_super_column;
                out.add(StandardCharsets.UTF_8.decode(sc.name.duplicate()).toString() + counts(sc.columns.stream()
                        .map(cc -> new ColumnOrSuperColumn().setCounter_column(cc)).toList()));
            }
        }
        return out;
    }

    @Test
    void incrementsDecrementsAndDeletionsReadInEveryCall() throws Exception {
        createKeyspace();
        ColumnParent c = new ColumnParent("C");
        client.add(b("k"), c, new CounterColumn(b("a"), 5), ONE);
        client.add(b("k"), c, new CounterColumn(b("a"), -7), ONE);
        Mutation b3 = new Mutation().setColumn_or_supercolumn(new ColumnOrSuperColumn().setCounter_column(new CounterColumn(b("b"), 3)));
        Mutation b4 = new Mutation().setColumn_or_supercolumn(new ColumnOrSuperColumn().setCounter_column(new CounterColumn(b("b"), 4)));
        Mutation p9 = new Mutation().setColumn_or_supercolumn(new ColumnOrSuperColumn().setCounter_super_column(
                new CounterSuperColumn(b("x"), List.of(new CounterColumn(b("p"), 9)))));
        client.batch_mutate(Map.of(b("k"), Map.of("C", List.of(b3, b4), "CSup", List.of(p9))), ONE);
        assertEquals(-2, client.get(b("k"), new ColumnPath("C").setColumn(b("a")), ONE).counter_column.value);
        assertEquals(List.of("a=-2", "b=7"), counts(client.get_slice(b("k"), c, all(), ONE)));
        assertEquals(List.of("x[p=9]"), counts(client.get_slice(b("k"), new ColumnParent("CSup"), all(), ONE)));
        assertEquals(2, client.get_count(b("k"), c, all(), ONE));
        assertEquals(List.of("a=-2", "b=7"), counts(client.multiget_slice(List.of(b("k")), c, all(), ONE).get(b("k"))));
        List<KeySlice> rows = client.get_range_slices(c, all(), new KeyRange(10).setStart_key(b("")).setEnd_key(b("")), ONE);
        assertEquals(List.of("a=-2", "b=7"), counts(rows.get(0).columns));

        client.remove_counter(b("k"), new ColumnPath("C").setColumn(b("a")), ONE);
        client.add(b("k"), c, new CounterColumn(b("a"), 1), ONE);
        assertEquals(List.of("b=7"), counts(client.get_slice(b("k"), c, all(), ONE)), "a deleted counter stays deleted");
        client.batch_mutate(Map.of(b("k"), Map.of("C", List.of(new Mutation().setDeletion(new Deletion())))), ONE);
        client.add(b("k"), c, new CounterColumn(b("b"), 2), ONE);
        assertEquals(List.of("b=2"), counts(client.get_slice(b("k"), c, all(), ONE)), "after a row deletion, from zero");
    }

    @Test
    void writesThatDoNotFitTheTableAreRefusedIn311sWords() throws Exception {
        createKeyspace();
        refused("invalid operation for non commutative table S",
                () -> client.add(b("k"), new ColumnParent("S"), new CounterColumn(b("a"), 1), ONE));
        refused("invalid operation for commutative table C", () -> client.insert(b("k"), new ColumnParent("C"),
                new Column(b("a")).setValue(b("v")).setTimestamp(1), ONE));
        refused("invalid operation for commutative table C",
                () -> client.remove(b("k"), new ColumnPath("C").setColumn(b("a")), 1, ONE));
        // cas writes plain columns: refused on a counter table before its key is looked at, as 3.11 refuses it.
        refused("invalid operation for commutative table C", () -> client.cas(b(""), "C", List.of(),
                List.of(new Column(b("a")).setValue(b("v")).setTimestamp(1)), ConsistencyLevel.SERIAL, ONE));
        refused("Consistency level ANY is not yet supported for counter table C",
                () -> client.add(b("k"), new ColumnParent("C"), new CounterColumn(b("a"), 1), ConsistencyLevel.ANY));
        refused("Counter operations are inherently non-serializable",
                () -> client.add(b("k"), new ColumnParent("C"), new CounterColumn(b("a"), 1), ConsistencyLevel.SERIAL));
        refused("missing mandatory super column name for super CF CSup",
                () -> client.add(b("k"), new ColumnParent("CSup"), new CounterColumn(b("a"), 1), ONE));
        refused("Cannot add a counter column (6e) in a non counter column family", () -> client.system_add_column_family(
                new CfDef(KS, "Mixed").setColumn_metadata(List.of(new ColumnDef(b("n"), COUNTER)))));
        refused("Cannot add a non counter column (value) in a counter column family",
                () -> client.system_update_column_family(new CfDef(KS, "S").setDefault_validation_class(COUNTER)));
    }
}
