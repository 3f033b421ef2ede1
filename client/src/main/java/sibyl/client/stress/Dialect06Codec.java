package sibyl.client.stress;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.cassandra.thrift.ColumnOrSuperColumn;
import org.apache.cassandra.thrift.ColumnParent;
import org.apache.cassandra.thrift.ColumnPath;
import org.apache.cassandra.thrift.ConsistencyLevel;
import org.apache.cassandra.thrift.KeyRange;
import org.apache.cassandra.thrift.KeySlice;
import org.apache.cassandra.thrift.Mutation;
import org.apache.cassandra.thrift.NotFoundException;
import org.apache.cassandra.thrift.SlicePredicate;
import org.apache.thrift.TException;

/** Cassandra 0.6's calls, Sibyl's own: exactly what the generated client sends and reads. */
final class Dialect06Codec implements DialectCodec {
    private final String keyspace;
    private final ConsistencyLevel level;

    Dialect06Codec(String keyspace, ConsistencyLevel level) {
        this.keyspace = keyspace;
        this.level = level;
    }

    @Override
    public StressCall handshake() {
        return null;
    }

    @Override
    public void sendBatchMutate(Cassandra.Client client, Map<String, Map<String, List<Mutation>>> mutations)
            throws TException {
        client.send_batch_mutate(keyspace, mutations, level);
    }

    @Override
    public void receiveBatchMutate(Cassandra.Client client) throws TException {
        client.recv_batch_mutate();
    }

    @Override
    public void sendInsert(Cassandra.Client client, String key, ColumnPath path, byte[] value, long timestamp)
            throws TException {
        client.send_insert(keyspace, key, path, ByteBuffer.wrap(value), timestamp, level);
    }

    @Override
    public void receiveInsert(Cassandra.Client client) throws TException {
        client.recv_insert();
    }

    @Override
    public void sendGet(Cassandra.Client client, String key, ColumnPath path) throws TException {
        client.send_get(keyspace, key, path, level);
    }

    /** Through {@link StressClient} when it is one (bin/stress's connections), else the generated recv_get. */
    @Override
    public ColumnOrSuperColumn receiveGet(Cassandra.Client client) throws TException {
        if (client instanceof StressClient stress) {
            return stress.receiveGetOrNull();
        }
        try {
            return client.recv_get();
        } catch (NotFoundException e) {
            return null;
        }
    }

    @Override
    public void sendGetSlice(Cassandra.Client client, String key, ColumnParent parent, SlicePredicate predicate)
            throws TException {
        client.send_get_slice(keyspace, key, parent, predicate, level);
    }

    @Override
    public List<ColumnOrSuperColumn> receiveGetSlice(Cassandra.Client client) throws TException {
        return client.recv_get_slice();
    }

    @Override
    public void sendGetRangeSlices(Cassandra.Client client, ColumnParent parent, SlicePredicate predicate,
                                   KeyRange range) throws TException {
        client.send_get_range_slices(keyspace, parent, predicate, range, level);
    }

    @Override
    public List<KeySlice> receiveGetRangeSlices(Cassandra.Client client) throws TException {
        return client.recv_get_range_slices();
    }

    @Override
    public void sendMultigetSlice(Cassandra.Client client, List<String> keys, ColumnParent parent,
                                  SlicePredicate predicate) throws TException {
        client.send_multiget_slice(keyspace, keys, parent, predicate, level);
    }

    @Override
    public Map<String, List<ColumnOrSuperColumn>> receiveMultigetSlice(Cassandra.Client client) throws TException {
        return client.recv_multiget_slice();
    }
}
