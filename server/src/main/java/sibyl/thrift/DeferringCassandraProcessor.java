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
 * A dialect over a store that asks another server (cluster mode): the calls of one or a few rows start on the
 * network thread and are answered when the cluster has ({@link DeferringProcessor}, {@link ThriftCalls#start});
 * every other call is run by the processor that waits, on a worker. Answers are written as the generated processor
 * writes them; arguments it cannot decode as PROTOCOL_ERROR.
 *
 * @param <H> the dialect's per-connection handler
 */
public final class DeferringCassandraProcessor<H> implements DeferringProcessor {
    private final H handler;
    private final ThriftCalls<H> calls;
    private final Set<String> deferred;
    private final TProcessor others;

    /**
     * @param deferred the calls of one or a few rows; range scans, counts and describe calls wait on a worker
     * @param others   runs the calls not deferred, on the same handler
     */
    public DeferringCassandraProcessor(H handler, ThriftCalls<H> calls, Set<String> deferred, TProcessor others) {
        this.handler = handler;
        this.calls = calls;
        this.deferred = Set.copyOf(deferred);
        this.others = others;
    }

    @Override
    public boolean defers(String method) {
        return deferred.contains(method);
    }

    @Override
    public void process(TProtocol in, TProtocol out) throws TException {
        others.process(in, out);
    }

    @Override
    public CompletionStage<Reply> start(TProtocol in) throws TException {
        TMessage message = in.readMessageBegin();
        if (!deferred.contains(message.name)) throw new IllegalStateException("not a deferred method: " + message.name);
        try {
            return calls.start(handler, message, in);
        } catch (TProtocolException e) {
            // As the generated processor answers arguments that do not decode (a required field missing).
            return CompletableFuture.completedFuture(out -> ThriftCalls.writeException(out, message,
                    new TApplicationException(TApplicationException.PROTOCOL_ERROR, e.getMessage())));
        }
    }
}
