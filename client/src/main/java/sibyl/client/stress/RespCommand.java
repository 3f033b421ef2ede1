package sibyl.client.stress;

/**
 * Encodes a Redis command as clients send it in RESP2: an array of bulk strings, {@code *N\r\n}, then for each
 * argument {@code $LENGTH\r\n}, its bytes and {@code \r\n}. {@code SET k v} is
 * {@code *3\r\n$3\r\nSET\r\n$1\r\nk\r\n$1\r\nv\r\n}.
 */
final class RespCommand {
    private RespCommand() {
    }

    /** The whole command in one array, to go out in one write. */
    static byte[] encode(byte[]... args) {
        int size = 1 + digits(args.length) + 2;
        for (byte[] arg : args) {
            size += 1 + digits(arg.length) + 2 + arg.length + 2;
        }
        byte[] out = new byte[size];
        int at = header(out, 0, '*', args.length);
        for (byte[] arg : args) {
            at = header(out, at, '$', arg.length);
            System.arraycopy(arg, 0, out, at, arg.length);
            at += arg.length;
            out[at++] = '\r';
            out[at++] = '\n';
        }
        return out;
    }

    /** Writes {@code type}, {@code n} in decimal and CRLF at {@code at}; returns where they end. */
    private static int header(byte[] out, int at, char type, int n) {
        out[at++] = (byte) type;
        int end = at + digits(n);
        for (int i = end - 1; i >= at; i--) {
            out[i] = (byte) ('0' + n % 10);
            n /= 10;
        }
        out[end] = '\r';
        out[end + 1] = '\n';
        return end + 2;
    }

    private static int digits(int n) {
        int digits = 1;
        while (n >= 10) {
            n /= 10;
            digits++;
        }
        return digits;
    }
}
