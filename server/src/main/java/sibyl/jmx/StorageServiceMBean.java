package sibyl.jmx;

import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * The node as a whole, under 0.6's {@code org.apache.cassandra.service:type=StorageService}:
 * what nodetool's info and ring show. Uptime and heap come from the JVM's own MBeans.
 */
public interface StorageServiceMBean {
    String getClusterName();

    /** This node's token, in the partitioner's wire form. */
    String getToken();

    /** The address this node is known by on the ring. */
    String getEndpoint();

    /** Bytes of data this node holds: memtables and live SSTables. */
    long getLoad();

    /** Token to endpoint, for every node of the ring (this one alone). */
    Map<String, String> getTokenToEndpointMap();

    List<String> getKeyspaces();

    /**
     * Flushes the memtables of the named column families of {@code keyspace} (all when none is
     * named); returns once they are in SSTables.
     *
     * @throws IllegalArgumentException for an unknown keyspace or column family
     * @throws IOException              when a flush failed (it is retried in the background)
     */
    void forceTableFlush(String keyspace, String... columnFamilies) throws IOException, InterruptedException;

    /**
     * As {@link #forceTableFlush}, waiting at most {@code timeoutSeconds} instead of the
     * default two minutes.
     *
     * @throws IOException when a flush failed or did not finish in time, with the last flush failure
     */
    void forceTableFlushWithin(long timeoutSeconds, String keyspace, String... columnFamilies)
            throws IOException, InterruptedException;

    /** Major compaction: every column family of {@code keyspace} into one SSTable, expired tombstones purged. */
    void forceTableCompaction(String keyspace) throws IOException, InterruptedException;

    /**
     * nodetool refresh: opens the SSTables of the column family that were put into its data
     * directories while the node ran (bin/json2sstable) and serves them from now on.
     *
     * @return SSTables added (0 when there were none)
     * @throws IllegalArgumentException for an unknown keyspace or column family
     * @throws IOException              when one cannot be opened; none is added then
     */
    int loadNewSSTables(String keyspace, String columnFamily) throws IOException;

    /**
     * Flushes everything and refuses writes from then on: the step before a clean shutdown.
     *
     * @throws IOException when the flushes failed or did not finish within two minutes; writes stay refused
     */
    void drain() throws IOException, InterruptedException;

    /** As {@link #drain}, waiting at most {@code timeoutSeconds} for the flushes instead of two minutes. */
    void drainWithin(long timeoutSeconds) throws IOException, InterruptedException;

    /**
     * nodetool snapshot (0.6's operation name): flushes every memtable, then hard-links every
     * live SSTable into {@code <DataFileDirectory>/<Keyspace>/snapshots/<millis>-<tag>/}.
     *
     * @param tag null or empty for none
     * @return the snapshot directories made (none when the node holds no SSTables)
     * @throws IllegalArgumentException for a tag that is no file name part
     * @throws IOException              when the flushes did not finish within two minutes or a link
     *                                  could not be made (a full disk); nothing of the snapshot is left
     */
    List<String> takeAllSnapshot(String tag) throws IOException, InterruptedException;

    /** As {@link #takeAllSnapshot}, waiting at most {@code timeoutSeconds} for the flushes. */
    List<String> takeAllSnapshotWithin(long timeoutSeconds, String tag) throws IOException, InterruptedException;

    /**
     * nodetool clearsnapshot (0.6's operation name): deletes every snapshot.
     *
     * @return the snapshot directories deleted
     */
    List<String> clearSnapshot() throws IOException;

    /** Deletes the snapshots tagged {@code tag}; every snapshot when it is null or empty. */
    List<String> clearSnapshot(String tag) throws IOException;

    /**
     * nodetool scrub: rewrites the SSTables of the named column families of {@code keyspace} (all
     * when none is named) keeping every row whose checksums hold, after snapshotting them.
     *
     * @return one line per column family: rows kept and dropped, and the snapshot of the originals
     * @throws IllegalArgumentException for an unknown keyspace or column family
     * @throws IOException              when a snapshot or rewrite failed, saying how far it got
     */
    List<String> scrub(String keyspace, String... columnFamilies) throws IOException, InterruptedException;

    /**
     * nodetool upgradesstables: rewrites the Cassandra 0.6 SSTables of the named column families of
     * {@code keyspace} (all when none is named) into the node's own format, and removes them once the
     * new SSTables are on disk.
     *
     * @return one line per column family: how many SSTables were rewritten into what
     * @throws IllegalArgumentException for an unknown keyspace or column family
     * @throws IOException              when a rewrite failed (the 0.6 SSTables then stay in use)
     */
    List<String> upgradeSSTables(String keyspace, String... columnFamilies) throws IOException, InterruptedException;
}
