package sibyl.engine;

import java.io.IOException;
import java.util.List;
import java.util.function.Consumer;
import sibyl.db.KSMetaData;
import sibyl.db.LogPosition;
import sibyl.db.ResolvedMutation;
import sibyl.db.WriteLog;

/**
 * What the durable engine needs of its log: somewhere to record writes ({@link #writes}), and, once at start-up,
 * a replay of what it recorded before and the confirmation of a Cassandra 0.6 replay. Declared here and
 * implemented where the node is built ({@code sibyl.CommitLogOpener}), over the commit log, so that engine and
 * commit log know nothing of each other.
 */
public interface RecoverableLog {
    /** Where writes are recorded from now on; closed with the engine. */
    WriteLog writes();

    /**
     * Replays, once, before the first write, what the log holds through {@code sink}: Cassandra 0.6's segments
     * first, as 0.6 would have replayed them, then the node's own, skipping what {@code flushed} says SSTables
     * hold already.
     *
     * @param keyspaces the configured keyspaces in configuration file order (0.6's segments name column
     *                  families by numbers derived from it)
     * @throws IOException when the log cannot be read, or a 0.6 segment does not fit the configuration
     */
    LogReplay recover(List<KSMetaData> keyspaces, FlushedUpTo flushed, Consumer<ResolvedMutation> sink)
            throws IOException;

    /**
     * Records that the Cassandra 0.6 segments {@link #recover} replayed are not to be replayed again; called once
     * the column families of {@link LogReplay#legacyColumnFamilies} are flushed.
     *
     * @return the 0.6 segments newly recorded as replayed
     */
    int confirmLegacyReplay() throws IOException;

    /** Per column family, the log position up to which its SSTables hold everything. */
    @FunctionalInterface
    interface FlushedUpTo {
        LogPosition upTo(String keyspace, String columnFamily);
    }

    /**
     * Opens the log; the engine calls it after inspecting its data directories, and before creating anything,
     * so that a start refused for files of both kinds names them all at once.
     */
    @FunctionalInterface
    interface Opener {
        /** @throws sibyl.fs.ForeignFilesException for files in the log's directory it does not recognise */
        RecoverableLog open() throws IOException;
    }
}
