package sibyl.it;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.layered.TFramedTransport;
import sibyl.iface.v20.Cassandra;
import sibyl.iface.v20.ColumnParent;
import sibyl.iface.v20.ConsistencyLevel;
import sibyl.iface.v20.InvalidRequestException;
import sibyl.iface.v20.NotFoundException;
import sibyl.iface.v20.SlicePredicate;
import sibyl.iface.v20.SliceRange;

/** Calls of the 0.7+ dialect made alike on two nodes (one per backend), with their answers rendered for comparison. */
final class ComparedCalls {
    private ComparedCalls() {
    }

    /** One call and what it is, for a failure's message. */
    record Call(String what, Action action) {
        @Override
        public String toString() {
            return what;
        }
    }

    interface Action {
        Object run(Cassandra.Client client) throws Exception;
    }

    /**
     * {@code n} slices of row {@code key} (named {@code k} in messages) by predicates {@code bounds} draws, at ONE,
     * every fifth also counted.
     */
    static void slicesAndCounts(List<Call> calls, String k, ByteBuffer key, ColumnParent parent, int n,
                                Supplier<SlicePredicate> bounds, Function<SliceRange, String> describe) {
        for (int i = 0; i < n; i++) {
            SlicePredicate predicate = bounds.get();
            String what = k + " " + describe.apply(predicate.getSlice_range());
            calls.add(new Call("slice " + what, client -> client.get_slice(key, parent, predicate,
                    ConsistencyLevel.ONE)));
            if (i % 5 == 0) {
                calls.add(new Call("count " + what, client -> client.get_count(key, parent, predicate,
                        ConsistencyLevel.ONE)));
            }
        }
    }

    /** A framed client of one node, with a keyspace set unless null; refusals render as answers. */
    static final class Client implements AutoCloseable {
        private final TTransport transport;
        private final Cassandra.Client client;
        private final Function<Object, String> render;

        Client(int port, String keyspace, Function<Object, String> render) throws Exception {
            this.render = render;
            transport = new TFramedTransport(new TSocket("127.0.0.1", port, 30_000));
            transport.open();
            client = new Cassandra.Client(new TBinaryProtocol(transport));
            if (keyspace != null) client.set_keyspace(keyspace);
        }

        Cassandra.Client thrift() {
            return client;
        }

        String answer(Call call) throws Exception {
            try {
                return render.apply(call.action().run(client));
            } catch (InvalidRequestException e) {
                return "InvalidRequestException: " + e.getWhy();
            } catch (NotFoundException e) {
                return "NotFoundException";
            }
        }

        @Override
        public void close() {
            transport.close();
        }
    }
}
