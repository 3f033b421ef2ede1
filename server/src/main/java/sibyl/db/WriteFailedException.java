package sibyl.db;

/**
 * A write could not be made durable (the commit log could not be written or synced: disk full,
 * I/O error, log closed). Nothing of the write was applied; what was logged before is intact.
 * The message says why, in words a client can act on.
 */
public final class WriteFailedException extends RuntimeException {
    public WriteFailedException(String message, Throwable cause) {
        super(message, cause);
    }

    public WriteFailedException(String message) {
        super(message);
    }
}
