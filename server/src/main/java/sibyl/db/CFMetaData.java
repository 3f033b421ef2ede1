package sibyl.db;

import java.util.Objects;
import java.util.OptionalInt;
import sibyl.db.marshal.AbstractType;
import sibyl.db.marshal.CounterColumnType;

/**
 * One column family: its schema, and the settings storage-conf.xml gives it, which travel with
 * it to whatever stores it. Immutable.
 *
 * @param comparator     orders column names (super column names in a super CF)
 * @param subcomparator  orders subcolumn names; null for a standard CF
 * @param comment        the configured comment, or null
 * @param caches         KeysCached, RowsCached, their save periods and PreloadRowCache
 * @param gcGraceSeconds this column family's own GCGraceSeconds (0.7's per column family
 *                       attribute); empty to use the node's
 * @param validators     the types the 0.7+ dialect checks keys and values against
 * @param defaultTimeToLive seconds a column written without a ttl lives where 3.11 gives it this one
 *                       (DefaultTimeToLive; docs/semantics.md §Expiring columns); 0 for none
 * @param indexes        the columns with a KEYS secondary index (docs/thrift-api-0.7.md §Secondary indexes)
 */
public record CFMetaData(String keyspace, String name, boolean isSuper, AbstractType comparator,
                         AbstractType subcomparator, String comment, CacheConfig caches, OptionalInt gcGraceSeconds,
                         Validators validators, int defaultTimeToLive, ColumnIndexes indexes) {
    /** The longest time to live a column, or a column family's default, may have: 20 years, as in 3.11. */
    public static final int MAX_TTL = 20 * 365 * 24 * 60 * 60;

    public CFMetaData {
        if (defaultTimeToLive < 0 || defaultTimeToLive > MAX_TTL) {
            throw new IllegalArgumentException("default time to live of " + keyspace + "." + name + " must be from 0 to "
                    + MAX_TTL + ", not " + defaultTimeToLive);
        }
        Objects.requireNonNull(keyspace, "keyspace");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(comparator, "comparator");
        Objects.requireNonNull(caches, "caches");
        Objects.requireNonNull(gcGraceSeconds, "gcGraceSeconds");
        Objects.requireNonNull(validators, "validators");
        Objects.requireNonNull(indexes, "indexes");
        if (isSuper && !indexes.isEmpty()) {
            throw new IllegalArgumentException("super column family " + keyspace + "." + name + " cannot have indexes");
        }
        if (isSuper && subcomparator == null) {
            throw new IllegalArgumentException("super column family " + keyspace + "." + name + " needs a subcomparator");
        }
        if (!isSuper && subcomparator != null) {
            throw new IllegalArgumentException("standard column family " + keyspace + "." + name
                    + " cannot have a subcomparator");
        }
    }

    /** A column family without secondary indexes. */
    public CFMetaData(String keyspace, String name, boolean isSuper, AbstractType comparator, AbstractType subcomparator,
                      String comment, CacheConfig caches, OptionalInt gcGraceSeconds, Validators validators,
                      int defaultTimeToLive) {
        this(keyspace, name, isSuper, comparator, subcomparator, comment, caches, gcGraceSeconds, validators,
                defaultTimeToLive, ColumnIndexes.NONE);
    }

    /** A column family whose columns do not expire unless written with a ttl. */
    public CFMetaData(String keyspace, String name, boolean isSuper, AbstractType comparator, AbstractType subcomparator,
                      String comment, CacheConfig caches, OptionalInt gcGraceSeconds, Validators validators) {
        this(keyspace, name, isSuper, comparator, subcomparator, comment, caches, gcGraceSeconds, validators, 0);
    }

    /** A column family that checks no key or value and whose columns do not expire unless written with a ttl. */
    public CFMetaData(String keyspace, String name, boolean isSuper, AbstractType comparator, AbstractType subcomparator,
                      String comment, CacheConfig caches, OptionalInt gcGraceSeconds) {
        this(keyspace, name, isSuper, comparator, subcomparator, comment, caches, gcGraceSeconds, Validators.NONE, 0);
    }

    /** As the canonical constructor, checking no key or value. */
    public CFMetaData(String keyspace, String name, boolean isSuper, AbstractType comparator, AbstractType subcomparator,
                      String comment, CacheConfig caches, OptionalInt gcGraceSeconds, int defaultTimeToLive) {
        this(keyspace, name, isSuper, comparator, subcomparator, comment, caches, gcGraceSeconds, Validators.NONE,
                defaultTimeToLive);
    }

    /** A column family without caches, whose tombstones age by the node's GCGraceSeconds. */
    public CFMetaData(String keyspace, String name, boolean isSuper, AbstractType comparator,
                      AbstractType subcomparator, String comment) {
        this(keyspace, name, isSuper, comparator, subcomparator, comment, CacheConfig.NONE, OptionalInt.empty());
    }

    public static CFMetaData standard(String keyspace, String name, AbstractType comparator) {
        return new CFMetaData(keyspace, name, false, comparator, null, null);
    }

    public static CFMetaData ofSuper(String keyspace, String name, AbstractType comparator, AbstractType subcomparator) {
        return new CFMetaData(keyspace, name, true, comparator, subcomparator, null);
    }

    public CFMetaData withCaches(CacheConfig caches) {
        return new CFMetaData(keyspace, name, isSuper, comparator, subcomparator, comment, caches, gcGraceSeconds,
                validators, defaultTimeToLive, indexes);
    }

    public CFMetaData withGcGraceSeconds(int seconds) {
        if (seconds < 0) throw new IllegalArgumentException("GCGraceSeconds must not be negative: " + seconds);
        return new CFMetaData(keyspace, name, isSuper, comparator, subcomparator, comment, caches, OptionalInt.of(seconds),
                validators, defaultTimeToLive, indexes);
    }

    public CFMetaData withValidators(Validators validators) {
        return new CFMetaData(keyspace, name, isSuper, comparator, subcomparator, comment, caches, gcGraceSeconds,
                validators, defaultTimeToLive, indexes);
    }

    /** This column family with {@code seconds} as its default time to live (0: none). */
    public CFMetaData withDefaultTimeToLive(int seconds) {
        return new CFMetaData(keyspace, name, isSuper, comparator, subcomparator, comment, caches, gcGraceSeconds,
                validators, seconds, indexes);
    }

    /** This column family with {@code indexes} as its secondary indexes. */
    public CFMetaData withIndexes(ColumnIndexes indexes) {
        return new CFMetaData(keyspace, name, isSuper, comparator, subcomparator, comment, caches, gcGraceSeconds,
                validators, defaultTimeToLive, indexes);
    }

    /**
     * Whether rows of {@code other} are rows of this column family: the same keyspace, name, type,
     * comparators and kind of cells (counters or not). The configured settings (caches, GCGraceSeconds, DefaultTimeToLive, comment) may differ: a reload of the
     * configuration changes them while the rows written before stay what they are.
     */
    public boolean sameRowsAs(CFMetaData other) {
        if (this == other) return true; // the usual case, once per row written
        return keyspace.equals(other.keyspace) && name.equals(other.name) && isSuper == other.isSuper
                && isCounter() == other.isCounter()
                && comparator.className().equals(other.comparator.className())
                && (subcomparator == null ? other.subcomparator == null
                : other.subcomparator != null && subcomparator.className().equals(other.subcomparator.className()));
    }

    /**
     * Whether this is a counter column family (default_validation_class CounterColumnType): its cells are counters,
     * which merge by adding up (docs/semantics.md §Counters).
     */
    public boolean isCounter() {
        return validators.defaultValue() instanceof CounterColumnType;
    }

    /**
     * 3.11's refusal of a write to this counter column family at consistency ANY, which a counter cannot be written
     * at: the same words whether the write comes as a Thrift call or a CQL statement (docs/thrift-api-0.7.md).
     */
    public String counterWriteAtAnyRefusal() {
        return "Consistency level ANY is not yet supported for counter table " + name;
    }

    /** {@code Standard} or {@code Super}, as describe_keyspace says. */
    public String columnType() {
        return isSuper ? "Super" : "Standard";
    }

    /** The comparator of names at the column level: the subcomparator of a super CF, else the comparator. */
    public AbstractType columnComparator() {
        return isSuper ? subcomparator : comparator;
    }
}
