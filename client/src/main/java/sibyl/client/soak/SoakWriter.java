package sibyl.client.soak;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.cassandra.thrift.ColumnOrSuperColumn;
import org.apache.cassandra.thrift.ColumnParent;
import org.apache.cassandra.thrift.ConsistencyLevel;
import org.apache.cassandra.thrift.KeyRange;
import org.apache.cassandra.thrift.KeySlice;
import sibyl.client.BatchMutation;
import sibyl.client.ClientConfig;
import sibyl.client.ClientException;
import sibyl.client.Predicates;
import sibyl.client.SibylClient;

/**
 * One soak client thread: until the deadline, at its share of the write rate, writes new
 * standard or super rows (each acknowledged one goes to the {@link AckLog}), and in between
 * reads back rows it wrote and scans a range of rows, checking each row it sees is whole and
 * right. The node is killed under it from time to time: a call that breaks off counts as
 * unknown, and the thread reconnects until the node is back.
 */
final class SoakWriter implements Runnable {
    private static final long RECONNECT_PAUSE_MS = 100;
    private static final int BAD_READS_SHOWN = 5;

    private final String name;
    private final ClientConfig config;
    private final long deadlineNanos;
    private final long intervalNanos;
    private final Random random;
    private final AckLog acks;
    private final SoakCounts counts;
    private final PrintStream err;
    private final List<String> mine = new ArrayList<>();
    private SibylClient client;
    private long written;

    SoakWriter(String name, ClientConfig config, long deadlineNanos, double writesPerSecond, long seed, AckLog acks,
               SoakCounts counts, PrintStream err) {
        this.name = name;
        this.config = config;
        this.deadlineNanos = deadlineNanos;
        this.intervalNanos = (long) (TimeUnit.SECONDS.toNanos(1) / writesPerSecond);
        this.random = new Random(seed);
        this.acks = acks;
        this.counts = counts;
        this.err = err;
    }

    @Override
    public void run() {
        long next = System.nanoTime();
        try {
            while (System.nanoTime() < deadlineNanos) {
                if (!connected()) continue;
                next = pace(next);
                if (next < 0) break;
                write();
                if (client == null) continue; // the node went away under the write
                double extra = random.nextDouble();
                if (extra < 0.3 && !mine.isEmpty()) readBack();
                else if (extra < 0.35) scan();
            }
        } finally {
            if (client != null) client.close();
        }
    }

    /** Connects if not connected; false (after a pause) when the node cannot be reached. */
    private boolean connected() {
        if (client != null && client.isOpen()) return true;
        try {
            client = SibylClient.connect(config);
            return true;
        } catch (ClientException e) {
            counts.connectFailures.incrementAndGet();
            sleepMillis(RECONNECT_PAUSE_MS);
            return false;
        }
    }

    /** Waits for this thread's next write slot; a node that was down does not earn a burst. -1 past the deadline. */
    private long pace(long next) {
        long now = System.nanoTime();
        if (now - next > TimeUnit.SECONDS.toNanos(1)) next = now;
        if (next >= deadlineNanos) return -1;
        long wait = next - now;
        if (wait > 0) sleepMillis(TimeUnit.NANOSECONDS.toMillis(wait));
        return next + intervalNanos;
    }

    private void write() {
        long n = written++;
        String key = random.nextInt(4) == 0 ? SoakRows.superKey(name, n) : SoakRows.standardKey(name, n);
        BatchMutation batch = new BatchMutation();
        SoakRows.addTo(batch, key);
        try {
            client.batchMutate(SoakRows.KEYSPACE, batch, ConsistencyLevel.ONE);
        } catch (ClientException e) {
            (e.brokeConnection() ? counts.unknown : counts.refused).incrementAndGet();
            drop(e);
            return;
        }
        acks.acked(key);
        counts.acknowledged.incrementAndGet();
        mine.add(key);
    }

    private void readBack() {
        String key = mine.get(random.nextInt(mine.size()));
        try {
            List<ColumnOrSuperColumn> row = client.getSlice(SoakRows.KEYSPACE, key, SoakRows.parent(key),
                    Predicates.first(100), ConsistencyLevel.ONE);
            check(key, row);
        } catch (ClientException e) {
            readFailed(e);
        }
    }

    /** A page of rows from a random key: every soak row the scan returns must be whole. */
    private void scan() {
        String cf = random.nextBoolean() ? SoakRows.STANDARD : SoakRows.SUPER;
        String from = mine.isEmpty() ? "" : mine.get(random.nextInt(mine.size()));
        try {
            List<KeySlice> rows = client.getRangeSlices(SoakRows.KEYSPACE, new ColumnParent(cf), Predicates.first(100),
                    new KeyRange(20).setStart_key(from).setEnd_key(""), ConsistencyLevel.ONE);
            for (KeySlice row : rows) {
                if (!row.getColumns().isEmpty()) check(row.getKey(), row.getColumns());
            }
        } catch (ClientException e) {
            readFailed(e);
        }
    }

    private void check(String key, List<ColumnOrSuperColumn> row) {
        counts.reads.incrementAndGet();
        if (!SoakRows.isWhole(key, row) && counts.badReads.incrementAndGet() <= BAD_READS_SHOWN) {
            err.println("soak: bad read of " + key + ": " + row);
        }
    }

    /** A read the node answered with an error (not one cut off by a kill) is a bad read too. */
    private void readFailed(ClientException e) {
        if (!e.brokeConnection() && counts.badReads.incrementAndGet() <= BAD_READS_SHOWN) {
            err.println("soak: read failed: " + e.getMessage());
        }
        drop(e);
    }

    /** After a failed call: drops the connection if the failure broke it. */
    private void drop(ClientException e) {
        if (e.brokeConnection() && client != null) {
            client.close();
            client = null;
        }
    }

    private static void sleepMillis(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
