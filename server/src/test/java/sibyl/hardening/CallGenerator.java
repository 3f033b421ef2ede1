package sibyl.hardening;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.cassandra.thrift.AuthenticationRequest;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.cassandra.thrift.Column;
import org.apache.cassandra.thrift.ColumnOrSuperColumn;
import org.apache.cassandra.thrift.ColumnParent;
import org.apache.cassandra.thrift.ColumnPath;
import org.apache.cassandra.thrift.ConsistencyLevel;
import org.apache.cassandra.thrift.Deletion;
import org.apache.cassandra.thrift.KeyRange;
import org.apache.cassandra.thrift.Mutation;
import org.apache.cassandra.thrift.SlicePredicate;
import org.apache.cassandra.thrift.SliceRange;
import org.apache.cassandra.thrift.SuperColumn;
import org.apache.thrift.TBase;
import sibyl.transport.WireBytes;

/**
 * Random but well-formed calls of the 0.6 interface, built with the generated argument structs: mostly against
 * the shipped schema (so they reach storage), sometimes naming keyspaces, column families or levels that do not
 * exist. Values are small, so the data the fuzzer stores stays small.
 */
final class CallGenerator {
    /** A generated call: its method name and arguments. */
    record Call(String method, TBase<?, ?> args) {
        byte[] bytes(int seqId, boolean strictHeader) {
            return WireBytes.call(method, seqId, args, strictHeader);
        }
    }

    private static final String[] KEYSPACES = {"Keyspace1", "Keyspace1", "Keyspace1", "Twitter", "system", "Nope", ""};
    private static final String[] COLUMN_FAMILIES = {"Standard1", "Standard2", "StandardByUUID1", "Super1", "Super2",
            "Statuses", "Nope", ""};

    private final Random random;

    CallGenerator(Random random) {
        this.random = random;
    }

    Call next() {
        return switch (random.nextInt(16)) {
            case 0 -> new Call("get", new Cassandra.get_args(keyspace(), key(), path(), level()));
            case 1 -> new Call("get_slice", new Cassandra.get_slice_args(keyspace(), key(), parent(), predicate(), level()));
            case 2 -> new Call("multiget", new Cassandra.multiget_args(keyspace(), keys(), path(), level()));
            case 3 -> new Call("multiget_slice",
                    new Cassandra.multiget_slice_args(keyspace(), keys(), parent(), predicate(), level()));
            case 4 -> new Call("get_count", new Cassandra.get_count_args(keyspace(), key(), parent(), level()));
            case 5 -> new Call("get_range_slice", new Cassandra.get_range_slice_args(keyspace(), parent(), predicate(),
                    key(), key(), random.nextInt(20) - 2, level()));
            case 6 -> new Call("get_range_slices",
                    new Cassandra.get_range_slices_args(keyspace(), parent(), predicate(), keyRange(), level()));
            case 7, 8 -> new Call("insert", new Cassandra.insert_args(keyspace(), key(), path(), bytes(32),
                    timestamp(), level()));
            case 9 -> new Call("batch_insert", new Cassandra.batch_insert_args(keyspace(), key(), cfmap(), level()));
            case 10 -> new Call("remove", new Cassandra.remove_args(keyspace(), key(), path(), timestamp(), level()));
            case 11, 12 -> new Call("batch_mutate", new Cassandra.batch_mutate_args(keyspace(), mutationMap(), level()));
            case 13 -> new Call("login", new Cassandra.login_args(keyspace(), new AuthenticationRequest(Map.of(
                    "username", text(), "password", random.nextBoolean() ? "havebadpass" : text()))));
            case 14 -> new Call("describe_splits", new Cassandra.describe_splits_args(text(), text(), random.nextInt(5) - 1));
            default -> describe();
        };
    }

    private Call describe() {
        return switch (random.nextInt(9)) {
            case 0 -> new Call("describe_keyspaces", new Cassandra.describe_keyspaces_args());
            case 1 -> new Call("describe_cluster_name", new Cassandra.describe_cluster_name_args());
            case 2 -> new Call("describe_version", new Cassandra.describe_version_args());
            case 3 -> new Call("describe_ring", new Cassandra.describe_ring_args(keyspace()));
            case 4 -> new Call("describe_partitioner", new Cassandra.describe_partitioner_args());
            case 5 -> new Call("describe_keyspace", new Cassandra.describe_keyspace_args(keyspace()));
            case 6 -> new Call("get_string_property", new Cassandra.get_string_property_args(
                    pick(new String[] {"cluster name", "token map", "version", "nope"})));
            case 7 -> new Call("get_string_list_property", new Cassandra.get_string_list_property_args("keyspaces"));
            default -> new Call("no_such_method", new Cassandra.describe_version_args());
        };
    }

    private String keyspace() {
        return pick(KEYSPACES);
    }

    private String columnFamily() {
        return pick(COLUMN_FAMILIES);
    }

    private ConsistencyLevel level() {
        ConsistencyLevel[] levels = ConsistencyLevel.values();
        return random.nextInt(4) == 0 ? levels[random.nextInt(levels.length)] : ConsistencyLevel.ONE;
    }

    private String key() {
        return random.nextInt(10) == 0 ? "" : "k" + random.nextInt(50);
    }

    private List<String> keys() {
        List<String> keys = new ArrayList<>();
        for (int i = random.nextInt(4); i > 0; i--) {
            keys.add(key());
        }
        return keys;
    }

    private String text() {
        return random.nextBoolean() ? "jsmith" : Long.toString(random.nextLong(), 36);
    }

    private long timestamp() {
        return random.nextInt(8) == 0 ? random.nextLong() : random.nextInt(1_000_000);
    }

    private ByteBuffer bytes(int max) {
        byte[] b = new byte[random.nextInt(max + 1)];
        random.nextBytes(b);
        return ByteBuffer.wrap(b);
    }

    /** A column or super column name: mostly short text (valid for every comparator but TimeUUID), else bytes. */
    private ByteBuffer name() {
        return random.nextInt(4) == 0 ? bytes(16)
                : ByteBuffer.wrap(("c" + random.nextInt(20)).getBytes(StandardCharsets.UTF_8));
    }

    private ColumnPath path() {
        ColumnPath path = new ColumnPath(columnFamily());
        if (random.nextBoolean()) path.setSuper_column(name());
        if (random.nextInt(4) != 0) path.setColumn(name());
        return path;
    }

    private ColumnParent parent() {
        ColumnParent parent = new ColumnParent(columnFamily());
        if (random.nextInt(3) == 0) parent.setSuper_column(name());
        return parent;
    }

    private SlicePredicate predicate() {
        SlicePredicate predicate = new SlicePredicate();
        int shape = random.nextInt(5);
        if (shape != 1) {
            predicate.setSlice_range(new SliceRange(random.nextBoolean() ? ByteBuffer.allocate(0) : name(),
                    random.nextBoolean() ? ByteBuffer.allocate(0) : name(), random.nextBoolean(), random.nextInt(12) - 1));
        }
        if (shape <= 1) {
            List<ByteBuffer> names = new ArrayList<>();
            for (int i = random.nextInt(4); i > 0; i--) names.add(name());
            predicate.setColumn_names(names);
        }
        return predicate;
    }

    private KeyRange keyRange() {
        KeyRange range = new KeyRange(random.nextInt(12) - 1);
        if (random.nextBoolean()) {
            range.setStart_key(key());
            range.setEnd_key(key());
        } else {
            range.setStart_token(Integer.toString(random.nextInt(1000)));
            range.setEnd_token(random.nextBoolean() ? "x" : Integer.toString(random.nextInt(1000)));
        }
        if (random.nextInt(8) == 0) range.setStart_key(key());
        return range;
    }

    private ColumnOrSuperColumn cosc() {
        ColumnOrSuperColumn cosc = new ColumnOrSuperColumn();
        int shape = random.nextInt(6);
        if (shape != 0) cosc.setColumn(column());
        if (shape <= 1) {
            List<Column> columns = new ArrayList<>();
            for (int i = random.nextInt(3); i > 0; i--) columns.add(column());
            cosc.setSuper_column(new SuperColumn(name(), columns));
        }
        return cosc;
    }

    private Column column() {
        return new Column(name(), bytes(24), timestamp());
    }

    private Map<String, List<ColumnOrSuperColumn>> cfmap() {
        Map<String, List<ColumnOrSuperColumn>> map = new HashMap<>();
        for (int i = random.nextInt(3); i > 0; i--) {
            List<ColumnOrSuperColumn> list = new ArrayList<>();
            for (int j = random.nextInt(3); j > 0; j--) list.add(cosc());
            map.put(columnFamily(), list);
        }
        return map;
    }

    private Map<String, Map<String, List<Mutation>>> mutationMap() {
        Map<String, Map<String, List<Mutation>>> rows = new HashMap<>();
        for (int i = random.nextInt(3); i > 0; i--) {
            Map<String, List<Mutation>> cfs = new HashMap<>();
            for (int j = random.nextInt(3); j > 0; j--) {
                List<Mutation> mutations = new ArrayList<>();
                for (int k = random.nextInt(4); k > 0; k--) mutations.add(mutation());
                cfs.put(columnFamily(), mutations);
            }
            rows.put(key(), cfs);
        }
        return rows;
    }

    private Mutation mutation() {
        Mutation m = new Mutation();
        int shape = random.nextInt(5);
        if (shape != 0) m.setColumn_or_supercolumn(cosc());
        if (shape <= 1) {
            Deletion d = new Deletion(timestamp());
            if (random.nextBoolean()) d.setSuper_column(name());
            if (random.nextBoolean()) d.setPredicate(predicate());
            m.setDeletion(d);
        }
        return m;
    }

    private <T> T pick(T[] choices) {
        return choices[random.nextInt(choices.length)];
    }
}
