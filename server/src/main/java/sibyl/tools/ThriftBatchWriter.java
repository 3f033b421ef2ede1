package sibyl.tools;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.cassandra.thrift.AuthenticationException;
import org.apache.cassandra.thrift.AuthenticationRequest;
import org.apache.cassandra.thrift.AuthorizationException;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.cassandra.thrift.ConsistencyLevel;
import org.apache.cassandra.thrift.InvalidRequestException;
import org.apache.cassandra.thrift.Mutation;
import org.apache.cassandra.thrift.NotFoundException;
import org.apache.cassandra.thrift.TimedOutException;
import org.apache.cassandra.thrift.UnavailableException;
import org.apache.thrift.TApplicationException;
import org.apache.thrift.TConfiguration;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.TTransportException;
import org.apache.thrift.transport.layered.TFramedTransport;
import sibyl.db.CFMetaData;

/**
 * Writes rows into one column family of a running node through 0.6's {@code batch_mutate}, many rows per
 * call, each call at most about {@code maxBatchBytes} (a row larger than that is cut across calls: timestamps
 * settle everything, so the node ends up with the same row).
 *
 * <p>Every batch is idempotent: it carries versions with their own timestamps, which the node reconciles
 * with what it holds. So a batch that may or may not have been applied is simply sent again: after
 * TimedOutException, UnavailableException, "Server overloaded" and a lost connection (reconnecting), with
 * a delay doubling from {@link Retry#firstDelayMillis} up to {@link Retry#maxDelayMillis}, at most
 * {@link Retry#attempts} times. An InvalidRequestException stops the load: the batch's rows are sent one by
 * one to name the row the node refuses. Anything else the node answers stops it too.
 */
final class ThriftBatchWriter implements AutoCloseable {
    /** Where the node serves 0.6's Thrift interface, and how to log in (no login when {@code username} is null). */
    record Node(String host, int port, boolean framed, String username, String password) {
        @Override
        public String toString() {
            return host + ":" + port;
        }
    }

    /** How often, and after what delays, a batch that may not have been applied is sent again. */
    record Retry(int attempts, long firstDelayMillis, long maxDelayMillis) {
        static final Retry DEFAULT = new Retry(12, 100, 10_000);
    }

    /** How long to wait for a connection, and for an answer (batches of a few MB into a busy node). */
    private static final int CONNECT_TIMEOUT_MILLIS = 10_000;
    private static final int SOCKET_TIMEOUT_MILLIS = 120_000;

    private final Node node;
    private final CFMetaData columnFamily;
    private final ConsistencyLevel consistency;
    private final long maxBatchBytes;
    private final Retry retry;
    private final PrintStream notes;

    private TTransport transport;
    private Cassandra.Client client;

    /** The batch being filled: row key to its mutations, in ring order. */
    private Map<String, List<Mutation>> batch = new LinkedHashMap<>();
    private long batchBytes;
    private int rowsEndingInBatch;
    private String lastKeyInBatch;

    private long rowsSent;
    private long batchesSent;
    private long retries;
    private String lastKeySent;

    /**
     * @param notes where a retry is reported (one line each)
     */
    ThriftBatchWriter(Node node, CFMetaData columnFamily, ConsistencyLevel consistency, long maxBatchBytes, Retry retry,
                      PrintStream notes) {
        this.node = Objects.requireNonNull(node);
        this.columnFamily = Objects.requireNonNull(columnFamily);
        this.consistency = Objects.requireNonNull(consistency);
        if (maxBatchBytes <= 0) throw new IllegalArgumentException("batch size must be positive: " + maxBatchBytes);
        this.maxBatchBytes = maxBatchBytes;
        this.retry = Objects.requireNonNull(retry);
        this.notes = Objects.requireNonNull(notes);
    }

    /**
     * Connects, checks that the node has the column family with the same type and comparators as the
     * configuration the SSTables are read with, and logs in: before anything is sent.
     */
    void open() throws ToolError {
        try {
            connect();
        } catch (TTransportException e) {
            throw new ToolError("cannot connect to " + node + ": " + why(e)
                    + " (-h HOST and -p PORT name the node; by default ThriftAddress and ThriftPort of --conf)", e);
        }
        checkSchema();
    }

    private void connect() throws TTransportException, ToolError {
        TSocket socket = new TSocket(new TConfiguration(), node.host(), node.port(), SOCKET_TIMEOUT_MILLIS,
                CONNECT_TIMEOUT_MILLIS);
        TTransport t = node.framed() ? new TFramedTransport(socket) : socket;
        t.open();
        transport = t;
        client = new Cassandra.Client(new TBinaryProtocol(t));
        if (node.username() != null) login();
    }

    private void login() throws ToolError {
        try {
            client.login(columnFamily.keyspace(), new AuthenticationRequest(Map.of("username", node.username(),
                    "password", node.password() == null ? "" : node.password())));
        } catch (AuthenticationException e) {
            throw new ToolError("login to " + columnFamily.keyspace() + " at " + node + " as " + node.username()
                    + " refused: " + e.getWhy(), e);
        } catch (AuthorizationException e) {
            throw new ToolError(node.username() + " may not write to " + columnFamily.keyspace() + " at " + node + ": "
                    + e.getWhy(), e);
        } catch (TException e) {
            throw new ToolError("login to " + node + " failed: " + why(e), e);
        }
    }

    private void checkSchema() throws ToolError {
        String name = columnFamily.keyspace() + "." + columnFamily.name();
        Map<String, Map<String, String>> described;
        try {
            described = client.describe_keyspace(columnFamily.keyspace());
        } catch (NotFoundException e) {
            throw new ToolError("the node at " + node + " has no keyspace " + columnFamily.keyspace(), e);
        } catch (TException e) {
            throw new ToolError("describe_keyspace " + columnFamily.keyspace() + " at " + node + " failed: " + why(e), e);
        }
        Map<String, String> cf = described.get(columnFamily.name());
        if (cf == null) {
            throw new ToolError("the node at " + node + " has no column family " + columnFamily.name() + " in keyspace "
                    + columnFamily.keyspace() + " (it has " + described.keySet() + ")");
        }
        List<String> differences = new ArrayList<>();
        compare(differences, "Type", columnFamily.columnType(), cf.get("Type"));
        compare(differences, "CompareWith", columnFamily.comparator().className(), cf.get("CompareWith"));
        if (columnFamily.isSuper()) {
            compare(differences, "CompareSubcolumnsWith", columnFamily.subcomparator().className(),
                    cf.get("CompareSubcolumnsWith"));
        }
        if (!differences.isEmpty()) {
            throw new ToolError(name + " at " + node + " is not the column family the SSTables are read as: "
                    + String.join("; ", differences));
        }
    }

    private static void compare(List<String> differences, String attribute, String ours, String theirs) {
        if (!ours.equals(theirs)) differences.add(attribute + " is " + theirs + " there, " + ours + " in --conf");
    }

    /** Adds a row's mutations, sending full batches on the way. */
    void add(String key, RowMutations row) throws ToolError {
        for (Mutation m : row.mutations()) {
            long size = RowMutations.sizeOf(m);
            if (batchBytes + size > maxBatchBytes && !batch.isEmpty()) flush();
            batch.computeIfAbsent(key, k -> new ArrayList<>()).add(m);
            batchBytes += size;
        }
        rowsEndingInBatch++;
        lastKeyInBatch = key;
    }

    /** Sends what is left. */
    void flush() throws ToolError {
        if (batch.isEmpty()) return;
        Map<String, List<Mutation>> sending = batch;
        batch = new LinkedHashMap<>();
        batchBytes = 0;
        try {
            send(sending);
        } catch (InvalidRequestException e) {
            throw refusedRow(sending, e);
        }
        batchesSent++;
        rowsSent += rowsEndingInBatch;
        rowsEndingInBatch = 0;
        if (lastKeyInBatch != null) lastKeySent = lastKeyInBatch;
    }

    /** After a batch was refused: which row of it the node refuses, sending them one at a time. */
    private ToolError refusedRow(Map<String, List<Mutation>> refused, InvalidRequestException batchRefusal) throws ToolError {
        for (Map.Entry<String, List<Mutation>> row : refused.entrySet()) {
            try {
                send(Map.of(row.getKey(), row.getValue()));
            } catch (InvalidRequestException e) {
                return new ToolError("the node refused row '" + row.getKey() + "' of " + columnFamily.keyspace() + "."
                        + columnFamily.name() + ": " + e.getWhy() + sentSoFar(), e);
            }
        }
        return new ToolError("the node refused a batch of rows '" + refused.keySet().iterator().next() + "' to '"
                + lastKeyInBatch + "', but none of them alone: " + batchRefusal.getWhy() + sentSoFar(), batchRefusal);
    }

    private void send(Map<String, List<Mutation>> rows) throws ToolError, InvalidRequestException {
        Map<String, Map<String, List<Mutation>>> mutationMap = new LinkedHashMap<>();
        for (Map.Entry<String, List<Mutation>> row : rows.entrySet()) {
            mutationMap.put(row.getKey(), Map.of(columnFamily.name(), row.getValue()));
        }
        long delay = retry.firstDelayMillis();
        for (int attempt = 1; ; attempt++) {
            String failure;
            try {
                if (client == null) connect();
                client.batch_mutate(columnFamily.keyspace(), mutationMap, consistency);
                return;
            } catch (InvalidRequestException e) {
                throw e;
            } catch (TimedOutException e) {
                failure = "the node timed out (TimedOutException)";
            } catch (UnavailableException e) {
                failure = "too few replicas for " + consistency + " (UnavailableException)";
            } catch (TApplicationException e) {
                if (e.getMessage() == null || !e.getMessage().startsWith("Server overloaded")) {
                    throw new ToolError("the node failed a batch_mutate of rows '" + rows.keySet().iterator().next()
                            + "' on: " + why(e) + sentSoFar(), e);
                }
                failure = e.getMessage();
            } catch (TException e) {
                disconnect(); // a lost connection, a timeout, a garbled answer: start afresh
                failure = "the connection failed: " + why(e);
            }
            if (attempt >= retry.attempts()) {
                throw new ToolError("batch_mutate of rows '" + rows.keySet().iterator().next() + "' on failed "
                        + attempt + " times, the last time because " + failure + sentSoFar());
            }
            retries++;
            notes.println("sstableloader: " + failure + "; sending the batch again in " + delay + " ms");
            try {
                Thread.sleep(delay);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ToolError("interrupted" + sentSoFar(), e);
            }
            delay = Math.min(delay * 2, retry.maxDelayMillis());
        }
    }

    /** What was done before a failure, for its message: a load sent again does no harm. */
    private String sentSoFar() {
        return rowsSent == 0 ? "; no row was sent before"
                : "; the " + rowsSent + " rows before it, up to '" + lastKeySent + "' in ring order, were sent (a load"
                + " run again sends them again, which does no harm)";
    }

    private static String why(Exception e) {
        String m = e.getMessage();
        if (e.getCause() != null && e.getCause().getMessage() != null && (m == null || m.contains("java."))) {
            m = e.getCause().getMessage();
        }
        return m == null ? e.toString() : m;
    }

    long rowsSent() {
        return rowsSent;
    }

    long batchesSent() {
        return batchesSent;
    }

    /** How many times a batch was sent again. */
    long retries() {
        return retries;
    }

    private void disconnect() {
        if (transport != null) transport.close();
        transport = null;
        client = null;
    }

    @Override
    public void close() {
        disconnect();
    }
}
