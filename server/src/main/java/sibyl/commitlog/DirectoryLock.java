package sibyl.commitlog;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An OS lock on {@code .lock} in a directory, held while one process writes there. The OS drops
 * it when the process dies, however it dies, so a crashed node never blocks its own restart.
 */
final class DirectoryLock implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(DirectoryLock.class);
    static final String FILE_NAME = ".lock";

    private final FileChannel channel;
    private final FileLock lock;

    private DirectoryLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /** @throws IOException naming the directory when another process (or log in this one) holds it */
    static DirectoryLock acquire(Path directory) throws IOException {
        Path file = directory.resolve(FILE_NAME);
        FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock lock;
        try {
            lock = channel.tryLock();
        } catch (OverlappingFileLockException e) {
            lock = null;
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
        if (lock == null) {
            channel.close();
            throw new IOException("commit log directory " + directory + " is in use by another commit log"
                    + " (another node configured with the same CommitLogDirectory?)");
        }
        return new DirectoryLock(channel, lock);
    }

    @Override
    public void close() {
        try {
            if (lock.isValid()) lock.release();
            channel.close();
        } catch (IOException e) {
            log.debug("Could not release {}", FILE_NAME, e);
        }
    }
}
