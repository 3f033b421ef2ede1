package sibyl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.layered.TFramedTransport;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import sibyl.dht.BinaryKeys;
import sibyl.dht.Partitioner;
import sibyl.dht.Partitioners;
import sibyl.dht.Range;
import sibyl.dht.Token;
import sibyl.iface.v20.Cassandra;
import sibyl.iface.v20.CfSplit;
import sibyl.iface.v20.Column;
import sibyl.iface.v20.ColumnParent;
import sibyl.iface.v20.ConsistencyLevel;
import sibyl.iface.v20.InvalidRequestException;
import sibyl.iface.v20.KeyRange;
import sibyl.iface.v20.KeySlice;
import sibyl.iface.v20.SlicePredicate;
import sibyl.iface.v20.SliceRange;
import sibyl.iface.v20.TokenRange;

/**
 * A node of Murmur3Partitioner or ByteOrderedPartitioner over the wire: 0.7+ range slices by tokens and by keys select
 * the rows whose tokens lie in the range, in token order; the describe calls give tokens in the partitioner's form; a
 * bad token is refused in 3.11's words; and a 0.6 client's range scans by keys and describe_ring work as under 0.6's
 * partitioners. (The tokens themselves are 3.11's: PartitionerTokensTest.)
 */
class PartitionerRangeSlicesTest {
    private static final String KS = "Tokens";
    private static final ColumnParent CF = new ColumnParent("Rows");
    private static final SlicePredicate ALL = new SlicePredicate()
            .setSlice_range(new SliceRange(ByteBuffer.allocate(0), ByteBuffer.allocate(0), false, 10));

    @RegisterExtension
    static final NodeExtension MURMUR3 = node("Murmur3Partitioner");
    @RegisterExtension
    static final NodeExtension BYTE_ORDERED = node("ByteOrderedPartitioner");

    private static NodeExtension node(String partitioner) {
        return NodeExtension.embedded().edit(ConfEdits.addKeyspace(ConfEdits.keyspace(KS, 1, "<ColumnFamily Name=\"Rows\"/>",
                "<ColumnFamily Name=\"Six\"/>")))
                .edit(ConfEdits.partitioner("org.apache.cassandra.dht." + partitioner));
    }

    @ParameterizedTest
    @ValueSource(strings = {"Murmur3Partitioner", "ByteOrderedPartitioner"})
    void rangesOfTokensAndKeysInTheSeventhDialect(String name) throws Exception {
        Partitioner partitioner = Partitioners.forName(name);
        TestNode node = (name.startsWith("Murmur3") ? MURMUR3 : BYTE_ORDERED).node();
        List<byte[]> keys = keys(new Random(name.hashCode()));
        TTransport transport = new TFramedTransport(new TSocket("127.0.0.1", node.port(), 10_000));
        transport.open();
        try {
            Cassandra.Client client = new Cassandra.Client(new TBinaryProtocol(transport));
            client.set_keyspace(KS);
            for (byte[] key : keys) {
                client.insert(ByteBuffer.wrap(key), CF, new Column(ByteBuffer.wrap(new byte[] {1})).setValue(key).setTimestamp(1),
                        ConsistencyLevel.ONE);
            }
            List<byte[]> ring = new ArrayList<>(keys);
            ring.sort(Comparator.comparing(k -> partitioner.getToken(BinaryKeys.decode(k))));
            String minimum = partitioner.toString(partitioner.getMinimumToken());
            assertEquals(hex(ring), rows(client, new KeyRange(1000).setStart_token(minimum).setEnd_token(minimum)));
            assertEquals(hex(ring), rows(client, new KeyRange(1000).setStart_key(new byte[0]).setEnd_key(new byte[0])));

            Random random = new Random(name.hashCode() + 1);
            for (int i = 0; i < 20; i++) {
                Token a = token(partitioner, ring.get(random.nextInt(ring.size())));
                Token b = token(partitioner, ring.get(random.nextInt(ring.size())));
                Range range = new Range(a, b);
                List<byte[]> expected = new ArrayList<>();
                // (a, b] from just after a, in ring order: past a to the end of the ring, then from its start when it wraps.
                for (byte[] k : ring) if (range.contains(token(partitioner, k)) && token(partitioner, k).compareTo(a) > 0) expected.add(k);
                for (byte[] k : ring) if (range.contains(token(partitioner, k)) && token(partitioner, k).compareTo(a) <= 0) expected.add(k);
                KeyRange byTokens = new KeyRange(1000).setStart_token(partitioner.toString(a)).setEnd_token(partitioner.toString(b));
                assertEquals(hex(expected), rows(client, byTokens), range.toString());
            }
            assertEquals(hex(ring.subList(5, 21)),
                    rows(client, new KeyRange(1000).setStart_key(ring.get(5)).setEnd_key(ring.get(20))));

            assertEquals("org.apache.cassandra.dht." + name, client.describe_partitioner());
            for (TokenRange r : client.describe_ring(KS)) {
                assertEquals(r.start_token, partitioner.toString(partitioner.fromString(r.start_token)));
                assertEquals(r.end_token, partitioner.toString(partitioner.fromString(r.end_token)));
            }
            for (String t : client.describe_token_map().keySet()) assertEquals(t, partitioner.toString(partitioner.fromString(t)));
            String first = partitioner.toString(token(partitioner, ring.get(0)));
            String last = partitioner.toString(token(partitioner, ring.get(ring.size() - 1)));
            List<String> bounds = client.describe_splits(CF.column_family, first, last, 10);
            assertEquals(first, bounds.get(0));
            assertEquals(last, bounds.get(bounds.size() - 1));
            for (String t : bounds) partitioner.fromString(t);
            List<CfSplit> splits = client.describe_splits_ex(CF.column_family, first, last, 10);
            assertEquals(first, splits.get(0).start_token);
            assertEquals(last, splits.get(splits.size() - 1).end_token);

            InvalidRequestException bad = assertThrows(InvalidRequestException.class, () -> client.get_range_slices(CF, ALL,
                    new KeyRange(10).setStart_token("zz").setEnd_token(minimum), ConsistencyLevel.ONE));
            String why = name.startsWith("Murmur3")
                    ? "Invalid token for Murmur3Partitioner. Got zz but expected a long value (unsigned 8 bytes integer)."
                    : "Non-hex characters in zz";
            assertEquals("invalid start token 'zz' for org.apache.cassandra.dht." + name + ": " + why, bad.why);
        } finally {
            transport.close();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"Murmur3Partitioner", "ByteOrderedPartitioner"})
    void theSixthDialectScansByKeysAndDescribesTheRing(String name) throws Exception {
        Partitioner partitioner = Partitioners.forName(name);
        TestNode node = (name.startsWith("Murmur3") ? MURMUR3 : BYTE_ORDERED).node();
        org.apache.cassandra.thrift.Cassandra.Client c = node.client();
        org.apache.cassandra.thrift.ColumnParent parent = new org.apache.cassandra.thrift.ColumnParent("Six");
        org.apache.cassandra.thrift.ColumnPath path = new org.apache.cassandra.thrift.ColumnPath("Six")
                .setColumn(ByteBuffer.wrap("c".getBytes(StandardCharsets.UTF_8)));
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 30; i++) keys.add("six" + i);
        for (String k : keys) c.insert(KS, k, path, ByteBuffer.wrap(new byte[] {2}), 1, org.apache.cassandra.thrift.ConsistencyLevel.ONE);
        org.apache.cassandra.thrift.SlicePredicate all = new org.apache.cassandra.thrift.SlicePredicate()
                .setSlice_range(new org.apache.cassandra.thrift.SliceRange(ByteBuffer.allocate(0), ByteBuffer.allocate(0), false, 10));
        List<String> scanned = new ArrayList<>();
        for (org.apache.cassandra.thrift.KeySlice s : c.get_range_slices(KS, parent, all,
                new org.apache.cassandra.thrift.KeyRange(1000).setStart_key("").setEnd_key(""),
                org.apache.cassandra.thrift.ConsistencyLevel.ONE)) {
            scanned.add(s.getKey());
        }
        List<String> ring = new ArrayList<>(keys);
        ring.sort(Comparator.comparing(partitioner::getToken));
        assertEquals(ring, scanned);
        List<String> legacy = new ArrayList<>();
        for (org.apache.cassandra.thrift.KeySlice s : c.get_range_slice(KS, parent, all, ring.get(3), ring.get(12), 100,
                org.apache.cassandra.thrift.ConsistencyLevel.ONE)) {
            legacy.add(s.getKey());
        }
        assertEquals(ring.subList(3, 13), legacy);
        if (!partitioner.preservesOrder()) {
            org.apache.cassandra.thrift.InvalidRequestException backwards = assertThrows(
                    org.apache.cassandra.thrift.InvalidRequestException.class, () -> c.get_range_slices(KS, parent, all,
                            new org.apache.cassandra.thrift.KeyRange(10).setStart_key(ring.get(5)).setEnd_key(ring.get(2)),
                            org.apache.cassandra.thrift.ConsistencyLevel.ONE));
            assertEquals("start key's token sorts after end key's token.  this is not allowed; you probably should not"
                    + " specify end key at all except with an ordered partitioner", backwards.why);
        }
        for (org.apache.cassandra.thrift.TokenRange r : c.describe_ring(KS)) {
            assertEquals(r.start_token, partitioner.toString(partitioner.fromString(r.start_token)));
            assertEquals(r.end_token, partitioner.toString(partitioner.fromString(r.end_token)));
        }
        assertTrue(String.valueOf(c.get_string_property("token map")).contains("127.0.0.1"));
    }

    /** Keys of 1 to 24 random bytes, many not UTF-8, and a few words. */
    private static List<byte[]> keys(Random random) {
        List<byte[]> keys = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            byte[] key = new byte[1 + random.nextInt(24)];
            random.nextBytes(key);
            keys.add(key);
        }
        for (String w : List.of("alpha", "beta", "gamma", "ключ")) keys.add(w.getBytes(StandardCharsets.UTF_8));
        return keys;
    }

    private static Token token(Partitioner partitioner, byte[] key) {
        return partitioner.getToken(BinaryKeys.decode(key));
    }

    private static List<String> hex(List<byte[]> keys) {
        return keys.stream().map(HexFormat.of()::formatHex).toList();
    }

    private static List<String> rows(Cassandra.Client client, KeyRange range) throws Exception {
        List<String> keys = new ArrayList<>();
        for (KeySlice s : client.get_range_slices(CF, ALL, range, ConsistencyLevel.ONE)) keys.add(HexFormat.of().formatHex(s.getKey()));
        return keys;
    }
}
