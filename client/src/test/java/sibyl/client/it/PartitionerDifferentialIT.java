package sibyl.client.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.thrift.TException;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import sibyl.iface.v20.Cassandra;
import sibyl.iface.v20.CfSplit;
import sibyl.iface.v20.Column;
import sibyl.iface.v20.ColumnParent;
import sibyl.iface.v20.Compression;
import sibyl.iface.v20.ConsistencyLevel;
import sibyl.iface.v20.CqlResult;
import sibyl.iface.v20.CqlRow;
import sibyl.iface.v20.KeyRange;
import sibyl.iface.v20.KeySlice;
import sibyl.iface.v20.SlicePredicate;
import sibyl.iface.v20.SliceRange;
import sibyl.iface.v20.TokenRange;

/**
 * Murmur3Partitioner and ByteOrderedPartitioner side by side with a real Cassandra 3.11 started with the same
 * partitioner: the same keys (short, long, ASCII, UTF-8 and bytes that are not UTF-8, a tail byte of 0x80 or more
 * among them) go into both; 3.11 says each key's token (CQL {@code token(key)}, over Thrift), and both must then give
 * the same rows in the same order for a whole-ring scan and for ranges of tokens cut at those tokens. describe_ring,
 * describe_splits(_ex) and a bad token are compared in form.
 *
 * <p>With {@code -Dsibyl.writeTokenData=true} it also writes the keys with 3.11's tokens to
 * server/src/test/resources/sibyl/dht/, the data of the server's unit test of the partitioners (PartitionerTokensTest):
 * <pre>mvn -B -ntp -o verify -pl interface,server,client -Dit.test=PartitionerDifferentialIT -Dsibyl.writeTokenData=true
 *     -Dtest=NoSuchTest -Dsurefire.failIfNoSpecifiedTests=false -Dfailsafe.failIfNoSpecifiedTests=false</pre>
 */
class PartitionerDifferentialIT {
    private static final String PACKAGE = "org.apache.cassandra.dht.";
    private static final ColumnParent FAMILY = new ColumnParent("StdBytes");
    private static final SlicePredicate ALL = new SlicePredicate()
            .setSlice_range(new SliceRange(ByteBuffer.allocate(0), ByteBuffer.allocate(0), false, 10));

    @ParameterizedTest
    @ValueSource(strings = {"Murmur3Partitioner", "ByteOrderedPartitioner"})
    void rangesByTokenAreThoseOf311(String partitioner, @TempDir Path dir) throws Exception {
        List<byte[]> keys = keys();
        try (Cassandra311Peer c311 = Cassandra311Peer.start(Files.createDirectories(dir.resolve("c311")), PACKAGE + partitioner)) {
            Cassandra.Client reference = c311.client();
            reference.system_add_keyspace(Diff07Schema.ksDef(Diff07Schema.KEYSPACE));
            reference.set_keyspace(Diff07Schema.KEYSPACE);
            Path sibylDir = Files.createDirectories(dir.resolve("sibyl"));
            LocalNode sibyl = LocalNode.configuredBy(sibylDir, DifferentialSchema.replace(Diff07Schema.storageConf(
                    Files.readString(LocalNode.home().resolve("conf/storage-conf.xml"))), "Partitioner", partitioner));
            sibyl.start("sibyl");
            Cassandra.Client subject = Cassandra311Peer.framedClient(thriftPort(sibylDir));
            try {
                subject.set_keyspace(Diff07Schema.KEYSPACE);
                for (Cassandra.Client c : List.of(reference, subject)) insert(c, keys);
                Map<String, String> tokens = tokensOf311(reference, partitioner);
                assertEquals(keys.size(), tokens.size(), "3.11 lists every key with its token");
                if (Boolean.getBoolean("sibyl.writeTokenData")) writeTokenData(partitioner, tokens);

                KeyRange ring = new KeyRange(1000).setStart_key(new byte[0]).setEnd_key(new byte[0]);
                List<String> order = rows(reference, ring);
                assertEquals(keys.size(), order.size());
                assertEquals(order, rows(subject, ring), "the whole ring in 3.11's order");
                // A range from one token to another holds the same rows in both (wrapping ones too).
                List<String> ordered = new ArrayList<>(order);
                Random random = new Random(partitioner.hashCode());
                for (int i = 0; i < 30; i++) {
                    String start = tokens.get(ordered.get(random.nextInt(ordered.size())));
                    String end = tokens.get(ordered.get(random.nextInt(ordered.size())));
                    KeyRange byTokens = new KeyRange(1000).setStart_token(start).setEnd_token(end);
                    assertEquals(rows(reference, byTokens), rows(subject, byTokens), "(" + start + ", " + end + "]");
                }
                KeyRange byKeys = new KeyRange(1000).setStart_key(HexFormat.of().parseHex(ordered.get(3)))
                        .setEnd_key(HexFormat.of().parseHex(ordered.get(ordered.size() - 3)));
                assertEquals(rows(reference, byKeys), rows(subject, byKeys), "a range of keys");

                Function<String, Boolean> form = partitioner.startsWith("Murmur3")
                        ? t -> t.matches("-?\\d+") && new java.math.BigInteger(t).bitLength() < Long.SIZE : t -> t.matches("([0-9a-f]{2})*");
                for (Cassandra.Client c : List.of(reference, subject)) {
                    assertEquals(PACKAGE + partitioner, c.describe_partitioner());
                    for (TokenRange r : c.describe_ring(Diff07Schema.KEYSPACE)) {
                        assertTrue(form.apply(r.start_token) && form.apply(r.end_token), "describe_ring: " + r);
                    }
                    for (String t : c.describe_token_map().keySet()) assertTrue(form.apply(t), "describe_token_map: " + t);
                }
                splitsOfTheSameShape(reference, subject, tokens, ordered, form);
                badTokenRefused(reference, subject, partitioner);
            } finally {
                Cassandra311Peer.close(subject);
                Cassandra311Peer.close(reference);
                sibyl.stop();
            }
        }
    }

    /** Each split runs from where the last ended, from the start token asked for to the end token, in both. */
    private static void splitsOfTheSameShape(Cassandra.Client reference, Cassandra.Client subject, Map<String, String> tokens,
                                             List<String> ordered, Function<String, Boolean> form) throws TException {
        String start = tokens.get(ordered.get(0));
        String end = tokens.get(ordered.get(ordered.size() - 1));
        for (Cassandra.Client c : List.of(reference, subject)) {
            List<String> bounds = c.describe_splits(FAMILY.column_family, start, end, 16);
            assertEquals(start, bounds.get(0));
            assertEquals(end, bounds.get(bounds.size() - 1));
            bounds.forEach(b -> assertTrue(form.apply(b), "describe_splits: " + b));
            List<CfSplit> splits = c.describe_splits_ex(FAMILY.column_family, start, end, 16);
            assertFalse(splits.isEmpty());
            assertEquals(start, splits.get(0).start_token);
            assertEquals(end, splits.get(splits.size() - 1).end_token);
            for (int i = 1; i < splits.size(); i++) assertEquals(splits.get(i - 1).end_token, splits.get(i).start_token);
        }
    }

    /**
     * A token not of the partitioner's form: 3.11 fails on it (it closes the connection, docs/differences.md §Where
     * 3.11 fails, Sibyl answers); Sibyl refuses it with the partitioner's own words.
     */
    private static void badTokenRefused(Cassandra.Client reference, Cassandra.Client subject, String partitioner) {
        KeyRange bad = new KeyRange(10).setStart_token("not a token").setEnd_token("not a token");
        String theirs = refusal(reference, bad);
        String ours = refusal(subject, bad);
        System.out.println("PartitionerDifferentialIT: a bad token: 3.11 " + theirs + "; Sibyl " + ours);
        assertFalse(theirs.startsWith("none"), "3.11 served a bad token");
        String why = partitioner.startsWith("Murmur3")
                ? "Invalid token for Murmur3Partitioner. Got not a token but expected a long value (unsigned 8 bytes integer)."
                : "Non-hex characters in 0not a token";
        assertEquals("InvalidRequestException: invalid start token 'not a token' for " + PACKAGE + partitioner + ": " + why,
                ours);
    }

    private static String refusal(Cassandra.Client client, KeyRange range) {
        try {
            client.get_range_slices(FAMILY, ALL, range, ConsistencyLevel.ONE);
            return "none: served";
        } catch (sibyl.iface.v20.InvalidRequestException e) {
            return "InvalidRequestException: " + e.why;
        } catch (TException e) {
            return e.getClass().getSimpleName() + ": " + e.getMessage();
        }
    }

    /**
     * Keys of every length from 1 to 40 bytes, random bytes (a fixed seed) with many above 0x7F, as well as words, UTF-8
     * text, and keys with one high byte in each place of the last, partial block of the hash.
     */
    static List<byte[]> keys() {
        List<byte[]> keys = new ArrayList<>();
        Random random = new Random(20261207L);
        for (int length = 1; length <= 40; length++) {
            byte[] key = new byte[length];
            random.nextBytes(key);
            keys.add(key);
        }
        for (String word : List.of("a", "b", "key", "key1", "key10", "Key", "apple", "zebra", "the quick brown fox",
                "schlüssel", "ключ", "鍵", "😀 emoji")) {
            keys.add(word.getBytes(StandardCharsets.UTF_8));
        }
        for (int at = 0; at < 15; at++) {
            byte[] key = "0123456789abcdef0123456789abcde".substring(0, 16 + at + 1).getBytes(StandardCharsets.US_ASCII);
            key[16 + at] = (byte) (0x80 + at * 8);
            keys.add(key);
        }
        return keys;
    }

    private static void insert(Cassandra.Client client, List<byte[]> keys) throws TException {
        for (byte[] key : keys) {
            Column column = new Column(ByteBuffer.wrap("c".getBytes(StandardCharsets.US_ASCII)))
                    .setValue(key).setTimestamp(1);
            client.insert(ByteBuffer.wrap(key), FAMILY, column, ConsistencyLevel.ONE);
        }
    }

    /** Each key (hex) with its token in the partitioner's string form, as 3.11's CQL gives them. */
    private static Map<String, String> tokensOf311(Cassandra.Client client, String partitioner) throws TException {
        CqlResult result = client.execute_cql3_query(ByteBuffer.wrap(("SELECT key, token(key) FROM \"" + Diff07Schema.KEYSPACE
                + "\".\"" + FAMILY.column_family + "\"").getBytes(StandardCharsets.UTF_8)), Compression.NONE, ConsistencyLevel.ONE);
        Map<String, String> tokens = new LinkedHashMap<>();
        for (CqlRow row : result.getRows()) {
            byte[] key = row.getColumns().get(0).getValue();
            ByteBuffer token = ByteBuffer.wrap(row.getColumns().get(1).getValue());
            tokens.put(HexFormat.of().formatHex(key), partitioner.startsWith("Murmur3") ? Long.toString(token.getLong())
                    : HexFormat.of().formatHex(token.array()));
        }
        return tokens;
    }

    private static void writeTokenData(String partitioner, Map<String, String> tokens) throws java.io.IOException {
        Path file = LocalNode.home().resolve("server/src/test/resources/sibyl/dht/" + partitioner + "-tokens.txt");
        StringBuilder text = new StringBuilder("# key (hex) and its token as Cassandra 3.11.19 with " + partitioner
                + " gives it; written by PartitionerDifferentialIT (-Dsibyl.writeTokenData=true)\n");
        tokens.forEach((key, token) -> text.append(key).append(' ').append(token).append('\n'));
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
        System.out.println("PartitionerDifferentialIT: wrote " + file);
    }

    /** The keys (hex) of a range slice, in the order given. */
    private static List<String> rows(Cassandra.Client client, KeyRange range) throws TException {
        List<String> keys = new ArrayList<>();
        for (KeySlice s : client.get_range_slices(FAMILY, ALL, range, ConsistencyLevel.ONE)) {
            keys.add(HexFormat.of().formatHex(s.getKey()));
        }
        return keys;
    }

    private static int thriftPort(Path dir) throws java.io.IOException {
        Matcher m = Pattern.compile("<ThriftPort>(\\d+)</ThriftPort>").matcher(Files.readString(dir.resolve("conf/storage-conf.xml")));
        if (!m.find()) throw new IllegalStateException("no ThriftPort in " + dir.resolve("conf/storage-conf.xml"));
        return Integer.parseInt(m.group(1));
    }
}
