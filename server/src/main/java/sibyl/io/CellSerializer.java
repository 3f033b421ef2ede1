package sibyl.io;

import java.io.DataOutput;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.function.Predicate;
import sibyl.db.CFMetaData;
import sibyl.db.Cell;
import sibyl.db.Column;
import sibyl.db.Deletion;
import sibyl.db.SuperColumn;

/**
 * The encoding of one cell inside a data block (see FORMAT.md):
 * <pre>
 * column       := name | flags u8 | timestamp i64 | [ttl i32 | localExpirationTime i32] | valueLength i32 | value
 * super column := name | deletion | count i32 | column*
 * name         := length u16 | bytes
 * </pre>
 * flags bit 0 marks a tombstone, whose value is its 4-byte local deletion time; bit 1 an expiring column, and only
 * it has the bracketed fields (files written before expiring columns existed never set it, so they read as they
 * always did); bit 2 a counter cell, whose value is its 8-byte count (files written before counters existed never
 * set it). A deletion is the super column's tombstone ({@link DeletionSerializer}).
 */
final class CellSerializer {
    static final int TOMBSTONE = 1;
    static final int EXPIRING = 2;
    static final int COUNTER = 4;

    private CellSerializer() {
    }

    static void write(DataOutput out, Cell cell) throws IOException {
        if (cell instanceof Column c) {
            writeColumn(out, c);
            return;
        }
        SuperColumn sc = (SuperColumn) cell;
        writeName(out, sc.name());
        DeletionSerializer.write(out, sc.deletion());
        out.writeInt(sc.subcolumnCount());
        for (Column c : sc.subcolumns()) writeColumn(out, c);
    }

    private static void writeColumn(DataOutput out, Column c) throws IOException {
        writeName(out, c.name());
        out.writeByte(c.isTombstone() ? TOMBSTONE : c.isExpiring() ? EXPIRING : c.isCounter() ? COUNTER : 0);
        out.writeLong(c.timestamp());
        if (c.isExpiring()) {
            out.writeInt(c.ttl());
            out.writeInt(c.localExpirationTime());
        }
        out.writeInt(c.value().length);
        out.write(c.value());
    }

    static void writeName(DataOutput out, byte[] name) throws IOException {
        if (name.length > 0xFFFF) throw new IllegalArgumentException("name of " + name.length + " bytes exceeds 65535");
        out.writeShort(name.length);
        out.write(name);
    }

    /**
     * Reads one cell of a column family of {@code metadata}'s type.
     *
     * @throws java.nio.BufferUnderflowException or IllegalArgumentException on malformed input;
     *                                           the caller turns these into a corruption report
     */
    static Cell read(ByteBuffer in, CFMetaData metadata) {
        if (!metadata.isSuper()) return readColumn(in);
        byte[] name = readName(in);
        Deletion deletion = DeletionSerializer.read(in);
        int count = in.getInt();
        if (count < 0 || count > in.remaining()) throw new IllegalArgumentException("subcolumn count " + count);
        SuperColumn.Builder sc = SuperColumn.builder(name, metadata.subcomparator(), count).delete(deletion);
        for (int i = 0; i < count; i++) sc.add(readColumn(in));
        return sc.build();
    }

    private static Column readColumn(ByteBuffer in) {
        byte[] name = readName(in);
        int flags = in.get();
        long timestamp = in.getLong();
        int ttl = flags == EXPIRING ? in.getInt() : Column.NO_TTL;
        int expiresAt = flags == EXPIRING ? in.getInt() : 0;
        int length = in.getInt();
        if (length < 0 || length > in.remaining()) throw new IllegalArgumentException("value length " + length);
        byte[] value = new byte[length];
        in.get(value);
        if (flags == 0) return Column.live(name, value, timestamp);
        if (flags == EXPIRING) return Column.expiring(name, value, timestamp, ttl, expiresAt);
        if (flags == COUNTER && length == 8) return Column.counter(name, ByteBuffer.wrap(value).getLong(), timestamp);
        if (flags != TOMBSTONE || length != 4) throw new IllegalArgumentException("column flags " + flags + ", value length " + length);
        return Column.tombstone(name, timestamp, ByteBuffer.wrap(value).getInt());
    }

    /**
     * Reads the next cell when {@code wanted} accepts its name; otherwise steps over it without
     * building it (no value copied, no cell) and returns null.
     *
     * @throws java.nio.BufferUnderflowException or IllegalArgumentException on malformed input
     */
    static Cell readIf(ByteBuffer in, CFMetaData metadata, Predicate<byte[]> wanted) {
        int at = in.position();
        if (wanted.test(readName(in))) {
            in.position(at);
            return read(in, metadata);
        }
        if (metadata.isSuper()) {
            DeletionSerializer.skip(in);
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
        int flags = in.get();
        in.getLong();
        if (flags == EXPIRING) skip(in, 8);
        skip(in, in.getInt());
    }

    private static void skip(ByteBuffer in, int length) {
        if (length < 0 || length > in.remaining()) throw new IllegalArgumentException("length " + length);
        in.position(in.position() + length);
    }

    static byte[] readName(ByteBuffer in) {
        byte[] name = new byte[in.getShort() & 0xFFFF];
        in.get(name);
        return name;
    }
}
