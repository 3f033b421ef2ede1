package sibyl.tools;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
 * One Thrift connection to the node bin/sstableloader writes into, logged in to the keyspace when credentials
 * are given, sending batches of rows of one column family with {@code batch_mutate}.
 *
 * <p>Every batch is idempotent: it carries versions with their own timestamps, which the node reconciles
 * with what it holds. So a batch that may or may not have been applied is simply sent again: after
 * TimedOutException, UnavailableException, "Server overloaded" and a lost connection (reconnecting), with
 * a delay doubling from {@link Retry#firstDelayMillis} up to {@link Retry#maxDelayMillis}, at most
 * {@link Retry#attempts} times in all. A refused batch (InvalidRequestException) is sent again row by row,
 * to name the row the node refuses. Anything else the node answers fails the batch.
 */
final class NodeConnection implements AutoCloseable {
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

    /** A row the node refused: its key and the node's reason. */
    static final class RefusedRow extends Exception {
        private static final long serialVersionUID = 1L;
        final String key;

        RefusedRow(String key, String why, Throwable cause) {
            super(why, cause);
            this.key = key;
        }
    }

    /** How long to wait for a connection, and for an answer (batches of a few MB into a busy node). */
    private static final int CONNECT_TIMEOUT_MILLIS = 10_000;
    private static final int SOCKET_TIMEOUT_MILLIS = 120_000;

    private final Node node;
    private final CFMetaData columnFamily;
    private final ConsistencyLevel consistency;
    private final Retry retry;
    private final PrintStream notes;
    private TTransport transport;
    private Cassandra.Client client;
    private long retries;

    /**
     * @param notes where a retry is reported (one line each)
     */
    NodeConnection(Node node, CFMetaData columnFamily, ConsistencyLevel consistency, Retry retry, PrintStream notes) {
        this.node = node;
        this.columnFamily = columnFamily;
        this.consistency = consistency;
        this.retry = retry;
        this.notes = notes;
    }

    /** Connects (and logs in); a node that cannot be reached fails at once. */
    void open() throws ToolError {
        try {
            connect();
        } catch (TTransportException e) {
            throw new ToolError("cannot connect to " + node + ": " + why(e)
                    + " (-h HOST and -p PORT name the node; by default ThriftAddress and ThriftPort of --conf)", e);
        }
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

    /**
     * Checks that the node has the column family with the type and comparators of the configuration the
     * SSTables are read with (describe_keyspace, which needs no login).
     */
    void checkSchema() throws ToolError {
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

    /**
     * Sends a batch of rows (key to the column family's mutations), again as often as {@link Retry} allows.
     *
     * @throws RefusedRow when the node refuses a row of it
     * @throws ToolError  when the node keeps failing, or fails otherwise
     */
    void send(Map<String, List<Mutation>> rows) throws ToolError, RefusedRow {
        try {
            sendAgainUntilDone(rows);
        } catch (InvalidRequestException refusal) {
            for (Map.Entry<String, List<Mutation>> row : rows.entrySet()) {
                try {
                    sendAgainUntilDone(Map.of(row.getKey(), row.getValue()));
                } catch (InvalidRequestException e) {
                    throw new RefusedRow(row.getKey(), e.getWhy(), e);
                }
            }
            throw new RefusedRow(rows.keySet().iterator().next(), "the batch from it on, but none of its rows alone: "
                    + refusal.getWhy(), refusal);
        }
    }

    private void sendAgainUntilDone(Map<String, List<Mutation>> rows) throws ToolError, InvalidRequestException {
        Map<String, Map<String, List<Mutation>>> mutationMap = new LinkedHashMap<>();
        for (Map.Entry<String, List<Mutation>> row : rows.entrySet()) {
            mutationMap.put(row.getKey(), Map.of(columnFamily.name(), row.getValue()));
        }
        String first = rows.keySet().iterator().next();
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
                    throw new ToolError("the node failed a batch_mutate of the rows from '" + first + "' on: " + why(e), e);
                }
                failure = e.getMessage();
            } catch (TException e) {
                disconnect(); // a lost connection, a timeout, a garbled answer: start afresh
                failure = "the connection failed: " + why(e);
            }
            if (attempt >= retry.attempts()) {
                throw new ToolError("a batch_mutate of the rows from '" + first + "' on failed " + attempt
                        + " times, the last time because " + failure);
            }
            retries++;
            notes.println("sstableloader: " + failure + "; sending the batch again in " + delay + " ms");
            try {
                Thread.sleep(delay);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ToolError("interrupted", e);
            }
            delay = Math.min(delay * 2, retry.maxDelayMillis());
        }
    }

    /** How many times a batch was sent again. */
    long retries() {
        return retries;
    }

    private static String why(Exception e) {
        String m = e.getMessage();
        if (e.getCause() != null && e.getCause().getMessage() != null && (m == null || m.contains("java."))) {
            m = e.getCause().getMessage();
        }
        return m == null ? e.toString() : m;
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
