package sibyl.client;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.cassandra.thrift.Column;
import org.apache.cassandra.thrift.ColumnOrSuperColumn;
import org.apache.cassandra.thrift.Deletion;
import org.apache.cassandra.thrift.Mutation;
import org.apache.cassandra.thrift.SuperColumn;

/**
 * Builds the {@code key → column family → mutations} map of batch_mutate:
 *
 * <pre>{@code
 * BatchMutation batch = new BatchMutation(SibylClient.nowMicros());
 * batch.row("Standard1", "jsmith").put(utf8("first"), utf8("John")).put(utf8("last"), utf8("Smith"));
 * batch.row("Super1", "jsmith").putSub(utf8("address"), utf8("city"), utf8("Paris"));
 * client.batchMutate("Keyspace1", batch);
 * }</pre>
 *
 * All mutations carry the batch's timestamp unless one is given. A batch is atomic per row on a node,
 * not across rows.
 */
public final class BatchMutation {

    private final long timestamp;
    private final Map<String, Map<String, List<Mutation>>> mutations = new LinkedHashMap<>();

    public BatchMutation(long timestamp) {
        this.timestamp = timestamp;
    }

    /** A batch timestamped now. */
    public BatchMutation() {
        this(SibylClient.nowMicros());
    }

    public long timestamp() {
        return timestamp;
    }

    /** The mutations of one row of one column family. */
    public Row row(String columnFamily, String key) {
        return new Row(mutations.computeIfAbsent(key, k -> new LinkedHashMap<>())
                .computeIfAbsent(columnFamily, cf -> new ArrayList<>()));
    }

    public boolean isEmpty() {
        return mutations.isEmpty();
    }

    /** Number of mutations over all rows. */
    public int size() {
        int n = 0;
        for (Map<String, List<Mutation>> byCf : mutations.values()) {
            for (List<Mutation> list : byCf.values()) {
                n += list.size();
            }
        }
        return n;
    }

    /** The map batch_mutate takes (live view). */
    public Map<String, Map<String, List<Mutation>>> toThrift() {
        return mutations;
    }

    /** Adds mutations to one row of one column family; methods chain. */
    public final class Row {
        private final List<Mutation> list;

        private Row(List<Mutation> list) {
            this.list = list;
        }

        /** Writes a column of a standard column family. */
        public Row put(byte[] name, byte[] value) {
            return put(name, value, timestamp);
        }

        public Row put(byte[] name, byte[] value, long ts) {
            Column c = new Column(Bytes.wrap(name), Bytes.wrap(value), ts);
            list.add(new Mutation().setColumn_or_supercolumn(new ColumnOrSuperColumn().setColumn(c)));
            return this;
        }

        /** Writes one subcolumn of a super column family. */
        public Row putSub(byte[] superColumn, byte[] name, byte[] value) {
            return putSuper(superColumn, List.of(new Column(Bytes.wrap(name), Bytes.wrap(value), timestamp)));
        }

        /** Writes several subcolumns of one super column. */
        public Row putSuper(byte[] superColumn, List<Column> columns) {
            SuperColumn sc = new SuperColumn(Bytes.wrap(superColumn), new ArrayList<>(columns));
            list.add(new Mutation().setColumn_or_supercolumn(new ColumnOrSuperColumn().setSuper_column(sc)));
            return this;
        }

        /** Deletes columns of a standard CF, or whole super columns of a super CF. */
        public Row delete(byte[]... names) {
            Deletion d = new Deletion(timestamp).setPredicate(Predicates.names(names));
            list.add(new Mutation().setDeletion(d));
            return this;
        }

        /** Deletes subcolumns of one super column. */
        public Row deleteSub(byte[] superColumn, byte[]... names) {
            Deletion d = new Deletion(timestamp).setSuper_column(superColumn).setPredicate(Predicates.names(names));
            list.add(new Mutation().setDeletion(d));
            return this;
        }

        /** Deletes a whole super column. */
        public Row deleteSuper(byte[] superColumn) {
            list.add(new Mutation().setDeletion(new Deletion(timestamp).setSuper_column(superColumn)));
            return this;
        }

        /** Deletes the whole row of this column family (servers of 0.6.3 and later). */
        public Row deleteRow() {
            list.add(new Mutation().setDeletion(new Deletion(timestamp)));
            return this;
        }
    }
}
