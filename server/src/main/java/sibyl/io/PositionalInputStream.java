package sibyl.io;

import java.io.InputStream;
import java.io.IOException;

/**
 * A stream over a stretch of a {@link PositionalFile} with its own position, so sequential
 * scans (index at open, rows for range reads and compaction) do not disturb other readers.
 * Wrap it in a BufferedInputStream: each read here is a system call.
 */
final class PositionalInputStream extends InputStream {
    private final PositionalFile file;
    private final long end;
    private long position;

    PositionalInputStream(PositionalFile file, long start, long end) {
        this.file = file;
        this.position = start;
        this.end = Math.min(end, file.length());
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) return 0;
        if (position >= end) return -1;
        int n = (int) Math.min(len, end - position);
        file.read(position, b, off, n);
        position += n;
        return n;
    }

    @Override
    public int available() {
        return (int) Math.min(Integer.MAX_VALUE, end - position);
    }
}
