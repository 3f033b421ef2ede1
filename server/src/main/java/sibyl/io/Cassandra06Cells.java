package sibyl.io;

import java.nio.ByteBuffer;
import java.util.function.Predicate;
import sibyl.db.CFMetaData;
import sibyl.db.Cell;
import sibyl.db.Column;
import sibyl.db.Deletion;
import sibyl.db.SuperColumn;

/**
 * Cassandra 0.6's encoding of one cell in a row of its data file:
 * <pre>
 * column       := name | deleted u8 (0 or 1) | timestamp i64 | valueLength i32 | value
 * super column := name | localDeletionTime i32 | markedForDeleteAt i64 | count i32 | column*
 * name         := length u16 | bytes
 * </pre>
 * A deleted column's value is its 4-byte local deletion time, as in Sibyl. A super column that was never
 * deleted stores Integer.MIN_VALUE and Long.MIN_VALUE, Sibyl's {@link Deletion#LIVE}.
 */
final class Cassandra06Cells {
    private Cassandra06Cells() {
    }

    /**
     * Reads one cell of a column family of {@code metadata}'s type.
     *
     * @throws java.nio.BufferUnderflowException or IllegalArgumentException on malformed input, which the
     *                                           caller reports as damage at the block's offset
     */
    static Cell read(ByteBuffer in, CFMetaData metadata) {
        if (!metadata.isSuper()) return readColumn(in);
        byte[] name = CellSerializer.readName(in);
        int localDeletionTime = in.getInt();
        Deletion deletion = Deletion.of(in.getLong(), localDeletionTime);
        int count = in.getInt();
        if (count < 0 || count > in.remaining()) throw new IllegalArgumentException("subcolumn count " + count);
        SuperColumn.Builder sc = SuperColumn.builder(name, metadata.subcomparator(), count).delete(deletion);
        for (int i = 0; i < count; i++) sc.add(readColumn(in));
        return sc.build();
    }

    private static Column readColumn(ByteBuffer in) {
        byte[] name = CellSerializer.readName(in);
        int deleted = in.get();
        long timestamp = in.getLong();
        int length = in.getInt();
        if (length < 0 || length > in.remaining()) throw new IllegalArgumentException("value length " + length);
        byte[] value = new byte[length];
        in.get(value);
        if (deleted == 0) return Column.live(name, value, timestamp);
        if (deleted != 1 || length != 4) {
            throw new IllegalArgumentException("deleted flag " + deleted + " with a value of " + length + " bytes");
        }
        return Column.tombstone(name, timestamp, ByteBuffer.wrap(value).getInt());
    }

    /** Reads the next cell when {@code wanted} accepts its name; else steps over it unbuilt and returns null. */
    static Cell readIf(ByteBuffer in, CFMetaData metadata, Predicate<byte[]> wanted) {
        int at = in.position();
        if (wanted.test(CellSerializer.readName(in))) {
            in.position(at);
            return read(in, metadata);
        }
        if (metadata.isSuper()) {
            skip(in, 4 + 8);
            int count = in.getInt();
            if (count < 0 || count > in.remaining()) throw new IllegalArgumentException("subcolumn count " + count);
            for (int i = 0; i < count; i++) {
                skip(in, in.getShort() & 0xFFFF);
                skipColumnAfterName(in);
            }
        } else {
            skipColumnAfterName(in);
        }
        return null;
    }

    private static void skipColumnAfterName(ByteBuffer in) {
        skip(in, 1 + 8);
        skip(in, in.getInt());
    }

    private static void skip(ByteBuffer in, int length) {
        if (length < 0 || length > in.remaining()) throw new IllegalArgumentException("length " + length);
        in.position(in.position() + length);
    }
}
