package sibyl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static sibyl.it.Requests.all;
import static sibyl.it.Requests.b;
import static sibyl.it.Requests.column;
import static sibyl.it.Requests.cosc;
import static sibyl.it.Requests.deletion;
import static sibyl.it.Requests.insertion;
import static sibyl.it.Requests.keys;
import static sibyl.it.Requests.longName;
import static sibyl.it.Requests.nameBuffers;
import static sibyl.it.Requests.names;
import static sibyl.it.Requests.parent;
import static sibyl.it.Requests.path;
import static sibyl.it.Requests.range;
import static sibyl.it.Requests.superColumn;
import static sibyl.it.Requests.tokens;
import static sibyl.it.Requests.uuid;
import static sibyl.it.Requests.why;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.cassandra.thrift.ColumnOrSuperColumn;
import org.apache.cassandra.thrift.ColumnParent;
import org.apache.cassandra.thrift.ColumnPath;
import org.apache.cassandra.thrift.ConsistencyLevel;
import org.apache.cassandra.thrift.Deletion;
import org.apache.cassandra.thrift.KeyRange;
import org.apache.cassandra.thrift.Mutation;
import org.apache.cassandra.thrift.NotFoundException;
import org.apache.cassandra.thrift.SlicePredicate;
import org.apache.cassandra.thrift.SuperColumn;
import org.apache.cassandra.thrift.UnavailableException;
import org.apache.thrift.TApplicationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every InvalidRequestException of docs/thrift-api.md §Validation with its exact text, in 0.6's
 * order of checks where several things are wrong, and Sibyl's own refusals where 0.6 failed
 * internally (docs/differences.md §Errors instead of internal errors).
 * Also consistency levels: reads refuse ZERO and ANY, a ZERO write shows up, and a
 * replication factor 3 keyspace cannot serve QUORUM or ALL reads from one node.
 */
@ParameterizedClass
@MethodSource("sibyl.it.TestNode#backends")
class ValidationErrorsTest {
    private static final String KS = "Keyspace1";
    private static final ConsistencyLevel ONE = ConsistencyLevel.ONE;
    private static final ConsistencyLevel ZERO = ConsistencyLevel.ZERO;
    private static final ConsistencyLevel ANY = ConsistencyLevel.ANY;
    private static final String LONG_KEY = "k".repeat(65536);
    private static final ByteBuffer LONG_NAME = ByteBuffer.allocate(65536);

    @RegisterExtension
    static final NodeExtension NODE = NodeExtension.onEachBackend().edit(ConfEdits.addKeyspace(ConfEdits.keyspace(
            "Triple", 3, "<ColumnFamily Name=\"Std\"/>", "<ColumnFamily Name=\"Sup\" ColumnType=\"Super\"/>")));
    @NodeExtension.Connected
    static Cassandra.Client c;

    @Parameter
    TestNode.Backend backend;

    @FunctionalInterface
    interface Call {
        void run(Cassandra.Client c) throws Exception;
    }

    private static Arguments rule(String name, String why, Call call) {
        return Arguments.of(name, why, call);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rules")
    void refusedWithTheExactText(String name, String expected, Call call) {
        String actual = why(() -> call.run(c));
        // Sibyl's own texts end with the parser's detail, which is not part of the contract
        if (expected.endsWith(": ")) assertTrue(actual.startsWith(expected), actual);
        else assertEquals(expected, actual);
    }

    static ColumnPath pathOf(String cf, ByteBuffer superColumn, ByteBuffer column) {
        ColumnPath p = new ColumnPath(cf);
        if (superColumn != null) p.setSuper_column(superColumn);
        if (column != null) p.setColumn(column);
        return p;
    }

    static Mutation bothInOneMutation() {
        return new Mutation().setColumn_or_supercolumn(cosc(column("a", "v", 1))).setDeletion(new Deletion(1));
    }

    static Map<String, Map<String, List<Mutation>>> batch(String key, String cf, Mutation... ms) {
        return Map.of(key, Map.of(cf, List.of(ms)));
    }

    static Stream<Arguments> rules() {
        ByteBuffer version4 = uuid(UUID.fromString("f47ac10b-58cc-4372-a567-0e02b2c3d479"));
        String superDeletion = new Deletion(1).setSuper_column(b("sc")).toString();
        return Stream.of(
                // ---- keys
                rule("get: empty key", "Key may not be empty", x -> x.get(KS, "", path("Standard1", "c"), ONE)),
                rule("get_slice: empty key", "Key may not be empty",
                        x -> x.get_slice(KS, "", parent("Standard1"), all(), ONE)),
                rule("multiget: one empty key", "Key may not be empty",
                        x -> x.multiget(KS, List.of("k", ""), path("Standard1", "c"), ONE)),
                rule("multiget_slice: one empty key", "Key may not be empty",
                        x -> x.multiget_slice(KS, List.of("k", ""), parent("Standard1"), all(), ONE)),
                rule("get_count: empty key", "Key may not be empty", x -> x.get_count(KS, "", parent("Standard1"), ONE)),
                rule("insert: empty key", "Key may not be empty",
                        x -> x.insert(KS, "", path("Standard1", "c"), b("v"), 1, ONE)),
                rule("remove: empty key", "Key may not be empty", x -> x.remove(KS, "", path("Standard1"), 1, ONE)),
                rule("batch_insert: empty key", "Key may not be empty",
                        x -> x.batch_insert(KS, "", Map.of("Standard1", List.of(cosc(column("a", "v", 1)))), ONE)),
                rule("batch_mutate: empty key", "Key may not be empty",
                        x -> x.batch_mutate(KS, batch("", "Standard1", insertion(column("a", "v", 1))), ONE)),
                rule("key of 65536 bytes", "Encoded key length of 65536 is longer than maximum of 65535",
                        x -> x.insert(KS, LONG_KEY, path("Standard1", "c"), b("v"), 1, ONE)),
                rule("key of 21846 three-byte chars", "Encoded key length of 65538 is longer than maximum of 65535",
                        x -> x.get(KS, "中".repeat(21846), path("Standard1", "c"), ONE)),
                rule("key of NULs (two bytes each in modified UTF-8)",
                        "Encoded key length of 65536 is longer than maximum of 65535",
                        x -> x.get_count(KS, "\u0000".repeat(32768), parent("Standard1"), ONE)),

                // ---- keyspaces and column families
                rule("unknown keyspace", "Keyspace Nope does not exist in this schema.",
                        x -> x.get_slice("Nope", "k", parent("Standard1"), all(), ONE)),
                rule("empty column family", "non-empty columnfamily is required",
                        x -> x.get(KS, "k", path("", "c"), ONE)),
                rule("unknown column family", "unconfigured columnfamily Nope",
                        x -> x.insert(KS, "k", path("Nope", "c"), b("v"), 1, ONE)),
                rule("unknown column family in a range read", "unconfigured columnfamily Nope",
                        x -> x.get_range_slices(KS, parent("Nope"), all(), keys("", "", 10), ONE)),

                // ---- ColumnPath of get, multiget and insert
                rule("get: standard CF with super column", "supercolumn parameter is invalid for standard CF Standard1",
                        x -> x.get(KS, "k", path("Standard1", "sc", "c"), ONE)),
                rule("get: standard CF without column", "column parameter is not optional for standard CF Standard1",
                        x -> x.get(KS, "k", path("Standard1"), ONE)),
                rule("multiget: super CF without super column", "supercolumn parameter is not optional for super CF Super1",
                        x -> x.multiget(KS, List.of("k"), path("Super1", "c"), ONE)),
                rule("insert: super CF without super column", "supercolumn parameter is not optional for super CF Super1",
                        x -> x.insert(KS, "k", path("Super1", "c"), b("v"), 1, ONE)),
                rule("insert: super CF without column (Sibyl)", "column parameter is not optional for insert into super CF Super1",
                        x -> x.insert(KS, "k", path("Super1", "sc", null), b("v"), 1, ONE)),
                rule("empty column name", "column name must not be empty",
                        x -> x.get(KS, "k", pathOf("Standard1", null, b()), ONE)),
                rule("column name of 65536 bytes", "column name length must not be greater than 65535",
                        x -> x.insert(KS, "k", pathOf("Standard1", null, LONG_NAME), b("v"), 1, ONE)),
                rule("empty super column name", "supercolumn name must not be empty",
                        x -> x.get(KS, "k", pathOf("Super1", b(), b("c")), ONE)),
                rule("super column name of 65536 bytes", "supercolumn name length must not be greater than 65535",
                        x -> x.get(KS, "k", pathOf("Super1", LONG_NAME, b("c")), ONE)),
                // 0.6 checks a path's super column, when no column follows it, as a column name
                rule("super column alone, 65536 bytes", "column name length must not be greater than 65535",
                        x -> x.get(KS, "k", pathOf("Super1", LONG_NAME, null), ONE)),
                rule("super column alone, empty", "column name must not be empty",
                        x -> x.remove(KS, "k", pathOf("Super1", b(), null), 1, ONE)),
                rule("super column before column", "supercolumn name must not be empty",
                        x -> x.get(KS, "k", pathOf("Super1", b(), b()), ONE)),
                rule("LongType name", "A long is exactly 8 bytes",
                        x -> x.insert("Twissandra", "k", path("Timeline", "abc"), b("v"), 1, ONE)),
                rule("TimeUUIDType name length", "UUIDs must be exactly 16 bytes",
                        x -> x.get(KS, "k", pathOf("StandardByUUID1", null, ByteBuffer.allocate(15)), ONE)),
                rule("TimeUUIDType version", "TimeUUID only makes sense with version 1 UUIDs",
                        x -> x.insert(KS, "k", pathOf("StandardByUUID1", null, version4), b("v"), 1, ONE)),
                rule("UTF8Type name", "invalid UTF8 bytes [97, -1]",
                        x -> x.insert(KS, "k", pathOf("Standard2", null, b((byte) 'a', (byte) 0xff)), b("v"), 1, ONE)),
                rule("subcolumn checked by the subcomparator", "UUIDs must be exactly 16 bytes",
                        x -> x.insert("Twitter", "k", path("StatusRelationships", "timeline", "x"), b("v"), 1, ONE)),
                rule("super column checked by the comparator", "invalid UTF8 bytes [-64]",
                        x -> x.get("Twitter", "k", pathOf("StatusRelationships", b((byte) 0xc0), null), ONE)),

                // ---- ColumnParent
                rule("standard CF parent with super column", "columnfamily alone is required for standard CF Standard1",
                        x -> x.get_slice(KS, "k", parent("Standard1", "sc"), all(), ONE)),
                rule("get_count: standard CF parent with super column",
                        "columnfamily alone is required for standard CF Standard1",
                        x -> x.get_count(KS, "k", parent("Standard1", "sc"), ONE)),
                rule("parent with empty super column (checked as a column name)", "column name must not be empty",
                        x -> x.get_slice(KS, "k", new ColumnParent("Super1").setSuper_column(b()), all(), ONE)),

                // ---- ColumnPath of remove
                rule("remove: standard CF with super column", "supercolumn may not be specified for standard CF Standard1",
                        x -> x.remove(KS, "k", path("Standard1", "sc", null), 1, ONE)),
                rule("remove: super CF column without super column (Sibyl)",
                        "column may not be specified without a supercolumn for super CF Super1",
                        x -> x.remove(KS, "k", path("Super1", "c"), 1, ONE)),
                rule("remove: bad subcolumn name", "column name must not be empty",
                        x -> x.remove(KS, "k", pathOf("Super1", b("sc"), b()), 1, ONE)),

                // ---- SlicePredicate
                rule("predicate with neither field", "predicate column_names and slice_range may not both be null",
                        x -> x.get_slice(KS, "k", parent("Standard1"), new SlicePredicate(), ONE)),
                rule("predicate with both fields", "predicate column_names and slice_range may not both be present",
                        x -> x.get_slice(KS, "k", parent("Standard1"),
                                names("a").setSlice_range(all().getSlice_range()), ONE)),
                rule("negative count", "get_slice requires non-negative count",
                        x -> x.get_slice(KS, "k", parent("Standard1"), range("", "", false, -1), ONE)),
                rule("finish before start", "range finish must come after start in the order of traversal",
                        x -> x.get_slice(KS, "k", parent("Standard1"), range("b", "a", false, 10), ONE)),
                rule("reversed: finish after start", "range finish must come after start in the order of traversal",
                        x -> x.multiget_slice(KS, List.of("k"), parent("Standard1"), range("a", "b", true, 10), ONE)),
                rule("range bound checked by the comparator", "A long is exactly 8 bytes",
                        x -> x.get_slice("Twissandra", "k", parent("Timeline"), range("x", "", false, 10), ONE)),
                rule("range order by the comparator", "range finish must come after start in the order of traversal",
                        x -> x.get_slice("Twissandra", "k", parent("Timeline"),
                                range(longName(1), longName(-1), false, 10), ONE)),
                rule("predicate name empty", "column name must not be empty",
                        x -> x.get_slice(KS, "k", parent("Standard1"), names("a", ""), ONE)),
                rule("predicate names under a super column use the subcomparator", "UUIDs must be exactly 16 bytes",
                        x -> x.get_slice("Twitter", "k", parent("StatusRelationships", "timeline"), names("x"), ONE)),
                rule("range bounds under a super column use the subcomparator", "UUIDs must be exactly 16 bytes",
                        x -> x.get_range_slices("Twitter", parent("StatusRelationships", "timeline"),
                                range("x", "", false, 10), keys("", "", 10), ONE)),

                // ---- KeyRange
                rule("start key alone", "start key and end key must either both be non-null, or both be null",
                        x -> x.get_range_slices(KS, parent("Standard1"), all(), new KeyRange(10).setStart_key("a"), ONE)),
                rule("end token alone", "start token and end token must either both be non-null, or both be null",
                        x -> x.get_range_slices(KS, parent("Standard1"), all(), new KeyRange(10).setEnd_token("1"), ONE)),
                rule("keys and tokens", "exactly one of {start key, end key} or {start token, end token} must be specified",
                        x -> x.get_range_slices(KS, parent("Standard1"), all(),
                                keys("", "", 10).setStart_token("0").setEnd_token("0"), ONE)),
                rule("neither keys nor tokens",
                        "exactly one of {start key, end key} or {start token, end token} must be specified",
                        x -> x.get_range_slices(KS, parent("Standard1"), all(), new KeyRange(10), ONE)),
                rule("row count 0", "maxRows must be positive",
                        x -> x.get_range_slices(KS, parent("Standard1"), all(), tokens("0", "0", 0), ONE)),
                rule("negative row count", "maxRows must be positive",
                        x -> x.get_range_slice(KS, parent("Standard1"), all(), "", "", -1, ONE)),

                // ---- writes
                rule("CoSC with neither field", "ColumnOrSuperColumn must have one or both of Column or SuperColumn",
                        x -> x.batch_insert(KS, "k", Map.of("Standard1", List.of(new ColumnOrSuperColumn())), ONE)),
                rule("CoSC column into a super CF", "supercolumn parameter is not optional for super CF Super1",
                        x -> x.batch_mutate(KS, batch("k", "Super1", insertion(column("a", "v", 1))), ONE)),
                rule("CoSC super column into a standard CF", "supercolumn parameter is invalid for standard CF Standard1",
                        x -> x.batch_mutate(KS, batch("k", "Standard1",
                                insertion(superColumn("sc", column("a", "v", 1)))), ONE)),
                rule("CoSC subcolumn checked by the subcomparator", "invalid UTF8 bytes [-1]",
                        x -> x.batch_insert(KS, "k", Map.of("Super2", List.of(cosc(new SuperColumn(b("sc"),
                                List.of(new org.apache.cassandra.thrift.Column(b((byte) 0xff), b("v"), 1)))))), ONE)),
                rule("CoSC with both, standard CF", "supercolumn parameter is invalid for standard CF Standard1",
                        x -> x.batch_insert(KS, "k", Map.of("Standard1", List.of(cosc(column("a", "v", 1))
                                .setSuper_column(superColumn("sc", column("b", "v", 1))))), ONE)),
                rule("CoSC with both, super CF: the column first", "supercolumn parameter is not optional for super CF Super1",
                        x -> x.batch_insert(KS, "k", Map.of("Super1", List.of(cosc(column("a", "v", 1))
                                .setSuper_column(superColumn("sc", column("b", "v", 1))))), ONE)),
                rule("Mutation with both", "Mutation may have either a ColumnOrSuperColumn or a Deletion, but not both",
                        x -> x.batch_mutate(KS, batch("k", "Standard1", bothInOneMutation()), ONE)),
                rule("Mutation with neither", "Mutation must have one ColumnOrSuperColumn or one Deletion",
                        x -> x.batch_mutate(KS, batch("k", "Standard1", new Mutation()), ONE)),
                rule("Deletion with an empty predicate",
                        "A SlicePredicate must be given a list of Columns, a SliceRange, or both",
                        x -> x.batch_mutate(KS, batch("k", "Standard1", deletion(1, null, new SlicePredicate())), ONE)),
                rule("Deletion with a backwards slice range", "range finish must come after start in the order of traversal",
                        x -> x.batch_mutate(KS, batch("k", "Standard1", deletion(1, null, range("b", "a", false, 1))), ONE)),
                rule("Deletion of a bad name", "column name must not be empty",
                        x -> x.batch_mutate(KS, batch("k", "Standard1", deletion(1, null, names(""))), ONE)),
                rule("Deletion name under a super column uses the subcomparator", "invalid UTF8 bytes [-1]",
                        x -> x.batch_mutate(KS, batch("k", "Super2",
                                deletion(1, "sc", nameBuffers(b((byte) 0xff)))), ONE)),
                rule("Deletion of a super column in a standard CF",
                        "deletion of super_column is not possible on a standard ColumnFamily (KeySpace=Keyspace1"
                                + " ColumnFamily=Standard1 Deletion=" + superDeletion + ")",
                        x -> x.batch_mutate(KS, batch("k", "Standard1", deletion(1, "sc", null)), ONE)),
                rule("Deletion-only batch, unknown CF (Sibyl)", "unconfigured columnfamily Nope",
                        x -> x.batch_mutate(KS, batch("k", "Nope", deletion(1, null, null)), ONE)),
                rule("Deletion-only batch, unknown keyspace (Sibyl)", "Keyspace Nope does not exist in this schema.",
                        x -> x.batch_mutate("Nope", batch("k", "Standard1", deletion(1, "sc", null)), ONE)),

                // ---- order of checks: the first problem in 0.6's order is the one reported
                rule("get: path before key", "unconfigured columnfamily Nope",
                        x -> x.get(KS, "", path("Nope", "c"), ZERO)),
                rule("get: keyspace before key", "Keyspace Nope does not exist in this schema.",
                        x -> x.get("Nope", "", path("Standard1", "c"), ZERO)),
                rule("get: key before consistency level", "Key may not be empty",
                        x -> x.get(KS, "", path("Standard1", "c"), ZERO)),
                rule("multiget: path before keys", "column parameter is not optional for standard CF Standard1",
                        x -> x.multiget(KS, List.of(""), path("Standard1"), ANY)),
                rule("get_slice: parent before predicate", "columnfamily alone is required for standard CF Standard1",
                        x -> x.get_slice(KS, "", parent("Standard1", "sc"), new SlicePredicate(), ZERO)),
                rule("get_slice: predicate before key", "predicate column_names and slice_range may not both be null",
                        x -> x.get_slice(KS, "", parent("Standard1"), new SlicePredicate(), ZERO)),
                rule("multiget_slice: predicate before keys", "get_slice requires non-negative count",
                        x -> x.multiget_slice(KS, List.of(""), parent("Standard1"), range("", "", false, -1), ZERO)),
                rule("multiget_slice: keys before consistency level", "Key may not be empty",
                        x -> x.multiget_slice(KS, List.of("k", ""), parent("Standard1"), all(), ANY)),
                rule("get_count: parent before key", "unconfigured columnfamily Nope",
                        x -> x.get_count(KS, "", parent("Nope"), ZERO)),
                rule("range: predicate before key range", "predicate column_names and slice_range may not both be null",
                        x -> x.get_range_slices(KS, parent("Standard1"), new SlicePredicate(), new KeyRange(0), ZERO)),
                rule("range: key range before consistency level", "maxRows must be positive",
                        x -> x.get_range_slices(KS, parent("Standard1"), all(), keys("", "", 0), ZERO)),
                rule("insert: key before keyspace", "Key may not be empty",
                        x -> x.insert("Nope", "", path("Nope", "c"), b("v"), 1, ONE)),
                rule("insert: key before path", "Key may not be empty",
                        x -> x.insert(KS, "", path("Standard1"), b("v"), 1, ONE)),
                rule("remove: key before path", "Key may not be empty",
                        x -> x.remove(KS, "", path("Standard1", "sc", null), 1, ONE)),
                rule("batch_insert: key before columns", "Key may not be empty",
                        x -> x.batch_insert(KS, "", Map.of("Nope", List.of(new ColumnOrSuperColumn())), ONE)),
                rule("remove: names before Sibyl's super CF check", "column name must not be empty",
                        x -> x.remove(KS, "k", pathOf("Super1", null, b()), 1, ONE)),
                rule("key range: row count before token parsing", "maxRows must be positive",
                        x -> x.get_range_slices(KS, parent("Standard1"), all(), tokens("x", "y", 0), ONE)),
                rule("key range: unparsable token (Sibyl)",
                        "invalid start token 'x' for org.apache.cassandra.dht.RandomPartitioner: ",
                        x -> x.get_range_slices(KS, parent("Standard1"), all(), tokens("x", "0", 10), ONE)),
                rule("CoSC: neither field before an unknown CF", "ColumnOrSuperColumn must have one or both of Column or SuperColumn",
                        x -> x.batch_insert(KS, "k", Map.of("Nope", List.of(new ColumnOrSuperColumn())), ONE)),
                rule("CoSC: empty super column into an unknown CF (Sibyl)", "unconfigured columnfamily Nope",
                        x -> x.batch_insert(KS, "k", Map.of("Nope", List.of(cosc(superColumn("sc")))), ONE)),
                rule("Deletion: predicate names before the standard CF super column check",
                        "supercolumn specified to ColumnFamily Standard1 containing normal columns",
                        x -> x.batch_mutate(KS, batch("k", "Standard1", deletion(1, "sc", names("a"))), ONE)),
                rule("Deletion: empty predicate before the standard CF super column check",
                        "A SlicePredicate must be given a list of Columns, a SliceRange, or both",
                        x -> x.batch_mutate(KS, batch("k", "Standard1", deletion(1, "sc", new SlicePredicate())), ONE)),
                rule("Deletion: range before names", "get_slice requires non-negative count",
                        x -> x.batch_mutate(KS, batch("k", "Super1", deletion(1, "sc",
                                names("").setSlice_range(range("", "", false, -1).getSlice_range()))), ONE)),
                rule("Deletion: super column shape with names", "supercolumn name must not be empty",
                        x -> x.batch_mutate(KS, batch("k", "Super1", deletion(1, "", names("a"))), ONE)),
                rule("Deletion: super column alone, empty (Sibyl)", "column name must not be empty",
                        x -> x.batch_mutate(KS, batch("k", "Super1", deletion(1, "", null)), ONE)),
                rule("batch_mutate: mutations in list order", "Mutation must have one ColumnOrSuperColumn or one Deletion",
                        x -> x.batch_mutate(KS, batch("k", "Standard1", insertion(column("a", "v", 1)), new Mutation(),
                                insertion(column("", "v", 1))), ONE)),
                rule("batch_mutate: mutations in list order, reversed", "column name must not be empty",
                        x -> x.batch_mutate(KS, batch("k", "Standard1", insertion(column("", "v", 1)), new Mutation()),
                                ONE)));
    }

    // ---- consistency levels on reads

    static Stream<Arguments> reads() {
        List<Arguments> out = new ArrayList<>();
        for (ConsistencyLevel cl : List.of(ZERO, ANY)) {
            String text = "Consistency level " + (cl == ZERO ? "zero" : "any") + " may not be applied to read operations";
            out.add(Arguments.of("get " + cl, text, (Call) x -> x.get(KS, "k", path("Standard1", "c"), cl)));
            out.add(Arguments.of("get_slice " + cl, text, (Call) x -> x.get_slice(KS, "k", parent("Standard1"), all(), cl)));
            out.add(Arguments.of("multiget " + cl, text,
                    (Call) x -> x.multiget(KS, List.of("k"), path("Standard1", "c"), cl)));
            out.add(Arguments.of("multiget_slice " + cl, text,
                    (Call) x -> x.multiget_slice(KS, List.of("k"), parent("Standard1"), all(), cl)));
            out.add(Arguments.of("get_count " + cl, text, (Call) x -> x.get_count(KS, "k", parent("Standard1"), cl)));
            out.add(Arguments.of("get_range_slice " + cl, text,
                    (Call) x -> x.get_range_slice(KS, parent("Standard1"), all(), "", "", 10, cl)));
            out.add(Arguments.of("get_range_slices " + cl, text,
                    (Call) x -> x.get_range_slices(KS, parent("Standard1"), all(), tokens("0", "0", 10), cl)));
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("reads")
    void readsRefuseZeroAndAny(String name, String expected, Call call) {
        assertEquals(expected, why(() -> call.run(c)));
    }

    @Test
    void theSystemKeyspaceIsReachable() throws Exception {
        assertEquals(List.of(), c.get_slice("system", "k", parent("LocationInfo"), all(), ONE));
        assertThrows(NotFoundException.class, () -> c.get("system", "k", path("HintsColumnFamily", "sc", null), ONE));
    }

    @Test
    void aZeroWriteBecomesVisible() throws Exception {
        c.insert(KS, "ve-zero", path("Standard1", "c"), b("v"), 1, ZERO);
        c.batch_mutate(KS, batch("ve-zero", "Standard1", insertion(column("d", "w", 1))), ZERO);
        c.remove(KS, "ve-zero-rm", path("Standard1"), 1, ZERO);
        long deadline = System.nanoTime() + 10_000_000_000L;
        int seen = 0;
        while (System.nanoTime() < deadline) {
            seen = c.get_count(KS, "ve-zero", parent("Standard1"), ONE);
            if (seen == 2) break;
            Thread.onSpinWait();
        }
        assertEquals(2, seen, "both ZERO writes applied within 10 s");
    }

    @Test
    void zeroWritesStillValidate() {
        assertEquals("column name must not be empty",
                why(() -> c.insert(KS, "ve-zero-bad", pathOf("Standard1", null, b()), b("v"), 1, ZERO)));
    }

    // ---- a replication factor of 3 on one node

    @ParameterizedTest
    @EnumSource(ConsistencyLevel.class)
    void writesAtEveryLevelSucceedWithReplicationFactorThree(ConsistencyLevel cl) throws Exception {
        String key = "ve-rf3-" + cl;
        if (backend == TestNode.Backend.CLUSTER && cl != ONE && cl != ANY && cl != ZERO) {
            // The one-node cluster counts its real replicas: one of three is no quorum. Each kind of write
            // statement carries the client's level: a column, a deletion, and a batch of several columns (a CQL
            // batch, which inherits nothing from the statements in it).
            assertThrows(UnavailableException.class, () -> c.insert("Triple", key, path("Std", "c"), b("v"), 1, cl));
            assertThrows(UnavailableException.class, () -> c.remove("Triple", key, path("Std", "c"), 1, cl));
            assertThrows(UnavailableException.class, () -> c.batch_mutate("Triple", batch(key, "Std",
                    insertion(column("a", "v", 1)), insertion(column("b", "v", 1))), cl));
            return;
        }
        c.insert("Triple", key, path("Std", "c"), b("v"), 1, cl);
        c.batch_mutate("Triple", batch(key, "Sup", insertion(superColumn("sc", column("x", "v", 1)))), cl);
        c.remove("Triple", key, path("Std", "gone"), 1, cl);
        if (cl == ZERO) return; // applied later; aZeroWriteBecomesVisible covers that
        assertEquals(1, c.get_count("Triple", key, parent("Std"), ONE));
        assertEquals(1, c.get_count("Triple", key, parent("Sup"), ONE));
    }

    @ParameterizedTest
    @EnumSource(value = ConsistencyLevel.class, names = {"QUORUM", "ALL", "DCQUORUM", "DCQUORUMSYNC"})
    void strongReadsAreUnavailableWithReplicationFactorThree(ConsistencyLevel cl) {
        List<Call> reads = List.of(
                x -> x.get("Triple", "k", path("Std", "c"), cl),
                x -> x.get_slice("Triple", "k", parent("Std"), all(), cl),
                x -> x.multiget("Triple", List.of("k"), path("Std", "c"), cl),
                x -> x.multiget_slice("Triple", List.of("k"), parent("Std"), all(), cl),
                x -> x.get_count("Triple", "k", parent("Std"), cl),
                x -> x.get_range_slice("Triple", parent("Std"), all(), "", "", 10, cl),
                x -> x.get_range_slices("Triple", parent("Std"), all(), tokens("0", "0", 10), cl));
        for (Call read : reads) assertThrows(UnavailableException.class, () -> read.run(c));
    }

    @Test
    void oneReadsServeReplicationFactorThreeAndStrongReadsServeFactorOne() throws Exception {
        c.insert("Triple", "ve-rf3-read", path("Std", "c"), b("v"), 1,
                backend == TestNode.Backend.EMBEDDED ? ConsistencyLevel.ALL : ONE);
        assertEquals(1, c.get_slice("Triple", "ve-rf3-read", parent("Std"), all(), ONE).size());
        for (ConsistencyLevel cl : List.of(ConsistencyLevel.QUORUM, ConsistencyLevel.ALL)) {
            assertEquals(0, c.get_count(KS, "ve-rf1", parent("Standard1"), cl));
            assertEquals(List.of(), c.get_slice(KS, "ve-rf1", parent("Standard1"), all(), cl));
        }
    }

    // ---- describe_splits arguments (Sibyl: a clear application error rather than 0.6's division by zero)

    @Test
    void describeSplitsRefusesBadArguments() throws Exception {
        TApplicationException zero = assertThrows(TApplicationException.class, () -> c.describe_splits("0", "0", 0));
        assertEquals(TApplicationException.PROTOCOL_ERROR, zero.getType());
        assertEquals("keys_per_split must be positive, not 0", zero.getMessage());
        Cassandra.Client fresh = NODE.node().client();
        TApplicationException token = assertThrows(TApplicationException.class,
                () -> fresh.describe_splits("not a number", "0", 128));
        assertTrue(token.getMessage().startsWith("bad token: "), token.getMessage());
        List<String> splits = NODE.node().client().describe_splits("0", "0", 128);
        assertEquals("0", splits.get(0), "the connection keeps working");
        assertEquals("0", splits.get(splits.size() - 1));
    }
}
