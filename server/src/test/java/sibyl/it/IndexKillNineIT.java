package sibyl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.thrift.TException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sibyl.iface.v20.CfDef;
import sibyl.iface.v20.Column;
import sibyl.iface.v20.ColumnDef;
import sibyl.iface.v20.ColumnOrSuperColumn;
import sibyl.iface.v20.ColumnParent;
import sibyl.iface.v20.ColumnPath;
import sibyl.iface.v20.ConsistencyLevel;
import sibyl.iface.v20.IndexClause;
import sibyl.iface.v20.IndexExpression;
import sibyl.iface.v20.IndexOperator;
import sibyl.iface.v20.IndexType;
import sibyl.iface.v20.KeyRange;
import sibyl.iface.v20.KeySlice;
import sibyl.iface.v20.KsDef;
import sibyl.iface.v20.SlicePredicate;
import sibyl.iface.v20.SliceRange;

/**
 * A KEYS index agrees with the data after a kill -9 (docs/thrift-api-0.7.md §Secondary indexes): bin/server in
 * batch mode, a keyspace made by API with an indexed column, a client moving rows between values (and deleting
 * some) after an indexed read has built the index, killed with SIGKILL while it does, restarted. Then for every
 * value the indexed read answers exactly the rows a scan finds with it, and every acknowledged write is there.
 */
class IndexKillNineIT {
    private static final String KS = "IndexKill";
    private static final String CF = "Users";
    private static final int ROWS = 50;
    private static final int VALUES = 5;

    @TempDir
    Path dir;

    @Test
    void theIndexAgreesWithTheDataAfterAKill() throws Exception {
        Path conf = ForkedServer.installConf(dir, ForkedServer.batchSync("1"));
        ForkedServer server = ForkedServer.start(conf, dir.resolve("server-1.out"));
        Map<String, String> acknowledged = new ConcurrentHashMap<>();
        AtomicReference<String> inFlight = new AtomicReference<>();
        AtomicInteger writes = new AtomicInteger();
        long seed = new Random().nextLong();
        System.out.println("IndexKillNineIT seed " + seed);
        ExecutorService writer = Executors.newSingleThreadExecutor();
        try {
            try (V20Connection c = new V20Connection(server.port(), "Keyspace1")) {
                c.client.system_add_keyspace(new KsDef(KS, "org.apache.cassandra.locator.SimpleStrategy", List.of(
                        new CfDef(KS, CF).setColumn_metadata(List.of(new ColumnDef(utf8("state"),
                                "org.apache.cassandra.db.marshal.UTF8Type").setIndex_type(IndexType.KEYS)))))
                        .setStrategy_options(Map.of("replication_factor", "1")));
            }
            Future<?> moving = writer.submit(() -> {
                Random random = new Random(seed);
                try (V20Connection c = new V20Connection(server.port(), KS)) {
                    indexed(c, "v0"); // builds the index: from here on every write keeps it in step
                    for (long ts = 1; ; ts++) {
                        String key = "k" + random.nextInt(ROWS);
                        inFlight.set(key);
                        if (random.nextInt(8) == 0) {
                            c.client.remove(utf8(key), new ColumnPath(CF).setColumn(utf8("state")), ts, ConsistencyLevel.ONE);
                            acknowledged.put(key, "");
                        } else {
                            String value = "v" + random.nextInt(VALUES);
                            c.client.insert(utf8(key), new ColumnParent(CF), new Column(utf8("state")).setValue(utf8(value))
                                    .setTimestamp(ts), ConsistencyLevel.ONE);
                            acknowledged.put(key, value);
                        }
                        writes.incrementAndGet();
                    }
                } catch (TException killed) {
                    return null; // the connection died with the server
                }
            });
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (writes.get() < 500) {
                assertTrue(System.nanoTime() < deadline, "fewer than 500 writes in 60 s: " + writes.get());
                assertTrue(!moving.isDone(), "the writer stopped");
                Thread.sleep(10);
            }
            server.kill();
            moving.get(60, TimeUnit.SECONDS);
        } finally {
            writer.shutdownNow();
            server.kill();
        }
        ForkedServer again = ForkedServer.start(conf, dir.resolve("server-2.out"));
        try (V20Connection c = new V20Connection(again.port(), KS)) {
            List<String> all = new ArrayList<>();
            for (int v = 0; v < VALUES; v++) {
                String value = "v" + v;
                List<String> scanned = new ArrayList<>();
                for (KeySlice row : c.client.get_range_slices(new ColumnParent(CF), all(), new KeyRange(1000)
                        .setStart_key(utf8("")).setEnd_key(utf8("")), ConsistencyLevel.ONE)) {
                    for (ColumnOrSuperColumn col : row.columns) {
                        if (col.column.value.equals(utf8(value))) scanned.add(text(row.key));
                    }
                }
                assertEquals(scanned, indexed(c, value), "the rows with " + value + ", seed " + seed);
                all.addAll(scanned);
                for (String key : scanned) {
                    assertTrue(key.equals(inFlight.get()) || value.equals(acknowledged.get(key)),
                            key + " has " + value + ", acknowledged " + acknowledged.get(key) + ", seed " + seed);
                }
            }
            for (Map.Entry<String, String> ack : acknowledged.entrySet()) {
                if (!ack.getValue().isEmpty() && !ack.getKey().equals(inFlight.get())) {
                    assertTrue(all.contains(ack.getKey()), "acknowledged " + ack + " is indexed, seed " + seed);
                }
            }
        } finally {
            again.stop();
        }
    }

    private static List<String> indexed(V20Connection c, String value) throws TException {
        List<String> keys = new ArrayList<>();
        for (KeySlice row : c.client.get_indexed_slices(new ColumnParent(CF), new IndexClause(List.of(
                new IndexExpression(utf8("state"), IndexOperator.EQ, utf8(value))), utf8(""), 1000), all(),
                ConsistencyLevel.ONE)) {
            keys.add(text(row.key));
        }
        return keys;
    }

    private static SlicePredicate all() {
        return new SlicePredicate().setSlice_range(new SliceRange(utf8(""), utf8(""), false, 10));
    }

    private static String text(ByteBuffer b) {
        return StandardCharsets.UTF_8.decode(b.duplicate()).toString();
    }

    private static ByteBuffer utf8(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
    }
}
