package sibyl.thrift20;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static sibyl.db.TestSchema.KS;
import static sibyl.db.TestSchema.LONGS;
import static sibyl.db.TestSchema.STD;
import static sibyl.db.TestSchema.STD2;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import sibyl.iface.v20.Column;
import sibyl.iface.v20.ColumnOrSuperColumn;
import sibyl.iface.v20.ColumnParent;
import sibyl.iface.v20.ColumnPath;
import sibyl.iface.v20.Compression;
import sibyl.iface.v20.ConsistencyLevel;
import sibyl.iface.v20.CounterColumn;
import sibyl.iface.v20.CqlResultType;
import sibyl.iface.v20.Deletion;
import sibyl.iface.v20.IndexClause;
import sibyl.iface.v20.IndexExpression;
import sibyl.iface.v20.IndexOperator;
import sibyl.iface.v20.InvalidRequestException;
import sibyl.iface.v20.KeyRange;
import sibyl.iface.v20.MultiSliceRequest;
import sibyl.iface.v20.Mutation;
import sibyl.iface.v20.SlicePredicate;
import sibyl.iface.v20.SliceRange;
import sibyl.iface.v20.UnavailableException;

/**
 * What the 0.7+ dialect refuses, over a real socket: the calls Sibyl does not serve yet, what it cannot store
 * (some consistency levels), and bad requests, each with its InvalidRequestException text.
 */
class Dialect20RefusalTest extends Dialect20Connection {
    private static final ConsistencyLevel ONE = ConsistencyLevel.ONE;

    @BeforeEach
    void useTheTestKeyspace() throws Exception {
        client.set_keyspace(KS);
    }

    private static ByteBuffer b(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
    }

    private static SlicePredicate all() {
        return new SlicePredicate().setSlice_range(new SliceRange(b(""), b(""), false, 100));
    }

    private static Column column(String name) {
        return new Column(b(name)).setValue(b("v")).setTimestamp(1);
    }

    private static void refused(String why, Executable call) {
        assertEquals(why, assertThrows(InvalidRequestException.class, call).getWhy());
    }

    @Test
    void callsNotServedYetAreRefusedByName() throws Exception {
        ColumnParent parent = new ColumnParent(STD);
        KeyRange range = new KeyRange(10).setStart_key(new byte[0]).setEnd_key(new byte[0]);
        // Counters are served (CounterDifferentialIT); a table that is not a counter table refuses them as 3.11 does.
        refused("invalid operation for non commutative table " + STD, () -> client.add(b("k"), parent, new CounterColumn(b("c"), 1), ONE));
        refused("invalid operation for non commutative table " + STD, () -> client.remove_counter(b("k"), new ColumnPath(STD), ONE));
        // Secondary indexes are served (IndexDifferentialIT); a table without one refuses an index clause as 3.11 does.
        refused("No indexed columns present in index clause with operator EQ", () -> client.get_indexed_slices(parent, new IndexClause(
                List.of(new IndexExpression(b("c"), IndexOperator.EQ, b("v"))), b(""), 10), all(), ONE));
        // The connection is still good after all of them.
        assertEquals("20.1.0", client.describe_version());
    }

    /**
     * The embedded engine serves its subset of CQL and refuses the rest by name (sibyl.cql's tests); CQL 2 is refused
     * as 3.11 refuses it; USE, which Sibyl answers itself, sets the keyspace; a query that does not inflate is refused
     * as 3.11 refuses it.
     */
    @Test
    void cqlOfTheEmbeddedEngineAndUseSetsTheKeyspace() throws Exception {
        ByteBuffer query = b("SELECT * FROM \"Standard1\"");
        String cql2 = "CQL2 has been removed in Cassandra 3.0. Please use CQL3 instead";
        refused(cql2, () -> client.execute_cql_query(query, Compression.NONE));
        refused(cql2, () -> client.prepare_cql_query(query, Compression.NONE));
        refused(cql2, () -> client.execute_prepared_cql_query(1, List.of()));
        assertEquals(CqlResultType.ROWS, client.execute_cql3_query(query, Compression.NONE, ONE).getType());
        assertEquals(0, client.prepare_cql3_query(query, Compression.NONE).getCount());
        refused("CREATE is not served by Sibyl's embedded engine, which serves SELECT, INSERT, UPDATE, DELETE and USE on"
                + " a column family's compact-storage view (docs/thrift-api-0.7.md, \"CQL\")",
                () -> client.execute_cql3_query(b("CREATE TABLE t (k int PRIMARY KEY)"), Compression.NONE, ONE));
        refused("Error deflating query string.", () -> client.execute_cql3_query(b("plain"), Compression.GZIP, ONE));
        refused("Keyspace 'nope' does not exist", () -> client.execute_cql3_query(b("USE Nope"), Compression.NONE, ONE));
        assertEquals(CqlResultType.VOID, client.execute_cql3_query(b("use \"" + KS + "\";"), Compression.NONE, ONE).getType());
        assertEquals(0, client.get_count(b("k"), new ColumnParent(STD), all(), ONE), "a data call in the keyspace USE set");
    }

    @Test
    void consistencyLevelsAreCheckedAs311ChecksThem() {
        ColumnParent parent = new ColumnParent(STD);
        refused("ANY ConsistencyLevel is only supported for writes",
                () -> client.get_slice(b("k"), parent, all(), ConsistencyLevel.ANY));
        refused("You must use conditional updates for serializable writes",
                () -> client.insert(b("k"), parent, column("c"), ConsistencyLevel.SERIAL));
        refused("Sibyl does not serve consistency level TWO yet (issue #33)",
                () -> client.get_count(b("k"), parent, all(), ConsistencyLevel.TWO));
        refused("Sibyl does not serve reads at consistency level SERIAL yet (issue #33)",
                () -> client.get(b("k"), new ColumnPath(STD).setColumn(b("c")), ConsistencyLevel.SERIAL));
    }

    @Test
    void aReadThisNodeAloneCannotMeetIsUnavailable() throws Exception {
        client.set_keyspace(Dialect20Server.REPLICATED);
        ColumnParent parent = new ColumnParent(STD);
        client.insert(b("k"), parent, column("c"), ConsistencyLevel.QUORUM);
        assertEquals(1, client.get_count(b("k"), parent, all(), ONE));
        assertThrows(UnavailableException.class, () -> client.get_count(b("k"), parent, all(), ConsistencyLevel.QUORUM));
        assertThrows(UnavailableException.class,
                () -> client.multiget_slice(List.of(b("k")), parent, all(), ConsistencyLevel.LOCAL_QUORUM));
    }

    @Test
    void badRequestsAreRefusedWith311sTexts() {
        ColumnParent parent = new ColumnParent(STD);
        refused("Key may not be empty", () -> client.insert(b(""), parent, column("c"), ONE));
        refused("Key length of 65536 is longer than maximum of 65535",
                () -> client.get_slice(ByteBuffer.allocate(65536), parent, all(), ONE));
        refused("unconfigured table Nope", () -> client.insert(b("k"), new ColumnParent("Nope"), column("c"), ONE));
        refused("non-empty table is required", () -> client.get_slice(b("k"), new ColumnParent(""), all(), ONE));
        refused("table alone is required for standard CF Standard1",
                () -> client.get_slice(b("k"), new ColumnParent(STD).setSuper_column(b("s")), all(), ONE));
        refused("column parameter is not optional for standard CF Standard1",
                () -> client.get(b("k"), new ColumnPath(STD), ONE));
        refused("supercolumn parameter is not optional for super CF Super1",
                () -> client.get(b("k"), new ColumnPath("Super1").setColumn(b("c")), ONE));
        refused("A column cannot be specified without specifying a super column for removal on super CF Super1",
                () -> client.remove(b("k"), new ColumnPath("Super1").setColumn(b("c")), 1, ONE));
        refused("Column timestamp is required",
                () -> client.insert(b("k"), parent, new Column(b("c")).setValue(b("v")), ONE));
        refused("Column value is required",
                () -> client.insert(b("k"), parent, new Column(b("c")).setTimestamp(1), ONE));
        refused("column name must not be empty", () -> client.insert(b("k"), parent, column(""), ONE));
        refused("predicate column_names and slice_range may not both be null",
                () -> client.get_slice(b("k"), parent, new SlicePredicate(), ONE));
        refused("range finish must come after start in the order of traversal", () -> client.get_slice(b("k"),
                parent, new SlicePredicate().setSlice_range(new SliceRange(b("b"), b("a"), false, 10)), ONE));
        refused("get_slice requires non-negative count", () -> client.get_slice(b("k"),
                parent, new SlicePredicate().setSlice_range(new SliceRange(b(""), b(""), false, -1)), ONE));
        // Names their comparator refuses, in 3.11's words (not 0.6's, which the 0.6 interface keeps).
        refused("Expected 8 or 0 byte long (3)", () -> client.insert(b("k"), new ColumnParent(LONGS), column("abc"), ONE));
        refused("Expected 8 or 0 byte long (1)", () -> client.get_slice(b("k"), new ColumnParent(LONGS),
                new SlicePredicate().setSlice_range(new SliceRange(b("a"), b(""), false, 10)), ONE));
        refused("String didn't validate.", () -> client.insert(b("k"), new ColumnParent(STD2),
                new Column(ByteBuffer.wrap(new byte[] {0x61, (byte) 0xc3, 0x28})).setValue(b("v")).setTimestamp(1), ONE));
        refused("missing mandatory super column name for super CF Super1",
                () -> client.insert(b("k"), new ColumnParent("Super1"), column(""), ONE));
        refused("Cannot delete a range of subcolumns in a super column", () -> client.batch_mutate(Map.of(b("a"),
                Map.of("Super1", List.of(new Mutation().setDeletion(new Deletion().setTimestamp(1)
                        .setSuper_column(b("s")).setPredicate(all()))))), ONE));
    }

    @Test
    void badMutationsAreRefusedBeforeAnyRowIsWritten() throws Exception {
        Mutation good = new Mutation().setColumn_or_supercolumn(new ColumnOrSuperColumn().setColumn(column("c")));
        Mutation both = new Mutation().setColumn_or_supercolumn(new ColumnOrSuperColumn().setColumn(column("c")))
                .setDeletion(new Deletion().setTimestamp(1));
        refused("mutation must have one and only one of column_or_supercolumn or deletion",
                () -> client.batch_mutate(Map.of(b("a"), Map.of(STD, List.of(good)), b("b"), Map.of(STD, List.of(both))), ONE));
        assertEquals(0, client.get_count(b("a"), new ColumnParent(STD), all(), ONE));
        Mutation counter = new Mutation().setColumn_or_supercolumn(new ColumnOrSuperColumn()
                .setCounter_column(new CounterColumn(b("c"), 1)));
        refused("invalid operation for non commutative table Standard1",
                () -> client.batch_mutate(Map.of(b("a"), Map.of(STD, List.of(counter))), ONE));
        refused("ColumnOrSuperColumn must have one (and only one) of column, super_column, counter and "
                        + "counter_super_column",
                () -> client.batch_mutate(Map.of(b("a"), Map.of(STD, List.of(new Mutation()
                        .setColumn_or_supercolumn(new ColumnOrSuperColumn())))), ONE));
        refused("Deletion timestamp is not optional for non commutative table Standard1",
                () -> client.batch_mutate(Map.of(b("a"), Map.of(STD, List.of(new Mutation()
                        .setDeletion(new Deletion())))), ONE));
        // 3.11 checks the super column's name as a column name of the table, then refuses the deletion.
        refused("Deletion of super columns is not possible on a standard table (KeySpace=Keyspace1 Table=Standard1 "
                        + "Deletion=Deletion(timestamp:1, super_column:73))",
                () -> client.batch_mutate(Map.of(b("a"), Map.of(STD, List.of(new Mutation()
                        .setDeletion(new Deletion().setTimestamp(1).setSuper_column(b("s")))))), ONE));
        refused("unconfigured table Nope",
                () -> client.batch_mutate(Map.of(b("a"), Map.of("Nope", List.of(good))), ONE));
    }

    @Test
    void keyRangesAreCheckedAs311ChecksThemAndTheFormsNotServedAreNamed() throws Exception {
        ColumnParent parent = new ColumnParent(STD);
        refused("exactly one each of {start key, start token} and {end key, end token} must be specified",
                () -> client.get_range_slices(parent, all(), new KeyRange(10).setStart_key(new byte[0]), ONE));
        refused("start token + end key is not a supported key range", () -> client.get_range_slices(parent, all(),
                new KeyRange(10).setStart_token("0").setEnd_key(new byte[0]), ONE));
        refused("maxRows must be positive", () -> client.get_range_slices(parent, all(),
                new KeyRange(0).setStart_key(new byte[0]).setEnd_key(new byte[0]), ONE));
        refused("Sibyl does not serve a key range from a start key to an end token yet (issue #33)",
                () -> client.get_range_slices(parent, all(), new KeyRange(10).setStart_key(new byte[0])
                        .setEnd_token("0"), ONE));
        // A row_filter without an index is served as 3.11 serves it: the rows of the range are judged one by one.
        assertEquals(List.of(), client.get_range_slices(parent, all(), new KeyRange(10).setStart_key(new byte[0])
                .setEnd_key(new byte[0]).setRow_filter(List.of(new IndexExpression(b("c"), IndexOperator.EQ,
                        b("a value no test writes")))), ONE));
        assertThrows(InvalidRequestException.class, () -> client.get_range_slices(parent, all(),
                new KeyRange(10).setStart_token("not a token").setEnd_token("0"), ONE));
    }
}
