package sibyl.service;

/**
 * What a store tells the front end of how it answers, so that the front end can place each call on a thread
 * (see sibyl.transport.CallPlacement) and check consistency levels where the store does not. Apart from
 * {@link StorageService}, which says what is asked, as these say nothing of any one request: the node hands the
 * same backend to the front end as both.
 */
public interface StorageHints {
    /**
     * Whether the store judges consistency levels against its own replicas ({@link UnavailableReplicasException});
     * false for a store that is its own only replica, whose callers check levels against the ReplicationFactor.
     */
    boolean countsReplicas();

    /**
     * Whether a write may wait now, for a disk sync, a flush or another server, rather than be answered in
     * microseconds; the front end runs quick calls on its network threads.
     */
    boolean writesMayWait();

    /**
     * Whether a read (get, get_slice, get_count and their multi-key forms) may wait for another server, rather
     * than find its row in memory or the page cache; the front end never runs such reads on its network threads,
     * where one waiting read would hold up every connection of that thread, and starts them there instead, to be
     * answered when the store has. A store on local disk says false and leaves it to the front end to notice
     * reads that have turned slow.
     */
    boolean readsMayWait();

    /**
     * Whether the store keeps KEYS secondary indexes (StorageService#indexedScan); the front end refuses index
     * definitions and index queries in the store's words ({@link StorageService#INDEXES_NOT_SERVED}) when it does not.
     */
    default boolean keepsIndexes() {
        return true;
    }
}
