package sibyl.client.stress;

import java.util.List;
import java.util.Map;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.cassandra.thrift.ColumnOrSuperColumn;
import org.apache.cassandra.thrift.ColumnParent;
import org.apache.cassandra.thrift.ColumnPath;
import org.apache.cassandra.thrift.KeyRange;
import org.apache.cassandra.thrift.KeySlice;
import org.apache.cassandra.thrift.Mutation;
import org.apache.cassandra.thrift.SlicePredicate;
import org.apache.thrift.TException;

/**
 * Puts bin/stress's calls on the wire in one {@link Dialect} and reads their replies, through the protocols of a
 * generated client (whose transports are a {@link ThriftExchange}'s buffers). The keyspace and consistency level
 * are fixed per codec; one per connection, used by one thread at a time. {@link RespCodec} puts the plain insert
 * and get on the wire as Redis's SET and GET instead, through the same client's transports.
 */
interface DialectCodec {
    /** The call a connection makes once, before any other, each time it is opened; null if none. */
    StressCall handshake();

    void sendBatchMutate(Cassandra.Client client, Map<String, Map<String, List<Mutation>>> mutations)
            throws TException;

    void receiveBatchMutate(Cassandra.Client client) throws TException;

    /**
     * The plain insert of one column, the column named by {@code path} (column family, optional super column,
     * column): 0.6's insert carries the path, value and timestamp; 0.7's a ColumnParent and a Column.
     */
    void sendInsert(Cassandra.Client client, String key, ColumnPath path, byte[] value, long timestamp)
            throws TException;

    void receiveInsert(Cassandra.Client client) throws TException;

    /**
     * 0.7's add of {@code delta} to the counter {@code path} names. Only the 0.7 codec has it: 0.6 and Redis have no
     * counters, and the options refuse -o add but in the 0.7 dialect, so the others never see the call.
     */
    default void sendAdd(Cassandra.Client client, String key, ColumnPath path, long delta) throws TException {
        throw new UnsupportedOperationException("add is a call of Cassandra 0.7 and later");
    }

    default void receiveAdd(Cassandra.Client client) throws TException {
        throw new UnsupportedOperationException("add is a call of Cassandra 0.7 and later");
    }

    /** The plain get of the column {@code path} names. */
    void sendGet(Cassandra.Client client, String key, ColumnPath path) throws TException;

    /**
     * The column read; null when the row has no such column (the server's NotFoundException, an answer here rather
     * than a failure, read without making the exception where the client allows: see {@link GetResult}).
     */
    ColumnOrSuperColumn receiveGet(Cassandra.Client client) throws TException;

    void sendGetSlice(Cassandra.Client client, String key, ColumnParent parent, SlicePredicate predicate)
            throws TException;

    List<ColumnOrSuperColumn> receiveGetSlice(Cassandra.Client client) throws TException;

    void sendGetRangeSlices(Cassandra.Client client, ColumnParent parent, SlicePredicate predicate, KeyRange range)
            throws TException;

    List<KeySlice> receiveGetRangeSlices(Cassandra.Client client) throws TException;

    void sendMultigetSlice(Cassandra.Client client, List<String> keys, ColumnParent parent, SlicePredicate predicate)
            throws TException;

    Map<String, List<ColumnOrSuperColumn>> receiveMultigetSlice(Cassandra.Client client) throws TException;
}
