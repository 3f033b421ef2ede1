package sibyl.db;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Changes to one row (one key of one keyspace), in any number of its column families. A node
 * applies a mutation atomically and isolated per column family: a reader of the row sees all
 * of the mutation's changes to that column family or none.
 *
 * <p>Immutable. Tombstones created by the mutation carry {@link #localDeletionTime()}, fixed when
 * the mutation is built, so replaying a logged mutation recreates identical tombstones.
 */
public final class RowMutation {
    private final String keyspace;
    private final String key;
    private final Map<String, List<Change>> changes;
    private final String soleColumnFamily; // null unless exactly one column family is changed
    private final int localDeletionTime;

    private RowMutation(String keyspace, String key, Map<String, List<Change>> changes, String soleColumnFamily,
                        int localDeletionTime) {
        this.keyspace = keyspace;
        this.key = key;
        this.changes = changes;
        this.soleColumnFamily = soleColumnFamily;
        this.localDeletionTime = localDeletionTime;
    }

    public static Builder builder(String keyspace, String key) {
        return new Builder(keyspace, key);
    }

    public String keyspace() {
        return keyspace;
    }

    public String key() {
        return key;
    }

    /** Column family name to its changes, in the order they were added; never empty lists. */
    public Map<String, List<Change>> changes() {
        return changes;
    }

    /**
     * The column family, when the mutation changes exactly one (most do); null otherwise. Names it without
     * iterating {@link #changes()}, whose single-entry map allocates its views: for code on every write, such as
     * the request counting at the storage seam.
     */
    public String soleColumnFamily() {
        return soleColumnFamily;
    }

    /**
     * Seconds since the epoch, stamped into every tombstone this mutation creates; the time its expiring columns
     * count their ttl from.
     */
    public int localDeletionTime() {
        return localDeletionTime;
    }

    public boolean isEmpty() {
        return changes.isEmpty();
    }

    @Override
    public String toString() {
        return "RowMutation(" + keyspace + ", " + key + ", " + changes + ")";
    }

    /** Collects the changes of one row mutation. Not thread-safe. */
    public static final class Builder {
        private final String keyspace;
        private final String key;
        private final Map<String, List<Change>> changes = new LinkedHashMap<>();
        private int localDeletionTime = (int) (System.currentTimeMillis() / 1000);
        // The list changes were last added to: a batch adds its changes to one column family in a run.
        private String lastColumnFamily;
        private List<Change> lastChanges;

        private Builder(String keyspace, String key) {
            this.keyspace = Objects.requireNonNull(keyspace, "keyspace");
            this.key = Objects.requireNonNull(key, "key");
        }

        public Builder add(String columnFamily, Change change) {
            Objects.requireNonNull(change, "change");
            if (!Objects.requireNonNull(columnFamily, "columnFamily").equals(lastColumnFamily)) {
                lastChanges = changes.computeIfAbsent(columnFamily, cf -> new ArrayList<>());
                lastColumnFamily = columnFamily;
            }
            lastChanges.add(change);
            return this;
        }

        /** Writes a column of a standard column family. */
        public Builder write(String columnFamily, byte[] name, byte[] value, long timestamp) {
            return add(columnFamily, new Change.Write(null, name, value, timestamp));
        }

        /** Writes a subcolumn of a super column. */
        public Builder write(String columnFamily, byte[] superColumn, byte[] name, byte[] value, long timestamp) {
            return add(columnFamily, new Change.Write(Objects.requireNonNull(superColumn), name, value, timestamp));
        }

        /** Writes a column of a standard column family that expires {@code ttl} seconds after the mutation's time. */
        public Builder write(String columnFamily, byte[] name, byte[] value, long timestamp, int ttl) {
            return add(columnFamily, new Change.Write(null, name, value, timestamp, ttl));
        }

        /** Writes a subcolumn that expires {@code ttl} seconds after the mutation's time. */
        public Builder write(String columnFamily, byte[] superColumn, byte[] name, byte[] value, long timestamp, int ttl) {
            return add(columnFamily, new Change.Write(Objects.requireNonNull(superColumn), name, value, timestamp, ttl));
        }

        /** Tombstones a column of a standard column family. */
        public Builder deleteColumn(String columnFamily, byte[] name, long timestamp) {
            return add(columnFamily, new Change.DeleteColumn(null, name, timestamp));
        }

        /** Tombstones a subcolumn of a super column. */
        public Builder deleteSubcolumn(String columnFamily, byte[] superColumn, byte[] name, long timestamp) {
            return add(columnFamily, new Change.DeleteColumn(Objects.requireNonNull(superColumn), name, timestamp));
        }

        public Builder deleteSuperColumn(String columnFamily, byte[] superColumn, long timestamp) {
            return add(columnFamily, new Change.DeleteSuperColumn(superColumn, timestamp));
        }

        public Builder deleteRow(String columnFamily, long timestamp) {
            return add(columnFamily, new Change.DeleteRow(timestamp));
        }

        /** See {@link Change.DeleteSlice}; {@code superColumn} null = at the column family level. */
        public Builder deleteSlice(String columnFamily, byte[] superColumn, ColumnSelection.Range range, long timestamp) {
            return add(columnFamily, new Change.DeleteSlice(superColumn, range, timestamp));
        }

        /** Overrides the tombstones' local deletion time (seconds), e.g. when replaying a log. */
        public Builder localDeletionTime(int seconds) {
            this.localDeletionTime = seconds;
            return this;
        }

        public RowMutation build() {
            if (changes.size() == 1) { // most mutations change one column family: a smaller map
                Map.Entry<String, List<Change>> only = changes.entrySet().iterator().next();
                return new RowMutation(keyspace, key, Map.of(only.getKey(), List.copyOf(only.getValue())),
                        only.getKey(), localDeletionTime);
            }
            Map<String, List<Change>> copy = new LinkedHashMap<>();
            changes.forEach((cf, list) -> copy.put(cf, List.copyOf(list)));
            return new RowMutation(keyspace, key, Collections.unmodifiableMap(copy), null, localDeletionTime);
        }
    }
}
