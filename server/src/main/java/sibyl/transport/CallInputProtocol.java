package sibyl.transport;

import java.nio.charset.StandardCharsets;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TField;
import org.apache.thrift.protocol.TType;
import org.apache.thrift.transport.TMemoryInputTransport;

/**
 * The binary protocol a connection reads its calls with: TBinaryProtocol's decoding, byte for byte, minus two kinds
 * of garbage the generated readers make on every call.
 *
 * <ul>
 *   <li>A field header is answered with a shared {@link TField} for its (type, id) instead of a new one. TField is
 *       immutable and the readers only look at its type and id; an insert reads eleven field headers.
 *   <li>A short ASCII string that this connection read recently (the method name, the keyspace, the column family)
 *       is answered with the very String read before, when its bytes match. Besides the String and its array, that
 *       saves hashing it again: a String caches its hash, and the names are looked up in hash maps several times
 *       per call (the schema, the column family's store, request metrics, the call placement), which made
 *       recomputing their hashes 2% of an insert's CPU time.
 * </ul>
 *
 * <p>The string cache is a small table indexed by a hash of the bytes. Keys of rows pass through it too and would
 * push the names out, so a slot whose string was reused since it was last passed over is passed over once more
 * before it is replaced: a string read on every call keeps its slot, one read once does not take it. Each slot keeps
 * its string's hash beside it, and the bytes are compared only when the hashes agree: a key read for the first time
 * then costs no look at the string in its slot, most often another key, read calls ago, whose object and bytes are
 * no longer in the processor's caches (comparing with it was 1.75% of an insert's CPU time and 2.4% of a get_slice's
 * in profiles of 32 blocking connections).
 *
 * <p>One instance per connection, used by one call at a time (as its {@link CallCodec}).
 */
final class CallInputProtocol extends TBinaryProtocol {
    /** Field types and ids with a shared header: every type TBinaryProtocol knows, and the ids cassandra.thrift uses. */
    private static final int TYPES = 20;
    private static final int IDS = 64;
    private static final TField[] FIELDS = new TField[TYPES * IDS];

    static {
        for (int type = 0; type < TYPES; type++) {
            for (int id = 0; id < IDS; id++) FIELDS[type * IDS + id] = new TField("", (byte) type, (short) id);
        }
    }

    /** Longest string the cache considers; names in 0.6 schemas are short, longer strings are rarely repeated. */
    static final int CACHED_STRING_BYTES = 48;
    private static final int SLOTS = 32; // a power of two

    private final TMemoryInputTransport input;
    private final long stringLengthLimit;
    private final String[] strings = new String[SLOTS];
    /** The hash of the bytes of {@code strings[i]}, as {@link #readString} computes it. */
    private final int[] hashes = new int[SLOTS];
    private final boolean[] reused = new boolean[SLOTS];

    CallInputProtocol(TMemoryInputTransport input, long stringLengthLimit, long containerLengthLimit) {
        super(input, stringLengthLimit, containerLengthLimit, false, true);
        this.input = input;
        this.stringLengthLimit = stringLengthLimit;
    }

    @Override
    public TField readFieldBegin() throws TException {
        byte type = readByte();
        short id = type == TType.STOP ? 0 : readI16();
        if (type >= 0 && type < TYPES && id >= 0 && id < IDS) return FIELDS[type * IDS + id];
        return new TField("", type, id);
    }

    @Override
    public String readString() throws TException {
        int remaining = input.getBytesRemainingInBuffer();
        if (remaining < 4) return super.readString();
        byte[] buf = input.getBuffer();
        int pos = input.getBufferPosition();
        int size = (buf[pos] & 0xff) << 24 | (buf[pos + 1] & 0xff) << 16 | (buf[pos + 2] & 0xff) << 8
                | (buf[pos + 3] & 0xff);
        // Anything the cache does not take, including every length TBinaryProtocol refuses, is read by it.
        if (size < 0 || size > CACHED_STRING_BYTES || size > stringLengthLimit || size > remaining - 4) {
            return super.readString();
        }
        int start = pos + 4;
        int hash = 0;
        for (int i = start; i < start + size; i++) {
            byte b = buf[i];
            if (b < 0) return super.readString(); // not ASCII: left to the UTF-8 decoding
            hash = 31 * hash + b;
        }
        input.consumeBuffer(4 + size);
        int slot = (hash ^ (hash >>> 16)) & (SLOTS - 1);
        String cached = strings[slot];
        if (cached != null && hashes[slot] == hash && matches(cached, buf, start, size)) {
            reused[slot] = true;
            return cached;
        }
        // ASCII bytes decode alike in every charset that extends it; Latin-1 decodes them without checks.
        String read = new String(buf, start, size, StandardCharsets.ISO_8859_1);
        if (reused[slot]) {
            reused[slot] = false;
        } else {
            strings[slot] = read;
            hashes[slot] = hash;
        }
        return read;
    }

    private static boolean matches(String s, byte[] buf, int start, int size) {
        if (s.length() != size) return false;
        for (int i = 0; i < size; i++) {
            if (s.charAt(i) != buf[start + i]) return false;
        }
        return true;
    }
}
