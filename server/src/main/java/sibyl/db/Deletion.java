package sibyl.db;

/**
 * The tombstone of a row or a super column: the timestamp it was deleted at and the local time
 * (seconds since the epoch) the deletion was made, which decides when compaction may drop it.
 * {@link #LIVE} is "never deleted".
 *
 * <p>Immutable. {@link #of} hands out the shared {@link #LIVE} for the never-deleted pair, so
 * reading a row or super column that was never deleted allocates no tombstone.
 *
 * @param markedForDeleteAt a tombstone at T hides every version written at a timestamp &lt;= T;
 *                          Long.MIN_VALUE when never deleted (which hides only writes at
 *                          Long.MIN_VALUE, as in 0.6)
 * @param localDeletionTime seconds since the epoch when the deletion was made; Integer.MIN_VALUE
 *                          when never deleted
 */
public record Deletion(long markedForDeleteAt, int localDeletionTime) {
    /** Never deleted. */
    public static final Deletion LIVE = new Deletion(Long.MIN_VALUE, Integer.MIN_VALUE);

    /** The tombstone at {@code markedForDeleteAt}, made at {@code localDeletionTime}; {@link #LIVE} for the never-deleted pair. */
    public static Deletion of(long markedForDeleteAt, int localDeletionTime) {
        if (markedForDeleteAt == LIVE.markedForDeleteAt && localDeletionTime == LIVE.localDeletionTime) return LIVE;
        return new Deletion(markedForDeleteAt, localDeletionTime);
    }

    /** Whether this is a tombstone at all: no timestamp a client writes is below Long.MIN_VALUE. */
    public boolean isMarkedForDelete() {
        return markedForDeleteAt != Long.MIN_VALUE;
    }

    /**
     * Whether this tombstone replaces {@code other} where both meet: the later timestamp wins, and
     * of equal timestamps the later deletion time, so that merging tombstones in any order keeps
     * the same one.
     */
    public boolean supersedes(Deletion other) {
        return markedForDeleteAt > other.markedForDeleteAt
                || (markedForDeleteAt == other.markedForDeleteAt && localDeletionTime > other.localDeletionTime);
    }

    /** The one of {@code a} and {@code b} that is kept (see {@link #supersedes}); commutative. */
    public static Deletion reconcile(Deletion a, Deletion b) {
        return a.supersedes(b) ? a : b;
    }

    /** Whether this tombstone hides a version written at {@code timestamp}: one at or before it (0.6's rule). */
    public boolean shadows(long timestamp) {
        return timestamp <= markedForDeleteAt;
    }

    /**
     * Whether compaction may drop this tombstone when tombstones made before {@code gcBefore}
     * (seconds since the epoch: now − GCGraceSeconds) may go.
     */
    public boolean isPurgeable(int gcBefore) {
        return isMarkedForDelete() && localDeletionTime < gcBefore;
    }

    @Override
    public String toString() {
        return isMarkedForDelete() ? "deleted at " + markedForDeleteAt + " (" + localDeletionTime + ")" : "live";
    }
}
