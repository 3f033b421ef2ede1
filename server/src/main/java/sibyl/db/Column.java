package sibyl.db;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Objects;

/**
 * A column version: live (name, value, timestamp), expiring (live until its local expiration time, then read
 * as a tombstone), a counter (the sum of the increments this version holds: docs/semantics.md §Counters), or a
 * tombstone. A tombstone's value is the 4-byte big-endian local deletion time in seconds,
 * as 0.6 stores it; it is never returned to clients. An expiring column keeps its time to live and the second
 * it expires at, as Cassandra 0.7 to 3.11 keep them (docs/semantics.md §Expiring columns). Immutable; the arrays
 * are owned by the column and must not be modified.
 */
public final class Column implements Cell {
    /** Of a column that does not expire. */
    public static final int NO_TTL = 0;

    private final byte[] name;
    private final byte[] value;
    private final long timestamp;
    private final boolean deleted;
    private final int ttl;
    private final int localExpirationTime;
    private final boolean counter;

    private Column(byte[] name, byte[] value, long timestamp, boolean deleted, int ttl, int localExpirationTime) {
        this(name, value, timestamp, deleted, ttl, localExpirationTime, false);
    }

    private Column(byte[] name, byte[] value, long timestamp, boolean deleted, int ttl, int localExpirationTime,
                   boolean counter) {
        this.name = Objects.requireNonNull(name, "name");
        this.value = Objects.requireNonNull(value, "value");
        this.timestamp = timestamp;
        this.deleted = deleted;
        this.ttl = ttl;
        this.localExpirationTime = localExpirationTime;
        this.counter = counter;
    }

    /**
     * A counter cell holding increments that sum to {@code count}, the newest of them written at {@code timestamp}:
     * one increment as a client sent it, or several already summed (a memtable's, an SSTable's). Its value is the
     * count as 8 big-endian bytes, what a read answers.
     */
    public static Column counter(byte[] name, long count, long timestamp) {
        return new Column(name, ByteBuffer.allocate(8).putLong(count).array(), timestamp, false, NO_TTL, Integer.MAX_VALUE, true);
    }

    /** Whether this is a counter cell (never a tombstone: a counter's deletion is an ordinary tombstone). */
    public boolean isCounter() {
        return counter;
    }

    /** The sum of this counter cell's increments. */
    public long count() {
        if (!counter) throw new IllegalStateException("not a counter: " + this);
        return ByteBuffer.wrap(value).getLong();
    }

    /** Takes ownership of both arrays. */
    public static Column live(byte[] name, byte[] value, long timestamp) {
        return new Column(name, value, timestamp, false, NO_TTL, Integer.MAX_VALUE);
    }

    /**
     * A column that reads as live before {@code localExpirationTime} (seconds since the epoch) and as a tombstone
     * from then on; {@code ttl} (seconds, positive) is what it was written with. Takes ownership of both arrays.
     */
    public static Column expiring(byte[] name, byte[] value, long timestamp, int ttl, int localExpirationTime) {
        if (ttl <= 0) throw new IllegalArgumentException("an expiring column needs a positive ttl, not " + ttl);
        return new Column(name, value, timestamp, false, ttl, localExpirationTime);
    }

    /** A tombstone for {@code name} written at {@code timestamp}, created at {@code localDeletionTime} (s). */
    public static Column tombstone(byte[] name, long timestamp, int localDeletionTime) {
        byte[] v = {(byte) (localDeletionTime >>> 24), (byte) (localDeletionTime >>> 16),
                (byte) (localDeletionTime >>> 8), (byte) localDeletionTime};
        return new Column(name, v, timestamp, true, NO_TTL, Integer.MAX_VALUE);
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

    /** Whether this is an expiring column (expired or not). */
    public boolean isExpiring() {
        return ttl != NO_TTL;
    }

    /** The time to live it was written with, in seconds; {@link #NO_TTL} unless expiring. */
    public int ttl() {
        return ttl;
    }

    /** Seconds since the epoch from which an expiring column reads as deleted; only for expiring columns. */
    public int localExpirationTime() {
        if (!isExpiring()) throw new IllegalStateException("a column that does not expire has no expiration time");
        return localExpirationTime;
    }

    /** Seconds since the epoch when the tombstone was created; only for tombstones. */
    public int localDeletionTime() {
        if (!deleted) throw new IllegalStateException("a live column has no deletion time");
        return ((value[0] & 0xff) << 24) | ((value[1] & 0xff) << 16) | ((value[2] & 0xff) << 8) | (value[3] & 0xff);
    }

    /** Whether this is an expiring column past its expiration at {@code nowSeconds}. */
    public boolean hasExpired(int nowSeconds) {
        return ttl != NO_TTL && nowSeconds >= localExpirationTime;
    }

    /**
     * True when a reader at {@code nowSeconds} (since the epoch) sees this column under {@code covering}, the row
     * or super column tombstone above it: not a tombstone, not expired, not shadowed.
     */
    public boolean isLive(Deletion covering, int nowSeconds) {
        return !deleted && !covering.shadows(timestamp) && !hasExpired(nowSeconds);
    }

    /**
     * What compaction at {@code nowSeconds} keeps of an expired column: a tombstone at its timestamp, dated when the
     * column was written (its expiration less its ttl), as 3.11 turns one; this column itself otherwise.
     */
    public Column expiredToTombstone(int nowSeconds) {
        return hasExpired(nowSeconds) ? tombstone(name, timestamp, localExpirationTime - ttl) : this;
    }

    /**
     * Whether compaction may drop this column as a tombstone made before {@code gcBefore} (seconds
     * since the epoch: now − GCGraceSeconds), as {@link Deletion#isPurgeable} for rows; an expiring column counts
     * as a tombstone made when it expires.
     */
    public boolean isPurgeable(int gcBefore) {
        if (ttl != NO_TTL) return localExpirationTime < gcBefore;
        return deleted && localDeletionTime() < gcBefore;
    }

    /**
     * The version that wins (docs/semantics.md §Tombstones, §Expiring columns): the higher timestamp; on equal
     * timestamps a tombstone beats a column, two tombstones the later deletion, and of two columns, expiring or
     * not, the larger value under unsigned byte comparison, as Cassandra 3.11 decides between columns it reads as
     * live. Left tied, a column that does not expire beats an expiring one, and of two expiring ones the later
     * expiration wins. Commutative and independent of the clock, so merge order and merge time never matter.
     */
    public static Column reconcile(Column a, Column b) {
        if (a.counter || b.counter) return reconcileCounters(a, b);
        if (a.timestamp != b.timestamp) return a.timestamp > b.timestamp ? a : b;
        if (a.deleted != b.deleted) return a.deleted ? a : b;
        int byValue = Arrays.compareUnsigned(a.value, b.value);
        if (byValue != 0) return byValue > 0 ? a : b;
        if (a.isExpiring() != b.isExpiring()) return a.isExpiring() ? b : a;
        return a.localExpirationTime >= b.localExpirationTime ? a : b;
    }

    /**
     * A counter cell against another version of its name (docs/semantics.md §Counters): two counter cells hold
     * disjoint increments, each applied once to one memtable, so they sum (wrapping past the range of a long, as 3.11
     * does); a tombstone beats a counter cell whatever their timestamps, as in 3.11, so a deleted counter stays deleted
     * until compaction purges its tombstone. Commutative and associative, so merge order never matters; never called
     * with one version twice (each source holds its own increments).
     */
    private static Column reconcileCounters(Column a, Column b) {
        if (a.deleted) return a;
        if (b.deleted) return b;
        if (a.counter && b.counter) {
            return counter(a.name, a.count() + b.count(), Math.max(a.timestamp, b.timestamp));
        }
        // A column family's cells are all counters or none; a plain column met here came from outside its rules
        // (an imported SSTable): the counter wins, the way a tombstone wins over it.
        return a.counter ? a : b;
    }

    /** Bytes this version takes in 0.6's serialized form, the unit of memtable throughput; 8 more if expiring. */
    public int serializedSize() {
        return 2 + name.length + 1 + 8 + 4 + value.length + (isExpiring() ? 8 : 0);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Column c && timestamp == c.timestamp && deleted == c.deleted && ttl == c.ttl && counter == c.counter
                && localExpirationTime == c.localExpirationTime && Arrays.equals(name, c.name) && Arrays.equals(value, c.value);
    }

    @Override
    public int hashCode() {
        return Objects.hash(Arrays.hashCode(name), Arrays.hashCode(value), timestamp, deleted, ttl, localExpirationTime, counter);
    }

    @Override
    public String toString() {
        if (counter) return "Counter(" + Bytes.hex(name) + ", " + count() + ", ts=" + timestamp + ")";
        return (deleted ? "Tombstone(" : "Column(") + Bytes.hex(name) + (deleted ? "" : ", " + Bytes.hex(value))
                + ", ts=" + timestamp + (isExpiring() ? ", ttl=" + ttl + ", expires=" + localExpirationTime : "") + ")";
    }
}
