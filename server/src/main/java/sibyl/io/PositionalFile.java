package sibyl.io;

import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ClosedByInterruptException;
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
 */
final class PositionalFile implements Closeable {
    private final Path path;
    private final long length;
    private final LongAdder bytesRead = new LongAdder();
    private volatile FileChannel channel;
    private volatile boolean closed;

    PositionalFile(Path path) throws IOException {
        this.path = path;
        this.channel = FileChannel.open(path, StandardOpenOption.READ);
        this.length = channel.size();
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

    private synchronized void reopen(FileChannel broken) throws IOException {
        if (closed || channel != broken) return;
        channel = FileChannel.open(path, StandardOpenOption.READ);
    }

    @Override
    public synchronized void close() throws IOException {
        closed = true;
        channel.close();
    }
}
