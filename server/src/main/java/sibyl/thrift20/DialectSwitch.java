package sibyl.thrift20;

import java.util.concurrent.CompletionStage;
import org.apache.thrift.TException;
import org.apache.thrift.TProcessor;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.transport.TTransport;
import sibyl.transport.DeferringProcessor;

/**
 * One connection's processor for both dialects: hands each call to the 0.6 processor or to the 0.7 one, as
 * {@link DialectOfCall} reads the call, and a call that does not say to the dialect the connection last showed
 * (at first the node's default, ThriftDialect in storage-conf.xml). The two processors share nothing but the
 * connection: a 0.6 login does not log a 0.7 call in, nor does a 0.7 set_keyspace reach 0.6 calls.
 *
 * <p>Deferring (cluster mode) when both processors are: a method defers when every dialect that has it defers it,
 * so that whichever processor a call goes to can start it.
 */
final class DialectSwitch implements DeferringProcessor {
    private final TProcessor cassandra06;
    private final TProcessor cassandra07;
    /** The dialect of the connection's last call that showed one; calls are run one at a time, on any thread. */
    private volatile ThriftDialect shown;

    DialectSwitch(TProcessor cassandra06, TProcessor cassandra07, ThriftDialect initial) {
        this.cassandra06 = cassandra06;
        this.cassandra07 = cassandra07;
        this.shown = initial;
    }

    /** A switch that defers where both processors do; plain when either processor never defers. */
    static TProcessor of(TProcessor cassandra06, TProcessor cassandra07, ThriftDialect initial) {
        DialectSwitch s = new DialectSwitch(cassandra06, cassandra07, initial);
        if (cassandra06 instanceof DeferringProcessor && cassandra07 instanceof DeferringProcessor) return s;
        return s.plain();
    }

    private TProcessor plain() {
        return this::process;
    }

    @Override
    public void process(TProtocol in, TProtocol out) throws TException {
        processorFor(in).process(in, out);
    }

    @Override
    public boolean defers(String method) {
        return DialectOfCall.everyDialectHaving(method, d -> defers(processor(d), method));
    }

    private static boolean defers(TProcessor processor, String method) {
        return processor instanceof DeferringProcessor d && d.defers(method);
    }

    @Override
    public CompletionStage<Reply> start(TProtocol in) throws TException {
        // defers() said yes for the method only where the processor it goes to defers it.
        return ((DeferringProcessor) processorFor(in)).start(in);
    }

    /** The processor of the call {@code in} is about to read, remembering the dialect it shows. */
    private TProcessor processorFor(TProtocol in) {
        ThriftDialect dialect = dialectOf(in.getTransport());
        if (dialect == null) {
            dialect = shown;
        } else if (dialect != shown) {
            shown = dialect;
        }
        return processor(dialect);
    }

    private TProcessor processor(ThriftDialect dialect) {
        return dialect == ThriftDialect.CASSANDRA_06 ? cassandra06 : cassandra07;
    }

    /** The dialect the unread call in {@code transport}'s buffer shows; null when it shows none or is not there. */
    private static ThriftDialect dialectOf(TTransport transport) {
        byte[] buf = transport.getBuffer();
        if (buf == null) return null;
        return DialectOfCall.of(buf, transport.getBufferPosition(), transport.getBytesRemainingInBuffer());
    }
}
