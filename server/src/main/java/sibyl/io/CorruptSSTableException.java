package sibyl.io;

import java.nio.file.Path;

/**
 * A component's bytes are not what the writer wrote: a checksum mismatch, a length that runs
 * past its bounds, a field with an impossible value. Names the file and the offset of the
 * damaged unit (row, block, index entry) so an operator can find it.
 */
public final class CorruptSSTableException extends RuntimeException {
    private final Path file;
    private final long offset;
    private final String problem;

    public CorruptSSTableException(Path file, long offset, String problem) {
        this(file, offset, problem, null);
    }

    public CorruptSSTableException(Path file, long offset, String problem, Throwable cause) {
        super("corrupt sstable file " + file + " at offset " + offset + ": " + problem, cause);
        this.file = file;
        this.offset = offset;
        this.problem = problem;
    }

    public Path file() {
        return file;
    }

    public long offset() {
        return offset;
    }

    /** What is wrong at {@link #offset}, without the file: "data block checksum mismatch". */
    public String problem() {
        return problem;
    }
}
