package sibyl.cluster;

import java.nio.ByteBuffer;
import java.util.List;

/** Serialized CQL values bound as raw bytes, so names of any comparator pass through unchanged. */
final class Values {
    private Values() {
    }

    /** A list value ({@code IN ?}): the count, then each element's length and bytes, as protocol v3+ encodes it. */
    static ByteBuffer list(List<byte[]> elements) {
        int size = 4;
        for (byte[] e : elements) size += 4 + e.length;
        ByteBuffer b = ByteBuffer.allocate(size);
        b.putInt(elements.size());
        for (byte[] e : elements) b.putInt(e.length).put(e);
        return b.flip();
    }

    /** A tuple value: each element's length and bytes, as the protocol encodes a tuple. */
    static byte[] tuple(List<byte[]> elements) {
        int size = 0;
        for (byte[] e : elements) size += 4 + e.length;
        ByteBuffer b = ByteBuffer.allocate(size);
        for (byte[] e : elements) b.putInt(e.length).put(e);
        return b.array();
    }

    /** The bytes of a value the driver read (empty for null), leaving the driver's buffer as it was. */
    static byte[] array(ByteBuffer b) {
        if (b == null) return new byte[0];
        byte[] a = new byte[b.remaining()];
        b.get(b.position(), a); // an absolute read: no duplicate of the buffer per value
        return a;
    }
}
