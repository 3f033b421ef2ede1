package sibyl.fs;

import java.io.IOException;

/**
 * A start refused because a directory the node would use holds files it did not write and cannot read (a later
 * Cassandra's, someone's notes). The message names each file, what it looks like and what to do; nothing was
 * changed or deleted. Not a failure of the node, so it is reported as its message alone.
 */
public final class ForeignFilesException extends IOException {
    public ForeignFilesException(String message) {
        super(message);
    }

    /** One refusal naming what both name: the operator fixes everything at once. */
    public ForeignFilesException and(ForeignFilesException other) {
        ForeignFilesException both = new ForeignFilesException(getMessage() + "\n" + other.getMessage());
        both.addSuppressed(this);
        both.addSuppressed(other);
        return both;
    }
}
