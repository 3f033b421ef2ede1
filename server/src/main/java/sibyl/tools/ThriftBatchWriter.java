package sibyl.tools;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.cassandra.thrift.ConsistencyLevel;
import org.apache.cassandra.thrift.Mutation;
import sibyl.db.CFMetaData;

/**
 * Writes rows into one column family of a running node through 0.6's {@code batch_mutate}: the caller's thread
 * fills batches of many rows, each at most about {@code maxBatchBytes} (a row larger than that is cut across
 * batches: timestamps settle everything, so the node ends up with the same row), and {@code connections}
 * threads send them, each over a {@link NodeConnection} of its own, so that reading the SSTables, sending and
 * the node's work overlap. Batches are independent (every version carries its timestamp), so their order of
 * arrival does not matter.
 *
 * <p>The first failure of any connection stops the load: the caller's next {@link #add} or {@link #finish}
 * throws it, batches still queued are not sent.
 */
final class ThriftBatchWriter implements AutoCloseable {
    private record Batch(Map<String, List<Mutation>> rows, int rowsEnding) {
    }

    /** Tells a sender that no batch follows. */
    private static final Batch END = new Batch(Map.of(), 0);

    private final NodeConnection.Node node;
    private final CFMetaData columnFamily;
    private final ConsistencyLevel consistency;
    private final long maxBatchBytes;
    private final NodeConnection.Retry retry;
    private final PrintStream notes;
    private final int connectionCount;

    private final List<NodeConnection> connections = new ArrayList<>();
    private final List<Thread> senders = new ArrayList<>();
    private final BlockingQueue<Batch> queue;
    private final AtomicReference<Exception> failure = new AtomicReference<>();
    private final AtomicLong rowsSent = new AtomicLong();
    private final AtomicLong batchesSent = new AtomicLong();

    /** The batch being filled: row key to its mutations, in ring order. */
    private Map<String, List<Mutation>> batch = new LinkedHashMap<>();
    private long batchBytes;
    private int rowsEndingInBatch;
    private boolean finished;

    /**
     * @param connections how many batches are sent at once, each over a connection of its own
     * @param notes       where a retry is reported (one line each)
     */
    ThriftBatchWriter(NodeConnection.Node node, CFMetaData columnFamily, ConsistencyLevel consistency, long maxBatchBytes,
                      int connections, NodeConnection.Retry retry, PrintStream notes) {
        this.node = Objects.requireNonNull(node);
        this.columnFamily = Objects.requireNonNull(columnFamily);
        this.consistency = Objects.requireNonNull(consistency);
        if (maxBatchBytes <= 0) throw new IllegalArgumentException("batch size must be positive: " + maxBatchBytes);
        if (connections <= 0) throw new IllegalArgumentException("connections must be positive: " + connections);
        this.maxBatchBytes = maxBatchBytes;
        this.connectionCount = connections;
        this.retry = Objects.requireNonNull(retry);
        this.notes = Objects.requireNonNull(notes);
        this.queue = new ArrayBlockingQueue<>(connections);
    }

    /**
     * Opens the connections (logged in) and checks that the node has the column family with the type and
     * comparators the SSTables are read with: before anything is sent.
     */
    void open() throws ToolError {
        for (int i = 0; i < connectionCount; i++) {
            NodeConnection c = new NodeConnection(node, columnFamily, consistency, retry, notes);
            connections.add(c);
            c.open();
            if (i == 0) c.checkSchema();
        }
        for (NodeConnection c : connections) {
            Thread t = new Thread(() -> sendAll(c), "sstableloader-sender-" + (senders.size() + 1));
            t.setDaemon(true);
            senders.add(t);
            t.start();
        }
    }

    /** A sender: sends each batch it takes until told the end; after any failure, only takes them off the queue. */
    private void sendAll(NodeConnection connection) {
        while (true) {
            Batch b;
            try {
                b = queue.take();
            } catch (InterruptedException e) {
                return;
            }
            if (b == END) return;
            if (failure.get() != null) continue;
            try {
                connection.send(b.rows());
                rowsSent.addAndGet(b.rowsEnding());
                batchesSent.incrementAndGet();
            } catch (ToolError | NodeConnection.RefusedRow | RuntimeException e) {
                failure.compareAndSet(null, e);
            }
        }
    }

    /** Adds a row's mutations, handing full batches to the senders on the way. */
    void add(String key, RowMutations row) throws ToolError {
        for (Mutation m : row.mutations()) {
            long size = RowMutations.sizeOf(m);
            if (batchBytes + size > maxBatchBytes && !batch.isEmpty()) handOff();
            batch.computeIfAbsent(key, k -> new ArrayList<>()).add(m);
            batchBytes += size;
        }
        rowsEndingInBatch++;
    }

    private void handOff() throws ToolError {
        Batch b = new Batch(batch, rowsEndingInBatch);
        batch = new LinkedHashMap<>();
        batchBytes = 0;
        rowsEndingInBatch = 0;
        put(b);
    }

    private void put(Batch b) throws ToolError {
        try {
            while (!queue.offer(b, 100, TimeUnit.MILLISECONDS)) throwFailure();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ToolError("interrupted" + sentSoFar(), e);
        }
        throwFailure();
    }

    /** Sends what is left and waits until every batch is sent. */
    void finish() throws ToolError {
        if (!batch.isEmpty()) handOff();
        finished = true;
        stopSenders();
        throwFailure();
    }

    /** One END per sender (each takes one and stops), then waits for them. */
    private void stopSenders() {
        try {
            int ends = 0;
            while (ends < senders.size() && senders.stream().anyMatch(Thread::isAlive)) {
                if (queue.offer(END, 100, TimeUnit.MILLISECONDS)) ends++; // a full queue drains: see sendAll
            }
            for (Thread t : senders) t.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            senders.forEach(Thread::interrupt);
        }
    }

    private void throwFailure() throws ToolError {
        Exception f = failure.get();
        if (f == null) return;
        if (f instanceof NodeConnection.RefusedRow r) {
            throw new ToolError("the node refused row '" + r.key + "' of " + columnFamily.keyspace() + "."
                    + columnFamily.name() + ": " + r.getMessage() + sentSoFar(), r);
        }
        String why = f instanceof ToolError ? f.getMessage() : "sending failed: " + f;
        throw new ToolError(why + sentSoFar(), f);
    }

    /** What was done before a failure, for its message: a load sent again does no harm. */
    private String sentSoFar() {
        long sent = rowsSent.get();
        return sent == 0 ? "; no row had been sent" : "; " + sent + " rows had been sent (a load run again sends"
                + " them again, which does no harm)";
    }

    /** Rows whose every mutation the node acknowledged. */
    long rowsSent() {
        return rowsSent.get();
    }

    long batchesSent() {
        return batchesSent.get();
    }

    /** How many times a batch was sent again. */
    long retries() {
        long sum = 0;
        for (NodeConnection c : connections) sum += c.retries();
        return sum;
    }

    /** Stops the senders (after a failure: whatever is still queued is not sent) and closes the connections. */
    @Override
    public void close() {
        if (!finished) {
            failure.compareAndSet(null, new ToolError("stopped"));
            stopSenders();
        }
        connections.forEach(NodeConnection::close);
    }
}
