package sibyl.db;

import java.util.Objects;
import sibyl.db.marshal.AbstractType;

/**
 * What the db layer needs to know about one column family.
 *
 * @param comparator    orders column names (super column names in a super CF)
 * @param subcomparator orders subcolumn names; null for a standard CF
 * @param comment       the configured comment, or null
 */
public record CFMetaData(String keyspace, String name, boolean isSuper, AbstractType comparator,
                         AbstractType subcomparator, String comment) {
    public CFMetaData {
        Objects.requireNonNull(keyspace, "keyspace");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(comparator, "comparator");
        if (isSuper && subcomparator == null) {
            throw new IllegalArgumentException("super column family " + keyspace + "." + name + " needs a subcomparator");
        }
        if (!isSuper && subcomparator != null) {
            throw new IllegalArgumentException("standard column family " + keyspace + "." + name
                    + " cannot have a subcomparator");
        }
    }

    public static CFMetaData standard(String keyspace, String name, AbstractType comparator) {
        return new CFMetaData(keyspace, name, false, comparator, null, null);
    }

    public static CFMetaData ofSuper(String keyspace, String name, AbstractType comparator, AbstractType subcomparator) {
        return new CFMetaData(keyspace, name, true, comparator, subcomparator, null);
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
