package sibyl.thrift;

import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.thrift.TApplicationException;
import org.apache.thrift.TException;
import org.apache.thrift.TProcessor;
import org.apache.thrift.protocol.TMessage;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.protocol.TProtocolException;
import sibyl.transport.DeferringProcessor;

/**
 * The 0.6 interface over a store that asks another server (cluster mode): the calls of one or a few rows start on
 * the network thread and are answered when the cluster has ({@link DeferringProcessor}, {@link CassandraCalls#start});
 * every other call is run by the processor that waits, on a worker. Answers are written as the generated processor
 * writes them; arguments it cannot decode as PROTOCOL_ERROR.
 */
final class DeferringCassandraProcessor implements DeferringProcessor {
    /** The calls of one or a few rows; range scans, counts and describe calls wait on a worker. */
    private static final Set<String> DEFERRED = Set.of("get", "get_slice", "multiget", "multiget_slice", "insert",
            "batch_insert", "remove", "batch_mutate");

    private final CassandraHandler handler;
    private final TProcessor others;

    /** @param others runs the calls not deferred, on the same handler */
    DeferringCassandraProcessor(CassandraHandler handler, TProcessor others) {
        this.handler = handler;
        this.others = others;
    }

    @Override
    public boolean defers(String method) {
        return DEFERRED.contains(method);
    }

    @Override
    public void process(TProtocol in, TProtocol out) throws TException {
        others.process(in, out);
    }

    @Override
    public CompletionStage<Reply> start(TProtocol in) throws TException {
        TMessage message = in.readMessageBegin();
        if (!DEFERRED.contains(message.name)) throw new IllegalStateException("not a deferred method: " + message.name);
        try {
            return CassandraCalls.start(handler, message, in);
        } catch (TProtocolException e) {
            // As the generated processor answers arguments that do not decode (a required field missing).
            return CompletableFuture.completedFuture(out -> CassandraCalls.writeException(out, message,
                    new TApplicationException(TApplicationException.PROTOCOL_ERROR, e.getMessage())));
        }
    }
}
