package sibyl.commitlog;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.nio.ByteBuffer;
import java.util.BitSet;

/**
 * The header at the start of a Cassandra 0.6 commit log segment, which 0.6 rewrote in place (it
 * keeps one size) as column families were written to and flushed:
 * <pre>
 * length:long                 bytes of what follows, up to the first entry
 * dirty:java.util.BitSet      written by java.io.ObjectOutputStream (so it begins 0xACED0005):
 *                             bit i set = column family i has entries here not yet flushed
 * count:int                   the number of column families 0.6 had configured
 * position:int{count}         per column family: where its replay begins (0 = nowhere)
 * </pre>
 * Column family numbers are 0.6's own ({@link LegacyColumnFamilyIds}). A column family is made
 * dirty at the entry that first writes it in the segment (its position is that entry's start); a
 * flush while the segment is the newest moves its position to the end of the log then; a flush
 * while a newer one exists makes it clean here (not dirty, position 0).
 *
 * <p>Only java.util.BitSet and its long[] are let through Java deserialization: nothing in a file
 * of unknown origin gets to make other objects.
 */
final class LegacySegmentHeader {
    /** Java serialization's stream magic and version, which the BitSet begins with. */
    static final int SERIALIZATION_MAGIC = 0xACED0005;
    /** A generous bound: a megabyte of header would number over 200,000 column families. */
    private static final long MAX_LENGTH = 1 << 20;
    /** Bytes of a segment's start that {@link #shape} looks at. */
    static final int PROBE_BYTES = 12;

    /** What the first bytes of a file say about it. */
    enum Shape {
        /** Starts as a 0.6 segment does and holds its whole header: {@link #read} it. */
        HEADER,
        /** Starts as a 0.6 segment does but ends before its header does: 0.6 stopped while creating it. */
        TORN,
        /** Not a 0.6 segment. */
        OTHER
    }

    private final long length;
    private final BitSet dirty;
    private final int[] positions;

    private LegacySegmentHeader(long length, BitSet dirty, int[] positions) {
        this.length = length;
        this.dirty = dirty;
        this.positions = positions;
    }

    /**
     * Judges a file by its first bytes.
     *
     * @param start    the first {@code min(size, PROBE_BYTES)} bytes
     * @param fileSize the file's length, more than 0
     */
    static Shape shape(byte[] start, long fileSize) {
        ByteBuffer b = ByteBuffer.wrap(start);
        if (start.length < Long.BYTES) {
            // The high half of the length is zero in every header; nothing more can be told.
            for (int i = 0; i < Math.min(start.length, 4); i++) if (start[i] != 0) return Shape.OTHER;
            return Shape.TORN;
        }
        long length = b.getLong();
        if (length <= 0 || length > MAX_LENGTH) return Shape.OTHER;
        byte[] magic = ByteBuffer.allocate(4).putInt(SERIALIZATION_MAGIC).array();
        for (int i = Long.BYTES; i < start.length; i++) if (start[i] != magic[i - Long.BYTES]) return Shape.OTHER;
        return fileSize < Long.BYTES + length ? Shape.TORN : Shape.HEADER;
    }

    /**
     * Reads a header whose {@link #shape} is {@link Shape#HEADER}.
     *
     * @param bytes the header's {@code length} bytes after its length field
     * @throws IOException when they are not a 0.6 header of exactly that length
     */
    static LegacySegmentHeader decode(byte[] bytes) throws IOException {
        ByteArrayInputStream in = new ByteArrayInputStream(bytes);
        BitSet dirty;
        try (ObjectInputStream objects = new ObjectInputStream(in)) {
            objects.setObjectInputFilter(LegacySegmentHeader::bitSetOnly);
            Object read = objects.readObject();
            if (!(read instanceof BitSet bits)) throw new IOException("the header does not begin with a BitSet");
            dirty = bits;
        } catch (ClassNotFoundException | ClassCastException | IllegalStateException e) {
            throw new IOException("the header's BitSet does not read: " + e, e);
        }
        DataInputStream rest = new DataInputStream(in);
        int count = rest.readInt();
        if (count < 0 || (long) count * Integer.BYTES != in.available()) {
            throw new IOException("the header counts " + count + " column families but has " + in.available()
                    + " bytes left for their positions");
        }
        int[] positions = new int[count];
        for (int i = 0; i < count; i++) {
            positions[i] = rest.readInt();
            if (positions[i] < 0) throw new IOException("negative replay position " + positions[i] + " for id " + i);
        }
        return new LegacySegmentHeader(bytes.length, dirty, positions);
    }

    private static ObjectInputFilter.Status bitSetOnly(ObjectInputFilter.FilterInfo info) {
        Class<?> c = info.serialClass();
        if (c != null && c != BitSet.class && c != long[].class) return ObjectInputFilter.Status.REJECTED;
        if (info.depth() > 2 || info.references() > 8 || info.arrayLength() > MAX_LENGTH / Long.BYTES) {
            return ObjectInputFilter.Status.REJECTED;
        }
        return ObjectInputFilter.Status.ALLOWED;
    }

    /** Where the first entry begins: past the length field and the header. */
    long entriesStart() {
        return Long.BYTES + length;
    }

    /** The number of column families 0.6 had when it wrote the segment. */
    int columnFamilyCount() {
        return positions.length;
    }

    boolean isDirty(int id) {
        return dirty.get(id);
    }

    /** The column families with entries here not yet flushed, as a copy. */
    BitSet dirty() {
        return (BitSet) dirty.clone();
    }

    /** Where replay of column family {@code id} begins; 0 when nowhere. */
    int position(int id) {
        return id < positions.length ? positions[id] : 0;
    }

    /** Where 0.6 began replaying the segment: the lowest position above 0; 0 when nothing is to be replayed. */
    long lowestPosition() {
        long lowest = 0;
        for (int p : positions) {
            if (p > 0 && (lowest == 0 || p < lowest)) lowest = p;
        }
        return lowest;
    }

    /** Whether an entry ending at {@code entryEnd} holds a delta of column family {@code id} that 0.6 would replay. */
    boolean replays(int id, long entryEnd) {
        return isDirty(id) && entryEnd >= position(id);
    }
}
