package sibyl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;
import sibyl.iface.v20.CfDef;
import sibyl.iface.v20.Column;
import sibyl.iface.v20.ColumnDef;
import sibyl.iface.v20.ColumnParent;
import sibyl.iface.v20.ConsistencyLevel;
import sibyl.iface.v20.IndexClause;
import sibyl.iface.v20.IndexExpression;
import sibyl.iface.v20.IndexOperator;
import sibyl.iface.v20.IndexType;
import sibyl.iface.v20.InvalidRequestException;
import sibyl.iface.v20.KeyRange;
import sibyl.iface.v20.KeySlice;
import sibyl.iface.v20.KsDef;
import sibyl.iface.v20.SlicePredicate;
import sibyl.iface.v20.SliceRange;
import sibyl.service.StorageService;

/**
 * Secondary indexes on each backend (docs/thrift-api-0.7.md §Secondary indexes): the embedded engine defines and
 * answers them; cluster mode refuses an index definition, get_indexed_slices and row_filter, saying why.
 */
@ParameterizedClass
@MethodSource("sibyl.it.TestNode#backends")
class IndexBothBackendsTest {
    private static final String KS = "Keyspace1";
    private static final ConsistencyLevel ONE = ConsistencyLevel.ONE;

    @RegisterExtension
    static final NodeExtension NODE = NodeExtension.onEachBackend();

    @Parameter
    TestNode.Backend backend;

    @Test
    void indexesAreServedByTheEngineAndRefusedInClusterModeSayingWhy() throws Exception {
        String made = "IndexBoth" + backend.name().toLowerCase();
        String table = "Indexed";
        CfDef def = new CfDef(made, table).setComparator_type("UTF8Type").setColumn_metadata(List.of(new ColumnDef(utf8("state"),
                "org.apache.cassandra.db.marshal.UTF8Type").setIndex_type(IndexType.KEYS)));
        IndexClause clause = new IndexClause(List.of(new IndexExpression(utf8("state"), IndexOperator.EQ, utf8("CA"))),
                utf8(""), 10);
        KeyRange filtered = new KeyRange(10).setStart_key(utf8("")).setEnd_key(utf8("")).setRow_filter(clause.expressions);
        try (V20Connection c = new V20Connection(NODE.node().port(), KS)) {
            if (backend == TestNode.Backend.CLUSTER) {
                refused(() -> c.client.system_add_keyspace(keyspace(made, def)));
                refused(() -> c.client.get_indexed_slices(new ColumnParent("Standard1"), clause, all(), ONE));
                refused(() -> c.client.get_range_slices(new ColumnParent("Standard1"), all(), filtered, ONE));
                return;
            }
            c.client.system_add_keyspace(keyspace(made, def));
            c.client.set_keyspace(made);
            // A column family added later leaves the keyspace's indexes as they were.
            c.client.system_add_column_family(new CfDef(made, "Later").setComparator_type("LongType"));
            for (String key : List.of("a", "b", "c")) {
                c.client.insert(utf8(key), new ColumnParent(table), new Column(utf8("state"))
                        .setValue(utf8(key.equals("b") ? "NY" : "CA")).setTimestamp(1), ONE);
            }
            assertEquals(List.of("a", "c"), sorted(c.client.get_indexed_slices(new ColumnParent(table), clause, all(), ONE)));
            assertEquals(List.of("a", "c"), sorted(c.client.get_range_slices(new ColumnParent(table), all(), filtered, ONE)));
        }
    }

    private static KsDef keyspace(String name, CfDef table) {
        return new KsDef(name, "org.apache.cassandra.locator.SimpleStrategy", List.of(table))
                .setStrategy_options(java.util.Map.of("replication_factor", "1"));
    }

    private static void refused(Executable call) {
        assertEquals(StorageService.INDEXES_NOT_SERVED, assertThrows(InvalidRequestException.class, call).getWhy());
    }

    private static List<String> sorted(List<KeySlice> rows) {
        List<String> keys = new ArrayList<>();
        for (KeySlice row : rows) keys.add(StandardCharsets.UTF_8.decode(row.key).toString());
        keys.sort(null);
        return keys;
    }

    private static SlicePredicate all() {
        return new SlicePredicate().setSlice_range(new SliceRange(utf8(""), utf8(""), false, 10));
    }

    private static ByteBuffer utf8(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
    }
}
