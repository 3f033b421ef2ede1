package sibyl.io;

import java.io.BufferedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32;
import java.util.zip.CheckedOutputStream;

/**
 * The small components (Filter, Statistics), and saved caches: a body followed by a CRC32 of
 * it, written whole and fsynced, read whole and checked before anything in them is believed.
 */
final class ChecksummedFile {
    interface Body {
        void writeTo(DataOutputStream out) throws IOException;
    }

    interface Parser<T> {
        T parse(DataInputStream in, int length) throws IOException;
    }

    private ChecksummedFile() {
    }

    static void write(Path path, Body body) throws IOException {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            CRC32 crc = new CRC32();
            DataOutputStream out = new DataOutputStream(new BufferedOutputStream(
                    new CheckedOutputStream(Channels.newOutputStream(channel), crc), 64 * 1024));
            body.writeTo(out);
            out.flush();
            ByteBuffer trailer = ByteBuffer.allocate(4).putInt(0, (int) crc.getValue());
            while (trailer.hasRemaining()) channel.write(trailer);
            channel.force(true);
        }
    }

    /** @throws CorruptSSTableException when the checksum or the body is wrong */
    static <T> T read(Path path, Parser<T> parser) throws IOException {
        byte[] bytes = Files.readAllBytes(path);
        if (bytes.length < 4) throw new CorruptSSTableException(path, 0, "file of " + bytes.length + " bytes is truncated");
        int body = bytes.length - 4;
        CRC32 crc = new CRC32();
        crc.update(bytes, 0, body);
        if ((int) crc.getValue() != ByteBuffer.wrap(bytes, body, 4).getInt()) {
            throw new CorruptSSTableException(path, 0, "checksum mismatch over the whole file");
        }
        try {
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes, 0, body));
            T result = parser.parse(in, body);
            if (in.available() != 0) throw new IOException(in.available() + " unexpected bytes at the end");
            return result;
        } catch (IOException e) {
            throw new CorruptSSTableException(path, 0, e.getMessage(), e);
        }
    }
}
