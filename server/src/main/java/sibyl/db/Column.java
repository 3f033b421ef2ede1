package sibyl.db;

import java.util.Arrays;
import java.util.Objects;

/**
 * A column version: live (name, value, timestamp) or a tombstone. A tombstone's value is the
 * 4-byte big-endian local deletion time in seconds, as 0.6 stores it; it is never returned to
 * clients. Immutable; the arrays are owned by the column and must not be modified.
 */
public final class Column implements Cell {
    private final byte[] name;
    private final byte[] value;
    private final long timestamp;
    private final boolean deleted;

    private Column(byte[] name, byte[] value, long timestamp, boolean deleted) {
        this.name = Objects.requireNonNull(name, "name");
        this.value = Objects.requireNonNull(value, "value");
        this.timestamp = timestamp;
        this.deleted = deleted;
    }

    /** Takes ownership of both arrays. */
    public static Column live(byte[] name, byte[] value, long timestamp) {
        return new Column(name, value, timestamp, false);
    }

    /** A tombstone for {@code name} written at {@code timestamp}, created at {@code localDeletionTime} (s). */
    public static Column tombstone(byte[] name, long timestamp, int localDeletionTime) {
        byte[] v = {(byte) (localDeletionTime >>> 24), (byte) (localDeletionTime >>> 16),
                (byte) (localDeletionTime >>> 8), (byte) localDeletionTime};
        return new Column(name, v, timestamp, true);
    }

    @Override
    public byte[] name() {
        return name;
    }

    /** The value; for a tombstone the encoded local deletion time. Must not be modified. */
    public byte[] value() {
        return value;
    }

    public long timestamp() {
        return timestamp;
    }

    public boolean isTombstone() {
        return deleted;
    }

    /** Seconds since the epoch when the tombstone was created; only for tombstones. */
    public int localDeletionTime() {
        if (!deleted) throw new IllegalStateException("a live column has no deletion time");
        return ((value[0] & 0xff) << 24) | ((value[1] & 0xff) << 16) | ((value[2] & 0xff) << 8) | (value[3] & 0xff);
    }

    /** True when a reader sees this column under {@code covering}, the row or super column tombstone above it. */
    public boolean isLive(Deletion covering) {
        return !deleted && !covering.shadows(timestamp);
    }

    /**
     * Whether compaction may drop this column as a tombstone made before {@code gcBefore} (seconds
     * since the epoch: now − GCGraceSeconds), as {@link Deletion#isPurgeable} for rows.
     */
    public boolean isPurgeable(int gcBefore) {
        return deleted && localDeletionTime() < gcBefore;
    }

    /**
     * The version that wins (docs/semantics.md §Tombstones): the higher timestamp; on equal timestamps a
     * tombstone beats a live column, and of two live columns the larger value under unsigned
     * byte comparison wins. Commutative, so merge order never matters.
     */
    public static Column reconcile(Column a, Column b) {
        if (a.timestamp != b.timestamp) return a.timestamp > b.timestamp ? a : b;
        if (a.deleted != b.deleted) return a.deleted ? a : b;
        return Arrays.compareUnsigned(a.value, b.value) >= 0 ? a : b;
    }

    /** Bytes this version takes in 0.6's serialized form, the unit of memtable throughput. */
    public int serializedSize() {
        return 2 + name.length + 1 + 8 + 4 + value.length;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Column c && timestamp == c.timestamp && deleted == c.deleted
                && Arrays.equals(name, c.name) && Arrays.equals(value, c.value);
    }

    @Override
    public int hashCode() {
        return Objects.hash(Arrays.hashCode(name), Arrays.hashCode(value), timestamp, deleted);
    }

    @Override
    public String toString() {
        return (deleted ? "Tombstone(" : "Column(") + Bytes.hex(name) + (deleted ? "" : ", " + Bytes.hex(value))
                + ", ts=" + timestamp + ")";
    }
}
