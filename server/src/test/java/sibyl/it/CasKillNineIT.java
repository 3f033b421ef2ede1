package sibyl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.thrift.TException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sibyl.iface.v20.CASResult;
import sibyl.iface.v20.Column;
import sibyl.iface.v20.ColumnPath;
import sibyl.iface.v20.ConsistencyLevel;

/**
 * A cas answered success is durable as any write (docs/thrift-api-0.7.md §cas): bin/server in batch mode, a
 * client moving a column from n to n + 1 by cas, killed with SIGKILL while it does, restarted. The column then
 * holds the last value a cas was answered success for, or the one after it (a cas under way at the kill, logged
 * but not answered).
 */
class CasKillNineIT {
    private static final String KS = "Keyspace1";
    private static final String CF = "Standard1";
    private static final ByteBuffer KEY = utf8("cas-counter");

    @TempDir
    Path dir;

    @Test
    void anAcknowledgedCasSurvivesAKill() throws Exception {
        Path conf = ForkedServer.installConf(dir, ForkedServer.batchSync("1"));
        ForkedServer server = ForkedServer.start(conf, dir.resolve("server-1.out"));
        AtomicInteger acknowledged = new AtomicInteger(-1);
        ExecutorService writer = Executors.newSingleThreadExecutor();
        try {
            Future<?> moving = writer.submit(() -> {
                try (V20Connection c = new V20Connection(server.port(), KS)) {
                    CASResult first = c.client.cas(KEY, CF, List.of(), List.of(column("0")), ConsistencyLevel.SERIAL,
                            ConsistencyLevel.ONE);
                    assertTrue(first.success);
                    acknowledged.set(0);
                    for (int n = 0; ; n++) {
                        CASResult r = c.client.cas(KEY, CF, List.of(column(String.valueOf(n))),
                                List.of(column(String.valueOf(n + 1))), ConsistencyLevel.SERIAL, ConsistencyLevel.ONE);
                        assertTrue(r.success, "the only writer's cas fails: " + r);
                        acknowledged.set(n + 1);
                    }
                } catch (TException killed) {
                    return null; // the connection died with the server
                }
            });
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (acknowledged.get() < 200) {
                assertTrue(System.nanoTime() < deadline, "fewer than 200 cas in 60 s: " + acknowledged.get());
                assertTrue(!moving.isDone(), "the writer stopped");
                Thread.sleep(10);
            }
            server.kill();
            moving.get(60, TimeUnit.SECONDS);
        } finally {
            writer.shutdownNow();
            server.kill();
        }
        int last = acknowledged.get();
        ForkedServer again = ForkedServer.start(conf, dir.resolve("server-2.out"));
        try (V20Connection c = new V20Connection(again.port(), KS)) {
            int value = Integer.parseInt(StandardCharsets.UTF_8.decode(c.client.get(KEY, new ColumnPath(CF)
                    .setColumn(utf8("n")), ConsistencyLevel.ONE).column.value).toString());
            assertTrue(value == last || value == last + 1, "after the kill " + value + ", last acknowledged " + last);
            // and cas goes on from there
            assertEquals(new CASResult(true), c.client.cas(KEY, CF, List.of(column(String.valueOf(value))),
                    List.of(column(String.valueOf(value + 1))), ConsistencyLevel.SERIAL, ConsistencyLevel.ONE));
        } finally {
            again.stop();
        }
    }

    private static Column column(String value) {
        return new Column(utf8("n")).setValue(utf8(value)).setTimestamp(1);
    }

    private static ByteBuffer utf8(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
    }
}
