package sibyl.db;

import java.util.Objects;
import java.util.OptionalInt;
import sibyl.db.marshal.AbstractType;

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
 */
public record CFMetaData(String keyspace, String name, boolean isSuper, AbstractType comparator,
                         AbstractType subcomparator, String comment, CacheConfig caches, OptionalInt gcGraceSeconds,
                         Validators validators) {
    public CFMetaData {
        Objects.requireNonNull(keyspace, "keyspace");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(comparator, "comparator");
        Objects.requireNonNull(caches, "caches");
        Objects.requireNonNull(gcGraceSeconds, "gcGraceSeconds");
        Objects.requireNonNull(validators, "validators");
        if (isSuper && subcomparator == null) {
            throw new IllegalArgumentException("super column family " + keyspace + "." + name + " needs a subcomparator");
        }
        if (!isSuper && subcomparator != null) {
            throw new IllegalArgumentException("standard column family " + keyspace + "." + name
                    + " cannot have a subcomparator");
        }
    }

    /** A column family without caches, whose tombstones age by the node's GCGraceSeconds. */
    public CFMetaData(String keyspace, String name, boolean isSuper, AbstractType comparator,
                      AbstractType subcomparator, String comment) {
        this(keyspace, name, isSuper, comparator, subcomparator, comment, CacheConfig.NONE, OptionalInt.empty(),
                Validators.NONE);
    }

    public static CFMetaData standard(String keyspace, String name, AbstractType comparator) {
        return new CFMetaData(keyspace, name, false, comparator, null, null);
    }

    public static CFMetaData ofSuper(String keyspace, String name, AbstractType comparator, AbstractType subcomparator) {
        return new CFMetaData(keyspace, name, true, comparator, subcomparator, null);
    }

    public CFMetaData withCaches(CacheConfig caches) {
        return new CFMetaData(keyspace, name, isSuper, comparator, subcomparator, comment, caches, gcGraceSeconds,
                validators);
    }

    public CFMetaData withGcGraceSeconds(int seconds) {
        if (seconds < 0) throw new IllegalArgumentException("GCGraceSeconds must not be negative: " + seconds);
        return new CFMetaData(keyspace, name, isSuper, comparator, subcomparator, comment, caches, OptionalInt.of(seconds),
                validators);
    }

    public CFMetaData withValidators(Validators validators) {
        return new CFMetaData(keyspace, name, isSuper, comparator, subcomparator, comment, caches, gcGraceSeconds,
                validators);
    }

    /**
     * Whether rows of {@code other} are rows of this column family: the same keyspace, name, type and
     * comparators. The configured settings (caches, GCGraceSeconds, comment) may differ: a reload of the
     * configuration changes them while the rows written before stay what they are.
     */
    public boolean sameRowsAs(CFMetaData other) {
        if (this == other) return true; // the usual case, once per row written
        return keyspace.equals(other.keyspace) && name.equals(other.name) && isSuper == other.isSuper
                && comparator.className().equals(other.comparator.className())
                && (subcomparator == null ? other.subcomparator == null
                : other.subcomparator != null && subcomparator.className().equals(other.subcomparator.className()));
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
