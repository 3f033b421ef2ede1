package sibyl.thrift20;

import java.util.Objects;
import org.apache.thrift.TProcessor;
import sibyl.transport.ConnectionContext;
import sibyl.transport.ProcessorFactory;

/**
 * Serves both dialects on one port: each connection gets a processor of each dialect's factory and a
 * {@link DialectSwitch} between them.
 */
public final class DialectSwitchFactory implements ProcessorFactory {
    private final ProcessorFactory cassandra06;
    private final ProcessorFactory cassandra07;
    private final ThriftDialect initial;

    /** @param initial the dialect of a connection's calls until one shows its own (ThriftDialect in the conf) */
    public DialectSwitchFactory(ProcessorFactory cassandra06, ProcessorFactory cassandra07, ThriftDialect initial) {
        this.cassandra06 = Objects.requireNonNull(cassandra06, "cassandra06");
        this.cassandra07 = Objects.requireNonNull(cassandra07, "cassandra07");
        this.initial = Objects.requireNonNull(initial, "initial");
    }

    /** Quick where every dialect that has the method says so, as a call of either may come. */
    @Override
    public boolean isQuick(String method) {
        return DialectOfCall.everyDialectHaving(method,
                d -> (d == ThriftDialect.CASSANDRA_06 ? cassandra06 : cassandra07).isQuick(method));
    }

    @Override
    public TProcessor newProcessor(ConnectionContext connection) {
        return DialectSwitch.of(cassandra06.newProcessor(connection), cassandra07.newProcessor(connection), initial);
    }
}
