package sibyl.transport;

import java.util.concurrent.CompletionStage;
import org.apache.thrift.TException;
import org.apache.thrift.TProcessor;
import org.apache.thrift.protocol.TProtocol;

/**
 * A processor some of whose calls wait for another server: it starts such a call on the network thread that read
 * it and answers it when the other server has, from whichever thread that happens on, holding no thread in
 * between. A call handed to a worker instead costs four thread wake-ups (network thread to worker, worker to the
 * other server's client and back, worker to network thread); a deferred one costs two.
 *
 * <p>The connection still runs one call at a time: the next call starts once the reply of a deferred call is
 * written. Calls it does not defer are run by {@link #process} as from any processor.
 */
public interface DeferringProcessor extends TProcessor {
    /**
     * Whether calls of {@code method} are started by {@link #start} rather than run by {@link #process}. Called on
     * network threads, so it must be cheap.
     */
    boolean defers(String method);

    /**
     * Reads the call (message header and arguments) from {@code in} and starts it, without waiting for anything.
     *
     * @return completes with the writer of the reply once the call has its answer, on whichever thread; or
     *         exceptionally with what the generated processor would have answered INTERNAL_ERROR for
     * @throws TException when the arguments cannot be read (answered as PROTOCOL_ERROR)
     */
    CompletionStage<Reply> start(TProtocol in) throws TException;

    /** A finished call's reply: writes the whole message (header, result, end). */
    @FunctionalInterface
    interface Reply {
        void writeTo(TProtocol out) throws TException;
    }
}
