package sibyl.client.stress;

import java.util.List;
import java.util.Map;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.cassandra.thrift.ColumnOrSuperColumn;
import org.apache.cassandra.thrift.ColumnParent;
import org.apache.cassandra.thrift.KeyRange;
import org.apache.cassandra.thrift.KeySlice;
import org.apache.cassandra.thrift.Mutation;
import org.apache.cassandra.thrift.SlicePredicate;
import org.apache.thrift.TException;

/**
 * Puts bin/stress's calls on the wire in one {@link Dialect} and reads their replies, through the protocols of a
 * generated client (whose transport is a socket, or an event loop's buffers). The keyspace and consistency level
 * are fixed per codec; one per connection, used by one thread at a time.
 */
interface DialectCodec {
    /** The call a connection makes once, before any other, each time it is opened; null if none. */
    StressCall handshake();

    void sendBatchMutate(Cassandra.Client client, Map<String, Map<String, List<Mutation>>> mutations)
            throws TException;

    void receiveBatchMutate(Cassandra.Client client) throws TException;

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
