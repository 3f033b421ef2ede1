package sibyl.client.stress;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.thrift.TException;
import org.apache.thrift.transport.TIOStreamTransport;

/**
 * A stand-in for a Redis server, for bin/stress --redis's unit tests: SET, GET and DBSIZE of strings, a thread per
 * connection, and every reply written a byte at a time, so that the client sees replies arrive in pieces. A key
 * marked with {@link #holdList} answers GET with WRONGTYPE, as a list's key does in Redis; other commands get
 * {@code -ERR unknown command}.
 */
final class FakeRedis implements AutoCloseable {
    private final Map<String, byte[]> strings = new ConcurrentHashMap<>();
    private final Set<String> lists = ConcurrentHashMap.newKeySet();
    private final ConnectionThreads connections;

    FakeRedis() throws IOException {
        connections = new ConnectionThreads("fake-redis", this::serve);
    }

    int port() {
        return connections.port();
    }

    /** Connections accepted so far. */
    int connections() {
        return connections.accepted();
    }

    Map<String, byte[]> strings() {
        return strings;
    }

    void holdList(String key) {
        strings.remove(key);
        lists.add(key);
    }

    private void serve(Socket s) throws IOException {
        try {
            TIOStreamTransport in = new TIOStreamTransport(new BufferedInputStream(s.getInputStream()));
            OutputStream out = s.getOutputStream();
            RespReader reader = new RespReader(1 << 20);
            while (true) {
                RespReply command = reader.read(in);
                byte[] reply = answer(((RespReply.ArrayReply) command).elements());
                for (byte b : reply) {
                    out.write(b);
                    out.flush();
                }
            }
        } catch (TException e) {
            // the client went away in the middle of a command
        }
    }

    private byte[] answer(List<RespReply> command) {
        String name = string(command.get(0)).toUpperCase(java.util.Locale.ROOT);
        String reply;
        if (name.equals("SET") && command.size() == 3) {
            String key = string(command.get(1));
            lists.remove(key);
            strings.put(key, ((RespReply.BulkString) command.get(2)).bytes());
            reply = "+OK\r\n";
        } else if (name.equals("GET") && command.size() == 2) {
            String key = string(command.get(1));
            byte[] value = strings.get(key);
            if (lists.contains(key)) {
                reply = "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n";
            } else if (value == null) {
                reply = "$-1\r\n";
            } else {
                reply = "$" + value.length + "\r\n" + new String(value, StandardCharsets.ISO_8859_1) + "\r\n";
            }
        } else if (name.equals("DBSIZE")) {
            reply = ":" + (strings.size() + lists.size()) + "\r\n";
        } else {
            reply = "-ERR unknown command '" + name + "'\r\n";
        }
        return reply.getBytes(StandardCharsets.ISO_8859_1);
    }

    private static String string(RespReply reply) {
        return new String(((RespReply.BulkString) reply).bytes(), StandardCharsets.ISO_8859_1);
    }

    @Override
    public void close() throws IOException, InterruptedException {
        connections.close();
    }
}
