package sibyl.client.stress;

import org.apache.cassandra.thrift.Cassandra;
import org.apache.cassandra.thrift.ColumnOrSuperColumn;
import org.apache.cassandra.thrift.InvalidRequestException;
import org.apache.cassandra.thrift.TimedOutException;
import org.apache.cassandra.thrift.UnavailableException;
import org.apache.thrift.TApplicationException;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TField;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.protocol.TProtocolUtil;
import org.apache.thrift.protocol.TType;

/**
 * get's result (0: success, 1: ire, 2: nfe, 3: ue, 4: te in 0.6 and in 3.11), read without making the
 * NotFoundException the generated class makes for an absent column: bin/stress counts that answer as a missing row,
 * and filling in the exception's stack trace was 8% of its CPU on gets of absent keys. NotFoundException has no
 * fields, so nothing is lost by skipping it. The other fields are read as the generated class reads them.
 */
final class GetResult extends Cassandra.get_result {
    private boolean notFound;

    @Override
    public void read(TProtocol in) throws TException {
        in.readStructBegin();
        for (TField field = in.readFieldBegin(); field.type != TType.STOP; field = in.readFieldBegin()) {
            if (field.type != TType.STRUCT) {
                TProtocolUtil.skip(in, field.type);
            } else {
                switch (field.id) {
                    case 0 -> {
                        success = new ColumnOrSuperColumn();
                        success.read(in);
                    }
                    case 1 -> {
                        ire = new InvalidRequestException();
                        ire.read(in);
                    }
                    case 2 -> {
                        TProtocolUtil.skip(in, TType.STRUCT);
                        notFound = true;
                    }
                    case 3 -> {
                        ue = new UnavailableException();
                        ue.read(in);
                    }
                    case 4 -> {
                        te = new TimedOutException();
                        te.read(in);
                    }
                    default -> TProtocolUtil.skip(in, field.type);
                }
            }
            in.readFieldEnd();
        }
        in.readStructEnd();
    }

    /**
     * What the generated client's recv_get gives, in its order (success, then ire, nfe, ue, te), except that the
     * absent column is null instead of a NotFoundException.
     */
    ColumnOrSuperColumn columnOrNull() throws TException {
        if (success != null) {
            return success;
        }
        if (ire != null) {
            throw ire;
        }
        if (notFound) {
            return null;
        }
        if (ue != null) {
            throw ue;
        }
        if (te != null) {
            throw te;
        }
        throw new TApplicationException(TApplicationException.MISSING_RESULT, "get failed: unknown result");
    }
}
