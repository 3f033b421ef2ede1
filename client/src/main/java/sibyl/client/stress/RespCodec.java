package sibyl.client.stress;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.cassandra.thrift.Column;
import org.apache.cassandra.thrift.ColumnOrSuperColumn;
import org.apache.cassandra.thrift.ColumnParent;
import org.apache.cassandra.thrift.ColumnPath;
import org.apache.cassandra.thrift.KeyRange;
import org.apache.cassandra.thrift.KeySlice;
import org.apache.cassandra.thrift.Mutation;
import org.apache.cassandra.thrift.SlicePredicate;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TProtocolException;
import org.apache.thrift.transport.TTransport;

/**
 * bin/stress --redis: insert_column and get_column as Redis's {@code SET key value} and {@code GET key} in RESP2,
 * so that a Redis server is measured with the same client, connections and workload loop as Sibyl. The key is the
 * row key and the value that of column C0, both as the Thrift calls send them. The bytes go through the generated
 * client's transports, past its protocol: a {@link ThriftExchange}'s buffers, in either mode. Redis has no keyspace, column family, column name, timestamp or consistency level; StressOptions
 * refuses the options that set them and every other operation, so the other calls are never made.
 */
final class RespCodec implements DialectCodec {
    /** The longest value a GET may answer: Redis's own limit for a string (its proto-max-bulk-len default). */
    static final int MAX_VALUE_BYTES = 512 * 1024 * 1024;

    private static final byte[] SET = {'S', 'E', 'T'};
    private static final byte[] GET = {'G', 'E', 'T'};

    private final RespReader reader = new RespReader(MAX_VALUE_BYTES);
    /** The name of the column the outstanding GET reads: its value comes back as that column. */
    private byte[] getColumn;

    @Override
    public StressCall handshake() {
        return null; // RESP2 is what a Redis connection speaks from the start
    }

    @Override
    public void sendInsert(Cassandra.Client client, String key, ColumnPath path, byte[] value, long timestamp)
            throws TException {
        send(client, RespCommand.encode(SET, key.getBytes(StandardCharsets.UTF_8), value));
    }

    @Override
    public void receiveInsert(Cassandra.Client client) throws TException {
        RespReply reply = reader.read(in(client));
        if (!(reply instanceof RespReply.SimpleString s && s.text().equals("OK"))) {
            throw refusal("SET", reply);
        }
    }

    @Override
    public void sendGet(Cassandra.Client client, String key, ColumnPath path) throws TException {
        getColumn = path.getColumn();
        send(client, RespCommand.encode(GET, key.getBytes(StandardCharsets.UTF_8)));
    }

    /** The value as the column the get asked for; nil (no such key) as null, as an absent column of a Thrift get. */
    @Override
    public ColumnOrSuperColumn receiveGet(Cassandra.Client client) throws TException {
        RespReply reply = reader.read(in(client));
        if (!(reply instanceof RespReply.BulkString bulk)) {
            throw refusal("GET", reply);
        }
        if (bulk.isNil()) {
            return null;
        }
        return new ColumnOrSuperColumn().setColumn(new Column().setName(getColumn).setValue(bulk.bytes()));
    }

    private static void send(Cassandra.Client client, byte[] command) throws TException {
        TTransport out = client.getOutputProtocol().getTransport();
        out.write(command);
        out.flush();
    }

    private static TTransport in(Cassandra.Client client) {
        return client.getInputProtocol().getTransport();
    }

    /** An error reply as the server's refusal; any other reply is one the command never gets: the stream is off. */
    private static TException refusal(String command, RespReply reply) {
        if (reply instanceof RespReply.ErrorReply error) {
            return new RedisErrorReply(error.text());
        }
        return new TProtocolException(command + " was answered " + RespReply.describe(reply)
                + ", which Redis never answers it");
    }

    // ---- the calls --redis does not make (StressOptions refuses their operations) ----

    @Override
    public void sendBatchMutate(Cassandra.Client client, Map<String, Map<String, List<Mutation>>> mutations) {
        throw notSent("batch_mutate");
    }

    @Override
    public void receiveBatchMutate(Cassandra.Client client) {
        throw notSent("batch_mutate");
    }

    @Override
    public void sendGetSlice(Cassandra.Client client, String key, ColumnParent parent, SlicePredicate predicate) {
        throw notSent("get_slice");
    }

    @Override
    public List<ColumnOrSuperColumn> receiveGetSlice(Cassandra.Client client) {
        throw notSent("get_slice");
    }

    @Override
    public void sendGetRangeSlices(Cassandra.Client client, ColumnParent parent, SlicePredicate predicate,
                                   KeyRange range) {
        throw notSent("get_range_slices");
    }

    @Override
    public List<KeySlice> receiveGetRangeSlices(Cassandra.Client client) {
        throw notSent("get_range_slices");
    }

    @Override
    public void sendMultigetSlice(Cassandra.Client client, List<String> keys, ColumnParent parent,
                                  SlicePredicate predicate) {
        throw notSent("multiget_slice");
    }

    @Override
    public Map<String, List<ColumnOrSuperColumn>> receiveMultigetSlice(Cassandra.Client client) {
        throw notSent("multiget_slice");
    }

    private static UnsupportedOperationException notSent(String call) {
        return new UnsupportedOperationException("--redis has no " + call + ": only SET and GET");
    }
}
