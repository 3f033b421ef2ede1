package sibyl.tools;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.cassandra.thrift.AuthenticationRequest;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.cassandra.thrift.InvalidRequestException;
import org.apache.cassandra.thrift.Mutation;
import org.apache.cassandra.thrift.NotFoundException;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.server.TThreadPoolServer;
import org.apache.thrift.transport.TServerSocket;

/**
 * A stand-in node for bin/sstableloader's tests: serves describe_keyspace, login and batch_mutate of 0.6's
 * interface on a free local port, records every batch, and answers each batch_mutate as {@link #answer}
 * says (nothing: accepted), so tests can make it time out, be overloaded or refuse a row.
 */
final class FakeThriftNode implements AutoCloseable {
    /** How a batch_mutate call is answered: return to accept it, throw to fail it. */
    interface Answer {
        void answer(int call, Map<String, Map<String, List<Mutation>>> batch) throws TException;
    }

    final Map<String, Map<String, Map<String, String>>> keyspaces = new HashMap<>();
    final List<Map<String, Map<String, List<Mutation>>>> accepted = new ArrayList<>();
    final List<String> logins = java.util.Collections.synchronizedList(new ArrayList<>());
    volatile Answer answer = (call, batch) -> { };
    private int calls;
    private final TServerSocket socket;
    private final TThreadPoolServer server;
    private final Thread thread;

    FakeThriftNode() throws Exception {
        InvocationHandler handler = (proxy, method, args) -> {
            switch (method.getName()) {
                case "describe_keyspace" -> {
                    Map<String, Map<String, String>> ks = keyspaces.get((String) args[0]);
                    if (ks == null) throw new NotFoundException();
                    return ks;
                }
                case "login" -> {
                    AuthenticationRequest request = (AuthenticationRequest) args[1];
                    logins.add(args[0] + ":" + request.getCredentials().get("username") + ":"
                            + request.getCredentials().get("password"));
                    return null;
                }
                case "batch_mutate" -> {
                    @SuppressWarnings("unchecked")
                    Map<String, Map<String, List<Mutation>>> batch = (Map<String, Map<String, List<Mutation>>>) args[1];
                    int call;
                    synchronized (this) {
                        call = ++calls;
                    }
                    answer.answer(call, batch);
                    synchronized (accepted) {
                        accepted.add(batch);
                    }
                    return null;
                }
                default -> throw new InvalidRequestException("the fake node does not serve " + method.getName());
            }
        };
        Cassandra.Iface iface = (Cassandra.Iface) Proxy.newProxyInstance(Cassandra.Iface.class.getClassLoader(),
                new Class<?>[] {Cassandra.Iface.class}, handler);
        socket = new TServerSocket(new InetSocketAddress("127.0.0.1", 0));
        server = new TThreadPoolServer(new TThreadPoolServer.Args(socket).processor(new Cassandra.Processor<>(iface))
                .protocolFactory(new TBinaryProtocol.Factory()).minWorkerThreads(1).maxWorkerThreads(8)
                .stopTimeoutVal(1).stopTimeoutUnit(TimeUnit.SECONDS));
        thread = new Thread(server::serve, "fake-thrift-node");
        thread.setDaemon(true);
        thread.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!server.isServing() && System.nanoTime() < deadline) Thread.onSpinWait();
    }

    /** Gives the node a column family as describe_keyspace shows it. */
    FakeThriftNode columnFamily(String keyspace, String name, String type, String compareWith, String compareSubcolumnsWith) {
        Map<String, String> cf = new HashMap<>(Map.of("Type", type, "CompareWith", compareWith, "Desc", ""));
        if (compareSubcolumnsWith != null) cf.put("CompareSubcolumnsWith", compareSubcolumnsWith);
        keyspaces.computeIfAbsent(keyspace, k -> new HashMap<>()).put(name, cf);
        return this;
    }

    int port() {
        return socket.getServerSocket().getLocalPort();
    }

    synchronized int calls() {
        return calls;
    }

    @Override
    public void close() throws InterruptedException {
        server.stop();
        thread.join(5_000);
    }
}
