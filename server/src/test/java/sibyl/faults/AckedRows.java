package sibyl.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.cassandra.thrift.Column;
import org.apache.cassandra.thrift.ColumnOrSuperColumn;
import org.apache.cassandra.thrift.ColumnParent;
import org.apache.cassandra.thrift.ConsistencyLevel;
import org.apache.cassandra.thrift.KeyRange;
import org.apache.cassandra.thrift.KeySlice;
import org.apache.cassandra.thrift.SlicePredicate;
import org.apache.thrift.TApplicationException;
import org.apache.thrift.TException;
import sibyl.it.ForkedServer;

/**
 * Rows of Keyspace1.Standard1 written through Thrift by several clients, every answer recorded in
 * a {@link WriteLedger}, and the check the disk-full tests end each step with: the node holds
 * exactly the acknowledged rows, each with its value. A row is one column {@code c} holding
 * about a KB derived from its key.
 */
final class AckedRows {
    static final String KS = "Keyspace1";
    static final String CF = "Standard1";
    static final int WRITERS = 4;
    private static final byte[] COLUMN = "c".getBytes(StandardCharsets.UTF_8);

    private AckedRows() {
    }

    /** Writes {@code perWriter} keys from each of {@link #WRITERS} clients; every one must be acknowledged. */
    static void writeAll(ForkedServer server, WriteLedger ledger, String prefix, int perWriter) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
        try {
            List<Future<?>> writers = new ArrayList<>();
            for (int t = 0; t < WRITERS; t++) {
                String thread = prefix + "t" + t + "-";
                writers.add(pool.submit(() -> {
                    Cassandra.Client client = server.client();
                    try {
                        for (int i = 0; i < perWriter; i++) write(client, ledger, thread + i);
                        return null;
                    } finally {
                        ForkedServer.close(client);
                    }
                }));
            }
            for (Future<?> w : writers) w.get(60, TimeUnit.SECONDS);
        } finally {
            pool.shutdown();
        }
        assertEquals(Map.of(), ledger.refused().entrySet().stream().filter(e -> e.getKey().startsWith(prefix))
                .collect(java.util.stream.Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue)),
                "writes succeed again once space is freed, without a restart");
        assertEquals(Map.of(), ledger.unknown());
    }

    /** One write, recorded in the ledger; false when the call broke off without an answer. */
    static boolean write(Cassandra.Client client, WriteLedger ledger, String key) {
        Column column = new Column(ByteBuffer.wrap(COLUMN), ByteBuffer.wrap(value(key)), System.currentTimeMillis());
        try {
            client.batch_insert(KS, key, Map.of(CF, List.of(new ColumnOrSuperColumn().setColumn(column))),
                    ConsistencyLevel.ONE);
            ledger.acked(key);
            return true;
        } catch (TApplicationException e) {
            ledger.refused(key, e.getMessage());
            return true;
        } catch (TException e) {
            ledger.unknown(key, e.toString());
            return false;
        }
    }

    /** About a KB derived from the key, so a torn or misplaced value cannot pass for the right one. */
    private static byte[] value(String key) {
        return (key + ":").repeat(1024 / (key.length() + 1) + 1).getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The node holds every acknowledged write with its value, none of the refused ones, and no
     * other row: a scan of the whole column family finds exactly the acknowledged keys.
     */
    static void assertHoldsExactly(ForkedServer server, WriteLedger ledger, String when) throws Exception {
        Cassandra.Client client = server.client();
        try {
            List<String> acked = ledger.ackedKeys();
            assertEquals(acked.size(), countReadable(client, acked), "acknowledged writes readable " + when);
            List<String> refused = new ArrayList<>(ledger.refused().keySet());
            assertEquals(0, countPresent(client, refused), "refused writes present " + when);
            assertEquals(new HashSet<>(acked), scanKeys(client), "the rows of " + CF + " " + when);
        } finally {
            ForkedServer.close(client);
        }
    }

    /** How many of the keys read back with their value (and nothing else). */
    static int countReadable(Cassandra.Client client, List<String> keys) throws TException {
        int readable = 0;
        for (Map.Entry<String, List<ColumnOrSuperColumn>> row : read(client, keys).entrySet()) {
            List<ColumnOrSuperColumn> cells = row.getValue();
            if (cells.size() == 1 && java.util.Arrays.equals(cells.get(0).getColumn().getValue(), value(row.getKey()))) {
                readable++;
            }
        }
        return readable;
    }

    /** How many of the keys have any column at all. */
    private static int countPresent(Cassandra.Client client, List<String> keys) throws TException {
        int present = 0;
        for (List<ColumnOrSuperColumn> cells : read(client, keys).values()) if (!cells.isEmpty()) present++;
        return present;
    }

    private static Map<String, List<ColumnOrSuperColumn>> read(Cassandra.Client client, List<String> keys)
            throws TException {
        SlicePredicate predicate = new SlicePredicate().setColumn_names(List.of(ByteBuffer.wrap(COLUMN)));
        Map<String, List<ColumnOrSuperColumn>> rows = new java.util.HashMap<>();
        for (int from = 0; from < keys.size(); from += 500) {
            List<String> some = keys.subList(from, Math.min(keys.size(), from + 500));
            rows.putAll(client.multiget_slice(KS, some, new ColumnParent(CF), predicate, ConsistencyLevel.ONE));
        }
        return rows;
    }

    /** Every key of the column family that has a column, paging through get_range_slices. */
    private static Set<String> scanKeys(Cassandra.Client client) throws TException {
        SlicePredicate predicate = new SlicePredicate().setColumn_names(List.of(ByteBuffer.wrap(COLUMN)));
        Set<String> keys = new HashSet<>();
        String start = "";
        while (true) {
            List<KeySlice> page = client.get_range_slices(KS, new ColumnParent(CF), predicate,
                    new KeyRange(1000).setStart_key(start).setEnd_key(""), ConsistencyLevel.ONE);
            boolean more = false;
            for (KeySlice row : page) {
                if (!row.getColumns().isEmpty()) keys.add(row.getKey());
                if (!row.getKey().equals(start)) more = true;
            }
            if (!more || page.size() < 1000) return keys;
            start = page.get(page.size() - 1).getKey();
        }
    }
}
