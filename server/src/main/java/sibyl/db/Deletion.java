package sibyl.db;

/** Constants for "not deleted" in row and super column tombstones. */
final class Deletion {
    /**
     * markedForDeleteAt of something never deleted. A tombstone at time T hides everything
     * written at a timestamp <= T, so this hides only writes at Long.MIN_VALUE (as in 0.6).
     */
    static final long NOT_DELETED = Long.MIN_VALUE;
    /** localDeletionTime of something never deleted. */
    static final int NO_DELETION_TIME = Integer.MIN_VALUE;

    private Deletion() {
    }

    /**
     * Whether a tombstone at {@code timestamp} (local deletion time {@code deletionTime}) replaces
     * the one at {@code currentAt} ({@code currentTime}): the later timestamp wins, and of equal
     * timestamps the later deletion time, so that merging tombstones in any order keeps the same one.
     */
    static boolean supersedes(long timestamp, int deletionTime, long currentAt, int currentTime) {
        return timestamp > currentAt || (timestamp == currentAt && deletionTime > currentTime);
    }
}
