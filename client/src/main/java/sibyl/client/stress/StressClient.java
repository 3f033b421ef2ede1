package sibyl.client.stress;

import org.apache.cassandra.thrift.Cassandra;
import org.apache.cassandra.thrift.ColumnOrSuperColumn;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TProtocol;

/**
 * The generated client with one more way to read get's reply: {@link #receiveGetOrNull}, whose absent column is
 * null instead of a NotFoundException (see {@link GetResult}). The envelope is read by the generated client's own
 * code, which checks the sequence number of the call it sent.
 */
final class StressClient extends Cassandra.Client {
    StressClient(TProtocol in, TProtocol out) {
        super(in, out);
    }

    ColumnOrSuperColumn receiveGetOrNull() throws TException {
        GetResult result = new GetResult();
        receiveBase(result, "get");
        return result.columnOrNull();
    }
}
