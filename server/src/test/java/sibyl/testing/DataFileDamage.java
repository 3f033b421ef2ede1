package sibyl.testing;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Damage on cue for tests of damaged SSTables: flips bytes of a file, and says which row a byte of
 * a data file belongs to by reading the SSTable's index file as io/FORMAT.md describes it
 * ({@code entry := key | dataOffset i64 | rowLength i32 | entryCrc i32}), independently of the
 * server's own reader.
 */
public final class DataFileDamage {
    private DataFileDamage() {
    }

    /** A row of a data file as its index lists it. */
    public record Row(String key, long dataOffset, int rowLength) {
        /** A byte in the middle of the row: in its only block when it has one. */
        public long middle() {
            return dataOffset + rowLength / 2;
        }
    }

    /** The rows of the SSTable whose index file is {@code index}, in file order. */
    public static List<Row> rows(Path index) throws IOException {
        List<Row> rows = new ArrayList<>();
        try (InputStream file = Files.newInputStream(index);
             DataInputStream in = new DataInputStream(new BufferedInputStream(file))) {
            while (true) {
                String key;
                try {
                    key = in.readUTF();
                } catch (EOFException end) {
                    return rows;
                }
                long dataOffset = in.readLong();
                int rowLength = in.readInt();
                in.readInt(); // the entry's checksum
                rows.add(new Row(key, dataOffset, rowLength));
            }
        }
    }

    /** Inverts some bits of the byte at {@code position}. */
    public static void flip(Path file, long position) throws IOException {
        try (FileChannel c = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer one = ByteBuffer.allocate(1);
            if (c.read(one, position) != 1) throw new IOException(file + " has no byte at " + position);
            one.put(0, (byte) (one.get(0) ^ 0x5a));
            c.write(one.flip(), position);
            c.force(false);
        }
    }
}
