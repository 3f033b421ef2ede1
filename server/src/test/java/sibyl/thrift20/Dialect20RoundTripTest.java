package sibyl.thrift20;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static sibyl.db.TestSchema.KS;
import static sibyl.db.TestSchema.STD;
import static sibyl.db.TestSchema.SUPER;
import static sibyl.thrift20.Text.b;
import static sibyl.thrift20.Text.s;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import sibyl.auth.AllowAllAuthenticator;
import sibyl.db.Cell;
import sibyl.db.QueryPath;
import sibyl.dht.BinaryKeys;
import sibyl.iface.v20.Cassandra;
import sibyl.iface.v20.Column;
import sibyl.iface.v20.ColumnOrSuperColumn;
import sibyl.iface.v20.ColumnParent;
import sibyl.iface.v20.ColumnPath;
import sibyl.iface.v20.ConsistencyLevel;
import sibyl.iface.v20.Deletion;
import sibyl.iface.v20.KeyRange;
import sibyl.iface.v20.InvalidRequestException;
import sibyl.iface.v20.KeySlice;
import sibyl.iface.v20.Mutation;
import sibyl.iface.v20.NotFoundException;
import sibyl.iface.v20.SlicePredicate;
import sibyl.iface.v20.SliceRange;
import sibyl.iface.v20.SuperColumn;

/**
 * Writes and reads through the 0.7+ dialect over a real socket, with the generated client: each data call, binary
 * keys that are not UTF-8, and the rows as the store (and so a 0.6 client) sees them. Run with calls answered on
 * the thread that read them and, as over a cluster, started there and answered later.
 */
class Dialect20RoundTripTest {
    private static final ConsistencyLevel ONE = ConsistencyLevel.ONE;
    /** Not UTF-8: a lone lead byte, a NUL, an overlong form, a byte above F4. */
    private static final byte[] BINARY_KEY = {(byte) 0xC3, 0, (byte) 0xC0, (byte) 0xAF, (byte) 0xFF};


    private static Column column(String name, String value, long timestamp) {
        return new Column(b(name)).setValue(b(value)).setTimestamp(timestamp);
    }

    private static SlicePredicate all() {
        return new SlicePredicate().setSlice_range(new SliceRange(b(""), b(""), false, 100));
    }

    private static List<String> names(List<ColumnOrSuperColumn> coscs) {
        List<String> names = new ArrayList<>();
        for (ColumnOrSuperColumn c : coscs) names.add(c.isSetColumn() ? s(c.column.name) : s(c.super_column.name));
        return names;
    }

    private static Mutation write(Column c) {
        return new Mutation().setColumn_or_supercolumn(new ColumnOrSuperColumn().setColumn(c));
    }

    @ParameterizedTest(name = "deferring={0}")
    @ValueSource(booleans = {false, true})
    void insertGetSliceCountAndRemove(boolean deferring) throws Exception {
        try (Dialect20Server server = new Dialect20Server(deferring, new AllowAllAuthenticator())) {
            Cassandra.Client client = server.client();
            client.set_keyspace(KS);
            ColumnParent parent = new ColumnParent(STD);
            for (String name : List.of("a", "b", "c")) client.insert(b("row"), parent, column(name, "v" + name, 1), ONE);

            ColumnPath path = new ColumnPath(STD).setColumn(b("b"));
            ColumnOrSuperColumn got = client.get(b("row"), path, ONE);
            assertEquals("vb", s(got.column.value));
            assertEquals(1, got.column.timestamp);
            assertFalse(got.column.isSetTtl());

            assertEquals(List.of("a", "b", "c"), names(client.get_slice(b("row"), parent, all(), ONE)));
            SlicePredicate firstTwo = new SlicePredicate().setSlice_range(new SliceRange(b(""), b(""), false, 2));
            assertEquals(List.of("a", "b"), names(client.get_slice(b("row"), parent, firstTwo, ONE)));
            SlicePredicate named = new SlicePredicate().setColumn_names(List.of(b("c"), b("zz")));
            assertEquals(List.of("c"), names(client.get_slice(b("row"), parent, named, ONE)));
            assertEquals(3, client.get_count(b("row"), parent, all(), ONE));
            // A range that runs backwards: get_slice refuses it, get_count counts nothing, as 3.11's do.
            SlicePredicate backwards = new SlicePredicate().setSlice_range(new SliceRange(b("c"), b("a"), false, 10));
            assertThrows(InvalidRequestException.class, () -> client.get_slice(b("row"), parent, backwards, ONE));
            assertEquals(0, client.get_count(b("row"), parent, backwards, ONE));
            // A Deletion's slice range runs from start to finish whatever its reversed flag, as in 3.11: a reversed
            // one deletes nothing (here, where a forward one from a to c at the columns' timestamp deletes all three).
            Deletion reversedRange = new Deletion().setTimestamp(1).setPredicate(
                    new SlicePredicate().setSlice_range(new SliceRange(b("c"), b("a"), true, 10)));
            client.batch_mutate(Map.of(b("row"), Map.of(STD, List.of(new Mutation().setDeletion(reversedRange)))), ONE);
            assertEquals(3, client.get_count(b("row"), parent, all(), ONE));
            assertEquals(2, client.get_count(b("row"), parent, firstTwo, ONE));
            // Two ranges of one name each, the greater first: both delete (3.11 drops the second, docs/differences.md
            // §Where 3.11 fails, Sibyl answers).
            List<Mutation> onePoints = new ArrayList<>();
            for (String name : List.of("c", "a")) {
                onePoints.add(new Mutation().setDeletion(new Deletion().setTimestamp(1).setPredicate(
                        new SlicePredicate().setSlice_range(new SliceRange(b(name), b(name), false, 10)))));
            }
            client.batch_mutate(Map.of(b("row"), Map.of(STD, onePoints)), ONE);
            assertEquals(List.of("b"), names(client.get_slice(b("row"), parent, all(), ONE)));
            client.insert(b("row"), parent, column("a", "va", 2), ONE);
            client.insert(b("row"), parent, column("c", "vc", 2), ONE);

            client.remove(b("row"), path, 2, ONE);
            assertThrows(NotFoundException.class, () -> client.get(b("row"), path, ONE));
            client.remove(b("row"), new ColumnPath(STD), 2, ONE);
            assertEquals(0, client.get_count(b("row"), parent, all(), ONE));
            // An older write than the row's tombstone stays deleted; a newer one is seen.
            client.insert(b("row"), parent, column("a", "old", 1), ONE);
            client.insert(b("row"), parent, column("d", "new", 3), ONE);
            assertEquals(List.of("d"), names(client.get_slice(b("row"), parent, all(), ONE)));
        }
    }

    @ParameterizedTest(name = "deferring={0}")
    @ValueSource(booleans = {false, true})
    void batchMutateMultigetAndRangeSlices(boolean deferring) throws Exception {
        try (Dialect20Server server = new Dialect20Server(deferring, new AllowAllAuthenticator())) {
            Cassandra.Client client = server.client();
            client.set_keyspace(KS);
            Map<ByteBuffer, Map<String, List<Mutation>>> batch = new HashMap<>();
            for (String key : List.of("k1", "k2", "k3")) {
                batch.put(b(key), Map.of(STD, List.of(write(column("x", key + "x", 5)), write(column("y", "y", 5)))));
            }
            SuperColumn sc = new SuperColumn(b("sc"), List.of(column("sub1", "s1", 5), column("sub2", "s2", 5)));
            batch.put(b("k1"), Map.of(STD, List.of(write(column("x", "k1x", 5)), write(column("y", "y", 5))),
                    SUPER, List.of(new Mutation().setColumn_or_supercolumn(new ColumnOrSuperColumn().setSuper_column(sc)))));
            client.batch_mutate(batch, ConsistencyLevel.QUORUM);

            ColumnParent parent = new ColumnParent(STD);
            Map<ByteBuffer, List<ColumnOrSuperColumn>> rows =
                    client.multiget_slice(List.of(b("k1"), b("k2"), b("k1"), b("none")), parent, all(), ONE);
            assertEquals(3, rows.size());
            assertEquals(List.of("x", "y"), names(rows.get(b("k1"))));
            assertEquals("k2x", s(rows.get(b("k2")).get(0).column.value));
            assertEquals(List.of(), rows.get(b("none")));
            Map<ByteBuffer, Integer> counts = client.multiget_count(List.of(b("k1"), b("none")), parent, all(), ONE);
            assertEquals(Map.of(b("k1"), 2, b("none"), 0), counts);

            List<ColumnOrSuperColumn> subcolumns = client.get_slice(b("k1"),
                    new ColumnParent(SUPER).setSuper_column(b("sc")), all(), ONE);
            assertEquals(List.of("sub1", "sub2"), names(subcolumns));
            // Reversed, as 3.11 answers: the super columns and each one's subcolumns in descending order.
            SuperColumn sc2 = new SuperColumn(b("sd"), List.of(column("sub3", "s3", 5)));
            client.batch_mutate(Map.of(b("k1"), Map.of(SUPER, List.of(new Mutation()
                    .setColumn_or_supercolumn(new ColumnOrSuperColumn().setSuper_column(sc2))))), ONE);
            SlicePredicate reversed = new SlicePredicate().setSlice_range(new SliceRange(b(""), b(""), true, 100));
            List<ColumnOrSuperColumn> backwards = client.get_slice(b("k1"), new ColumnParent(SUPER), reversed, ONE);
            assertEquals(List.of("sd", "sc"), names(backwards));
            assertEquals(List.of("sub2", "sub1"), names(backwards.get(1).super_column.columns.stream()
                    .map(c -> new ColumnOrSuperColumn().setColumn(c)).toList()));
            KeyRange k1Only = new KeyRange(1).setStart_key(b("k1")).setEnd_key(b("k1"));
            List<KeySlice> scanned = client.get_range_slices(new ColumnParent(SUPER), reversed, k1Only, ONE);
            assertEquals("sub2", s(scanned.get(0).columns.get(1).super_column.columns.get(0).name));
            assertEquals(List.of("sub2", "sub1"), names(client.get_slice(b("k1"),
                    new ColumnParent(SUPER).setSuper_column(b("sc")), reversed, ONE)));
            client.remove(b("k1"), new ColumnPath(SUPER).setSuper_column(b("sd")), 6, ONE);
            ColumnOrSuperColumn whole = client.get(b("k1"), new ColumnPath(SUPER).setSuper_column(b("sc")), ONE);
            assertEquals(2, whole.super_column.columns.size());

            // A deletion of named columns and one of a super column, in one batch.
            Deletion dropX = new Deletion().setTimestamp(6).setPredicate(new SlicePredicate().setColumn_names(List.of(b("x"))));
            Deletion dropSc = new Deletion().setTimestamp(6).setSuper_column(b("sc"));
            client.atomic_batch_mutate(Map.of(b("k1"), Map.of(STD, List.of(new Mutation().setDeletion(dropX)),
                    SUPER, List.of(new Mutation().setDeletion(dropSc)))), ONE);
            assertEquals(List.of("y"), names(client.get_slice(b("k1"), parent, all(), ONE)));
            assertEquals(0, client.get_count(b("k1"), new ColumnParent(SUPER), all(), ONE));

            KeyRange everything = new KeyRange(100).setStart_key(new byte[0]).setEnd_key(new byte[0]);
            List<KeySlice> slices = client.get_range_slices(parent, all(), everything, ONE);
            List<String> keys = new ArrayList<>();
            for (KeySlice k : slices) keys.add(s(k.key));
            assertEquals(3, keys.size());
            assertTrue(keys.containsAll(List.of("k1", "k2", "k3")), keys.toString());
            // By tokens: the whole ring from a token back round to itself.
            KeyRange ring = new KeyRange(100).setStart_token("0").setEnd_token("0");
            assertEquals(3, client.get_range_slices(parent, all(), ring, ONE).size());
            KeyRange two = new KeyRange(2).setStart_token("0").setEnd_token("0");
            assertEquals(2, client.get_range_slices(parent, all(), two, ONE).size());
        }
    }

    @ParameterizedTest(name = "deferring={0}")
    @ValueSource(booleans = {false, true})
    void binaryKeysAreStoredLosslesslyAndUtf8KeysAreThe06Rows(boolean deferring) throws Exception {
        try (Dialect20Server server = new Dialect20Server(deferring, new AllowAllAuthenticator())) {
            Cassandra.Client client = server.client();
            client.set_keyspace(KS);
            ColumnParent parent = new ColumnParent(STD);
            client.insert(ByteBuffer.wrap(BINARY_KEY), parent, column("c", "binary", 1), ONE);
            client.insert(b("caf\u00e9"), parent, column("c", "text", 1), ONE);

            ColumnPath path = new ColumnPath(STD).setColumn(b("c"));
            assertEquals("binary", s(client.get(ByteBuffer.wrap(BINARY_KEY), path, ONE).column.value));
            Map<ByteBuffer, List<ColumnOrSuperColumn>> rows =
                    client.multiget_slice(List.of(ByteBuffer.wrap(BINARY_KEY)), parent, all(), ONE);
            assertArrayEquals(BINARY_KEY, bytes(rows.keySet().iterator().next()));

            List<byte[]> keys = new ArrayList<>();
            for (KeySlice k : client.get_range_slices(parent, all(),
                    new KeyRange(10).setStart_key(new byte[0]).setEnd_key(new byte[0]), ONE)) {
                keys.add(k.getKey());
            }
            assertEquals(2, keys.size());
            assertTrue(keys.stream().anyMatch(k -> java.util.Arrays.equals(k, BINARY_KEY)), "the binary key comes back");

            // The store holds the UTF-8 key as the text a 0.6 client names it by.
            QueryPath c = QueryPath.column(STD, "c".getBytes(StandardCharsets.UTF_8));
            Cell cell = server.engine.get(KS, "caf\u00e9", c).orElseThrow();
            assertEquals("text", new String(((sibyl.db.Column) cell).value(), StandardCharsets.UTF_8));
            assertTrue(server.engine.get(KS, BinaryKeys.decode(BINARY_KEY), c).isPresent());
        }
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }
}
