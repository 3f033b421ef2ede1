package sibyl.thrift20;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.thrift.TBase;
import org.apache.thrift.TException;
import org.apache.thrift.TProcessor;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TMessage;
import org.apache.thrift.protocol.TMessageType;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.transport.TMemoryBuffer;
import org.apache.thrift.transport.TMemoryInputTransport;
import org.junit.jupiter.api.Test;
import sibyl.iface.v20.ColumnPath;
import sibyl.iface.v20.ConsistencyLevel;
import sibyl.transport.DeferringProcessor;
import sibyl.transport.ProcessorFactory;

/** Which processor a connection's calls reach, call after call, as the calls show their dialect or do not. */
class DialectSwitchTest {
    private final List<String> ran = new ArrayList<>();

    /** Records the call it is given and reads it whole, as a generated processor would. */
    private TProcessor recording(String dialect) {
        return (in, out) -> {
            TMessage m = in.readMessageBegin();
            ran.add(dialect + ":" + m.name);
            in.getTransport().consumeBuffer(in.getTransport().getBytesRemainingInBuffer());
        };
    }

    @Test
    void eachCallGoesToItsDialectAndCallsAlikeFollowTheLastShown() throws TException {
        TProcessor p = DialectSwitch.of(recording("06"), recording("07"), ThriftDialect.CASSANDRA_06);
        run(p, "describe_version", new Cassandra.describe_version_args());
        run(p, "get", get07());
        run(p, "describe_version", new Cassandra.describe_version_args());
        run(p, "get", get06());
        run(p, "describe_cluster_name", new Cassandra.describe_cluster_name_args());
        run(p, "set_keyspace", new sibyl.iface.v20.Cassandra.set_keyspace_args("Keyspace1"));
        run(p, "no_such_method", new Cassandra.describe_version_args());
        assertEquals(List.of("06:describe_version", "07:get", "07:describe_version", "06:get",
                "06:describe_cluster_name", "07:set_keyspace", "07:no_such_method"), ran);
    }

    @Test
    void theConfiguredDialectAnswersUntilACallShowsOne() throws TException {
        TProcessor p = DialectSwitch.of(recording("06"), recording("07"), ThriftDialect.CASSANDRA_07);
        run(p, "describe_keyspaces", new Cassandra.describe_keyspaces_args());
        run(p, "get_string_property", new Cassandra.get_string_property_args("version"));
        run(p, "describe_keyspaces", new Cassandra.describe_keyspaces_args());
        assertEquals(List.of("07:describe_keyspaces", "06:get_string_property", "06:describe_keyspaces"), ran);
    }

    @Test
    void aMethodDefersWhereEveryDialectThatHasItDefersIt() {
        TProcessor p = DialectSwitch.of(deferring(Set.of("get", "multiget")), deferring(Set.of("get", "insert", "add")),
                ThriftDialect.CASSANDRA_06);
        DeferringProcessor d = (DeferringProcessor) p;
        assertTrue(d.defers("get"));
        assertTrue(d.defers("multiget"), "0.6 only");
        assertTrue(d.defers("add"), "0.7 only");
        assertFalse(d.defers("insert"), "in both, deferred by one only");
        assertFalse(d.defers("no_such_method"));
        assertFalse(DialectSwitch.of(recording("06"), deferring(Set.of("get")), ThriftDialect.CASSANDRA_06)
                instanceof DeferringProcessor, "a processor that never defers makes the switch never defer");
    }

    @Test
    void aMethodIsQuickWhereEveryDialectThatHasItSaysSo() {
        ProcessorFactory f06 = quick(Set.of("get", "multiget"));
        ProcessorFactory f07 = quick(Set.of("get", "insert", "multiget_count"));
        DialectSwitchFactory f = new DialectSwitchFactory(f06, f07, ThriftDialect.CASSANDRA_06);
        assertTrue(f.isQuick("get"));
        assertTrue(f.isQuick("multiget"));
        assertTrue(f.isQuick("multiget_count"));
        assertFalse(f.isQuick("insert"));
        assertFalse(f.isQuick("no_such_method"));
    }

    private static ProcessorFactory quick(Set<String> methods) {
        return new ProcessorFactory() {
            @Override
            public TProcessor newProcessor(sibyl.transport.ConnectionContext connection) {
                throw new UnsupportedOperationException();
            }

            @Override
            public boolean isQuick(String method) {
                return methods.contains(method);
            }
        };
    }

    private static DeferringProcessor deferring(Set<String> methods) {
        return new DeferringProcessor() {
            @Override
            public boolean defers(String method) {
                return methods.contains(method);
            }

            @Override
            public CompletionStage<Reply> start(TProtocol in) {
                return CompletableFuture.completedFuture(out -> { });
            }

            @Override
            public void process(TProtocol in, TProtocol out) {
            }
        };
    }

    private static TBase<?, ?> get06() {
        return new Cassandra.get_args("Keyspace1", "k", new org.apache.cassandra.thrift.ColumnPath("Standard1"),
                org.apache.cassandra.thrift.ConsistencyLevel.ONE);
    }

    private static TBase<?, ?> get07() {
        return new sibyl.iface.v20.Cassandra.get_args(ByteBuffer.wrap(new byte[] {(byte) 0xff}),
                new ColumnPath("Standard1"), ConsistencyLevel.ONE);
    }

    private static void run(TProcessor p, String method, TBase<?, ?> args) throws TException {
        TMemoryBuffer buffer = new TMemoryBuffer(128);
        TBinaryProtocol out = new TBinaryProtocol(buffer);
        out.writeMessageBegin(new TMessage(method, TMessageType.CALL, 1));
        args.write(out);
        out.writeMessageEnd();
        byte[] bytes = Arrays.copyOf(buffer.getArray(), buffer.length());
        TProtocol in = new TBinaryProtocol(new TMemoryInputTransport(bytes));
        p.process(in, new TBinaryProtocol(new TMemoryBuffer(16)));
    }
}
