package sibyl.client.stress;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.thrift.protocol.TProtocolException;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.TTransportException;

/**
 * Reads RESP2 replies (see {@link RespReply}) from a transport: a socket's, where a read waits for the bytes, or an
 * event loop's buffer of what has arrived so far, where running out of bytes ends the read with the transport's
 * {@link TTransportException} and the loop reads again from the start once more has come. A reply that breaks the
 * protocol is a {@link TProtocolException}: the connection cannot be trusted after it. One per connection.
 */
final class RespReader {
    /** The longest line (status, error, length) accepted: Redis's own are far shorter. */
    static final int MAX_LINE_BYTES = 64 * 1024;
    /** Arrays nested deeper than this are refused: no reply to SET, GET or DBSIZE nests at all. */
    private static final int MAX_DEPTH = 32;

    private final int maxBulkBytes;
    private final byte[] one = new byte[1];
    private final byte[] crlf = new byte[2];
    private byte[] line = new byte[64];

    /** @param maxBulkBytes the longest bulk string accepted; a longer one is refused before it is read */
    RespReader(int maxBulkBytes) {
        this.maxBulkBytes = maxBulkBytes;
    }

    /**
     * Reads one whole reply.
     *
     * @throws TTransportException when the transport has no more bytes (or its socket failed)
     * @throws TProtocolException  when the bytes are not a RESP2 reply
     */
    RespReply read(TTransport in) throws TTransportException, TProtocolException {
        return read(in, 0);
    }

    private RespReply read(TTransport in, int depth) throws TTransportException, TProtocolException {
        byte type = readByte(in);
        int length = readLine(in);
        switch (type) {
            case '+':
                return new RespReply.SimpleString(text(length));
            case '-':
                return new RespReply.ErrorReply(text(length));
            case ':':
                return new RespReply.IntegerReply(number(length));
            case '$': {
                long n = number(length);
                if (n == -1) {
                    return new RespReply.BulkString(null);
                }
                if (n < 0 || n > maxBulkBytes) {
                    throw new TProtocolException("a bulk string of " + n + " bytes (at most " + maxBulkBytes
                            + " are accepted)");
                }
                byte[] bytes = new byte[(int) n];
                in.readAll(bytes, 0, bytes.length);
                in.readAll(crlf, 0, 2);
                if (crlf[0] != '\r' || crlf[1] != '\n') {
                    throw new TProtocolException("a bulk string of " + n + " bytes not followed by CRLF");
                }
                return new RespReply.BulkString(bytes);
            }
            case '*': {
                long n = number(length);
                if (n == -1) {
                    return new RespReply.ArrayReply(null);
                }
                if (n < 0 || n > Integer.MAX_VALUE) {
                    throw new TProtocolException("an array of " + n + " elements");
                }
                if (depth >= MAX_DEPTH) {
                    throw new TProtocolException("arrays nested more than " + MAX_DEPTH + " deep");
                }
                // Not presized from n: a bad count must not allocate before the elements are there.
                List<RespReply> elements = new ArrayList<>();
                for (long i = 0; i < n; i++) {
                    elements.add(read(in, depth + 1));
                }
                return new RespReply.ArrayReply(elements);
            }
            default:
                throw new TProtocolException(String.format("not a RESP2 reply: it starts with byte 0x%02x", type));
        }
    }

    private byte readByte(TTransport in) throws TTransportException {
        in.readAll(one, 0, 1);
        return one[0];
    }

    /** Reads up to CRLF into {@link #line}; returns the length before the CRLF. */
    private int readLine(TTransport in) throws TTransportException, TProtocolException {
        int length = 0;
        while (true) {
            byte b = readByte(in);
            if (b == '\r') {
                if (readByte(in) != '\n') {
                    throw new TProtocolException("a CR not followed by LF in a reply line");
                }
                return length;
            }
            if (b == '\n') {
                throw new TProtocolException("a LF without CR in a reply line");
            }
            if (length == MAX_LINE_BYTES) {
                throw new TProtocolException("a reply line longer than " + MAX_LINE_BYTES + " bytes");
            }
            if (length == line.length) {
                line = Arrays.copyOf(line, Math.min(line.length * 2, MAX_LINE_BYTES));
            }
            line[length++] = b;
        }
    }

    private String text(int length) {
        return new String(line, 0, length, StandardCharsets.UTF_8);
    }

    /** The line as a decimal integer (an optional minus sign, then digits), as RESP writes lengths and integers. */
    private long number(int length) throws TProtocolException {
        int i = 0;
        boolean negative = length > 0 && line[0] == '-';
        if (negative) {
            i = 1;
        }
        if (i == length || length - i > 19) {
            throw notANumber(length);
        }
        long n = 0;
        for (; i < length; i++) {
            int digit = line[i] - '0';
            if (digit < 0 || digit > 9) {
                throw notANumber(length);
            }
            n = n * 10 + digit;
            if (n < 0) {
                throw notANumber(length); // beyond a long
            }
        }
        return negative ? -n : n;
    }

    private TProtocolException notANumber(int length) {
        return new TProtocolException("'" + text(length) + "' where a RESP2 reply has a number");
    }
}
