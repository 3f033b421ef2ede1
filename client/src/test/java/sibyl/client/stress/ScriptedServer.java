package sibyl.client.stress;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.cassandra.thrift.Column;
import org.apache.cassandra.thrift.ColumnOrSuperColumn;
import org.apache.cassandra.thrift.InvalidRequestException;
import org.apache.thrift.TBase;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TMessage;
import org.apache.thrift.protocol.TMessageType;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.protocol.TProtocolUtil;
import org.apache.thrift.protocol.TType;
import org.apache.thrift.transport.TIOStreamTransport;
import org.apache.thrift.transport.TMemoryBuffer;
import org.apache.thrift.transport.TMemoryInputTransport;

/**
 * A 0.6 Thrift server that answers insert and get as a script says, for the failures a real server seldom shows: a
 * reply written in pieces, a connection closed halfway through a reply, no reply at all, a refusal. A get is
 * answered with column C0 holding {@link #VALUE}. Requests are numbered from 0 across all connections.
 */
final class ScriptedServer implements AutoCloseable {
    /** What to do with a request. */
    enum Action {
        /** The reply in one write. */
        REPLY,
        /** The reply in three writes, {@link #PIECE_PAUSE_MILLIS} apart, so that it arrives in pieces. */
        REPLY_IN_PIECES,
        /** Half of the reply, then the connection closed. */
        CLOSE_MID_REPLY,
        /** No reply; the connection stays open until the client closes it. */
        SILENT,
        /** An InvalidRequestException. */
        REFUSE
    }

    interface Script {
        Action action(int request);
    }

    static final byte[] VALUE = new byte[3000];
    static final long PIECE_PAUSE_MILLIS = 30;

    static {
        for (int i = 0; i < VALUE.length; i++) {
            VALUE[i] = (byte) ('a' + i % 26);
        }
    }

    private final boolean framed;
    private final Script script;
    private final ConnectionThreads connections;
    private final AtomicInteger requests = new AtomicInteger();

    ScriptedServer(boolean framed, Script script) throws IOException {
        this.framed = framed;
        this.script = script;
        this.connections = new ConnectionThreads("scripted", this::serve);
    }

    int port() {
        return connections.port();
    }

    /** Connections accepted so far. */
    int accepted() {
        return connections.accepted();
    }

    /** Requests read so far. */
    int requests() {
        return requests.get();
    }

    private void serve(Socket s) {
        try {
            DataInputStream in = new DataInputStream(s.getInputStream());
            OutputStream out = s.getOutputStream();
            while (true) {
                TMessage call;
                TProtocol request;
                if (framed) {
                    byte[] frame = new byte[in.readInt()];
                    in.readFully(frame);
                    request = new TBinaryProtocol(new TMemoryInputTransport(frame));
                } else {
                    request = new TBinaryProtocol(new TIOStreamTransport((InputStream) in));
                }
                call = request.readMessageBegin();
                TProtocolUtil.skip(request, TType.STRUCT);
                request.readMessageEnd();
                Action action = script.action(requests.getAndIncrement());
                if (action == Action.SILENT) {
                    continue; // the client gives up and closes; the next read here fails
                }
                byte[] reply = reply(call, action == Action.REFUSE);
                switch (action) {
                    case REPLY, REFUSE -> out.write(reply);
                    case REPLY_IN_PIECES -> {
                        int third = reply.length / 3;
                        out.write(reply, 0, third);
                        out.flush();
                        Thread.sleep(PIECE_PAUSE_MILLIS);
                        out.write(reply, third, third);
                        out.flush();
                        Thread.sleep(PIECE_PAUSE_MILLIS);
                        out.write(reply, 2 * third, reply.length - 2 * third);
                    }
                    case CLOSE_MID_REPLY -> {
                        out.write(reply, 0, reply.length / 2);
                        out.flush();
                        return;
                    }
                    default -> throw new AssertionError(action);
                }
                out.flush();
            }
        } catch (IOException | TException e) {
            // the client went away
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private byte[] reply(TMessage call, boolean refuse) throws TException {
        TBase<?, ?> result;
        InvalidRequestException ire = refuse ? new InvalidRequestException("refused by the script") : null;
        switch (call.name) {
            case "insert" -> result = new Cassandra.insert_result().setIre(ire);
            case "get" -> result = refuse ? new Cassandra.get_result().setIre(ire) : new Cassandra.get_result()
                    .setSuccess(new ColumnOrSuperColumn().setColumn(new Column().setName(Payload.columnName(0))
                            .setValue(VALUE).setTimestamp(1)));
            default -> throw new TException("the script answers insert and get, not " + call.name);
        }
        TMemoryBuffer buffer = new TMemoryBuffer(VALUE.length + 200);
        TProtocol out = new TBinaryProtocol(buffer);
        out.writeMessageBegin(new TMessage(call.name, TMessageType.REPLY, call.seqid));
        result.write(out);
        out.writeMessageEnd();
        byte[] body = buffer.getArray();
        int length = buffer.length();
        byte[] bytes = new byte[length + (framed ? 4 : 0)];
        if (framed) {
            bytes[0] = (byte) (length >>> 24);
            bytes[1] = (byte) (length >>> 16);
            bytes[2] = (byte) (length >>> 8);
            bytes[3] = (byte) length;
        }
        System.arraycopy(body, 0, bytes, framed ? 4 : 0, length);
        return bytes;
    }

    @Override
    public void close() throws IOException, InterruptedException {
        connections.close();
    }
}
