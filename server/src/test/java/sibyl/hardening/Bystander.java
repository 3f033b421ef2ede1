package sibyl.hardening;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.cassandra.thrift.ColumnPath;
import org.apache.cassandra.thrift.ConsistencyLevel;

/**
 * A well-behaved client that writes and reads back, in a loop, while other clients misbehave. Every write must
 * read back as written; the first failure is kept and the loop ends.
 */
final class Bystander implements AutoCloseable {
    private final Cassandra.Client client;
    private final String name;
    private final Thread thread;
    private final AtomicLong roundTrips = new AtomicLong();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private volatile boolean stopping;

    Bystander(Cassandra.Client client, String name) {
        this.client = client;
        this.name = name;
        this.thread = new Thread(this::run, "bystander-" + name);
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        ColumnPath path = new ColumnPath("Standard1").setColumn("seen".getBytes(StandardCharsets.UTF_8));
        try {
            for (long n = 0; !stopping; n++) {
                String key = name + "-" + (n % 100);
                byte[] value = ("value " + n).getBytes(StandardCharsets.UTF_8);
                client.insert("Keyspace1", key, path, ByteBuffer.wrap(value), n, ConsistencyLevel.ONE);
                byte[] read = client.get("Keyspace1", key, path, ConsistencyLevel.ONE).getColumn().getValue();
                if (!java.util.Arrays.equals(value, read)) {
                    throw new AssertionError("bystander " + name + " wrote '" + new String(value, StandardCharsets.UTF_8)
                            + "' and read back '" + new String(read, StandardCharsets.UTF_8) + "'");
                }
                roundTrips.incrementAndGet();
            }
        } catch (Throwable t) {
            failure.set(t);
        }
    }

    long roundTrips() {
        return roundTrips.get();
    }

    /** Stops the loop; rethrows what went wrong in it, if anything. */
    @Override
    public void close() throws Exception {
        stopping = true;
        thread.join(30_000);
        if (thread.isAlive()) {
            throw new AssertionError("bystander " + name + " is stuck in a call");
        }
        Throwable t = failure.get();
        if (t != null) {
            throw new AssertionError("bystander " + name + " failed after " + roundTrips() + " round trips", t);
        }
    }
}
