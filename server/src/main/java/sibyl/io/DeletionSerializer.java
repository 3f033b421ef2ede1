package sibyl.io;

import java.io.DataOutput;
import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import sibyl.db.Deletion;

/**
 * The encoding of a tombstone, in a row header and in a super column (see FORMAT.md):
 * <pre>
 * deletion := markedForDeleteAt i64 | localDeletionTime i32
 * </pre>
 * Long.MIN_VALUE / Integer.MIN_VALUE when never deleted ({@link Deletion#LIVE}).
 */
final class DeletionSerializer {
    static final int LENGTH = 8 + 4;

    private DeletionSerializer() {
    }

    static void write(DataOutput out, Deletion deletion) throws IOException {
        out.writeLong(deletion.markedForDeleteAt());
        out.writeInt(deletion.localDeletionTime());
    }

    /** Reads a tombstone; the shared {@link Deletion#LIVE} when never deleted, so that live data allocates none. */
    static Deletion read(ByteBuffer in) {
        long markedForDeleteAt = in.getLong();
        return Deletion.of(markedForDeleteAt, in.getInt());
    }

    static void skip(ByteBuffer in) {
        if (in.remaining() < LENGTH) throw new BufferUnderflowException();
        in.position(in.position() + LENGTH);
    }
}
