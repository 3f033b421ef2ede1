package sibyl.io;

import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.LongAdder;

/**
 * A read-only file shared by concurrent readers: every read names its position, so there is no
 * shared file pointer. Counts the bytes read, which tests and measurements use.
 *
 * <p>A FileChannel closes itself for everyone when a thread reading it is interrupted. Here the
 * interrupted reader gets an {@link InterruptedIOException}, the channel is reopened, and other
 * readers caught by that close retry, so one cancelled request cannot break a shared file.
 *
 * <p>A mapped file is read by copying out of read-only mappings of up to 1 GB each: no system
 * call per read, which for a point read of a row in the page cache was a sixth of its CPU time
 * (two positional reads, index and data). Mappings are released at {@link #close}, so the space
 * of a deleted SSTable is freed at once rather than at some later garbage collection; the
 * owner closes only once no reader can still be reading (SSTableReader's reference count), and
 * a read after close is refused rather than let touch unmapped memory.
 */
final class PositionalFile implements Closeable {
    /** Bytes a mapping covers at most: 1 GB. */
    static final int DEFAULT_CHUNK_BITS = 30;

    private final Path path;
    private final long length;
    private final LongAdder bytesRead = new LongAdder();
    private volatile FileChannel channel;
    private volatile boolean closed;
    /** The mappings of a mapped file, chunk i covering [i << chunkBits, (i + 1) << chunkBits); null when not mapped. */
    private final MappedByteBuffer[] chunks;
    private final int chunkBits;

    PositionalFile(Path path) throws IOException {
        this(path, false, DEFAULT_CHUNK_BITS);
    }

    /** @param mapped whether to read through memory mappings of {@code 1 << chunkBits} bytes each */
    PositionalFile(Path path, boolean mapped, int chunkBits) throws IOException {
        if (chunkBits < 1 || chunkBits > 30) throw new IllegalArgumentException("chunk bits out of 1..30: " + chunkBits);
        this.path = path;
        this.chunkBits = chunkBits;
        this.channel = FileChannel.open(path, StandardOpenOption.READ);
        this.length = channel.size();
        this.chunks = mapped ? map(channel, length, chunkBits) : null;
    }

    private static MappedByteBuffer[] map(FileChannel channel, long length, int chunkBits) throws IOException {
        long chunk = 1L << chunkBits;
        MappedByteBuffer[] chunks = new MappedByteBuffer[Math.toIntExact((length + chunk - 1) >>> chunkBits)];
        try {
            for (int i = 0; i < chunks.length; i++) {
                long start = (long) i << chunkBits;
                chunks[i] = channel.map(FileChannel.MapMode.READ_ONLY, start, Math.min(chunk, length - start));
            }
        } catch (IOException | RuntimeException e) {
            Unmapper.unmap(chunks);
            channel.close();
            throw e;
        }
        return chunks;
    }

    boolean isMapped() {
        return chunks != null;
    }

    Path path() {
        return path;
    }

    /** The file's length when it was opened (SSTable files never change). */
    long length() {
        return length;
    }

    long bytesRead() {
        return bytesRead.sum();
    }

    /** Reads {@code length} bytes at {@code position} into a new array. */
    byte[] read(long position, int length) throws IOException {
        byte[] bytes = new byte[length];
        read(position, bytes, 0, length);
        return bytes;
    }

    /** Fills {@code bytes[offset, offset + length)} from {@code position}; EOFException if the file ends first. */
    void read(long position, byte[] bytes, int offset, int length) throws IOException {
        if (chunks != null) {
            readMapped(position, bytes, offset, length);
            return;
        }
        ByteBuffer dst = ByteBuffer.wrap(bytes, offset, length);
        while (dst.hasRemaining()) {
            FileChannel c = channel;
            int n;
            try {
                n = c.read(dst, position + (dst.position() - offset));
            } catch (ClosedByInterruptException e) {
                reopen(c);
                InterruptedIOException interrupted = new InterruptedIOException("read of " + path + " interrupted");
                interrupted.initCause(e);
                throw interrupted;
            } catch (AsynchronousCloseException e) {
                if (closed) throw e;
                reopen(c); // another reader was interrupted; read again from where this one stopped
                continue;
            }
            if (n < 0) throw new EOFException(path + " ends before offset " + (position + length));
        }
        bytesRead.add(length);
    }

    private void readMapped(long position, byte[] bytes, int offset, int length) throws IOException {
        if (closed) throw new ClosedChannelException();
        if (position < 0 || length < 0 || position + length > this.length) {
            throw new EOFException(path + " ends before offset " + (position + length));
        }
        long at = position;
        int to = offset;
        int left = length;
        while (left > 0) {
            int within = (int) (at & ((1L << chunkBits) - 1));
            MappedByteBuffer chunk = chunks[(int) (at >>> chunkBits)];
            int n = Math.min(left, chunk.capacity() - within);
            chunk.get(within, bytes, to, n);
            at += n;
            to += n;
            left -= n;
        }
        bytesRead.add(length);
    }

    private synchronized void reopen(FileChannel broken) throws IOException {
        if (closed || channel != broken) return;
        channel = FileChannel.open(path, StandardOpenOption.READ);
    }

    @Override
    public synchronized void close() throws IOException {
        if (closed) return;
        closed = true;
        try {
            channel.close();
        } finally {
            if (chunks != null) Unmapper.unmap(chunks);
        }
    }
}
