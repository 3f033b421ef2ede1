package sibyl.engine;

import java.util.concurrent.CompletableFuture;
import sibyl.db.LogPosition;

/**
 * A memtable switched out and waiting to be written: it stays readable in its store's view until
 * its SSTable replaces it. {@code position} is the log position at the switch: every write in
 * this memtable is before it, every later write after it.
 */
public final class PendingFlush {
    private final Memtable memtable;
    private final LogPosition position;
    private final CompletableFuture<Void> written = new CompletableFuture<>();

    PendingFlush(Memtable memtable, LogPosition position) {
        this.memtable = memtable;
        this.position = position;
    }

    public Memtable memtable() {
        return memtable;
    }

    public LogPosition position() {
        return position;
    }

    /** Completes once the memtable is in an SSTable and the log was told. */
    public CompletableFuture<Void> written() {
        return written;
    }
}
