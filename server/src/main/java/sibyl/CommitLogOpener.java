package sibyl;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import sibyl.commitlog.CommitLog;
import sibyl.commitlog.CommitLogSettings;
import sibyl.commitlog.ReplaySummary;
import sibyl.db.KSMetaData;
import sibyl.db.ResolvedMutation;
import sibyl.db.WriteLog;
import sibyl.engine.LogReplay;
import sibyl.engine.RecoverableLog;

/**
 * The commit log, opened for the engine when the engine asks ({@link RecoverableLog.Opener}): the one place the
 * two are joined, so that neither package knows the other. Keeps the log it opened for what reports on it
 * (metrics, tests).
 */
public final class CommitLogOpener implements RecoverableLog.Opener {
    private final CommitLogSettings settings;
    private volatile CommitLog opened;

    public CommitLogOpener(CommitLogSettings settings) {
        this.settings = settings;
    }

    @Override
    public RecoverableLog open() throws IOException {
        CommitLog log = CommitLog.open(settings);
        opened = log;
        return new Joined(log);
    }

    /** The commit log once opened; empty before, or when opening it failed. */
    public Optional<CommitLog> opened() {
        return Optional.ofNullable(opened);
    }

    /** The commit log in the engine's terms; its writes go to the log itself. */
    private record Joined(CommitLog log) implements RecoverableLog {
        @Override
        public WriteLog writes() {
            return log;
        }

        @Override
        public LogReplay recover(List<KSMetaData> keyspaces, FlushedUpTo flushed, Consumer<ResolvedMutation> sink)
                throws IOException {
            ReplaySummary s = log.recover(keyspaces, flushed::upTo, sink);
            return new LogReplay(s.segments(), s.entries(), s.legacySegments(), s.legacyEntries(),
                    s.legacyColumnFamilies());
        }

        @Override
        public int confirmLegacyReplay() throws IOException {
            return log.confirmLegacyReplay();
        }
    }
}
