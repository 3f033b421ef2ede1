package sibyl.client.fake;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.cassandra.thrift.AuthenticationException;
import org.apache.cassandra.thrift.AuthenticationRequest;
import org.apache.cassandra.thrift.AuthorizationException;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.cassandra.thrift.Column;
import org.apache.cassandra.thrift.ColumnOrSuperColumn;
import org.apache.cassandra.thrift.ColumnParent;
import org.apache.cassandra.thrift.ColumnPath;
import org.apache.cassandra.thrift.ConsistencyLevel;
import org.apache.cassandra.thrift.Deletion;
import org.apache.cassandra.thrift.InvalidRequestException;
import org.apache.cassandra.thrift.KeyRange;
import org.apache.cassandra.thrift.KeySlice;
import org.apache.cassandra.thrift.Mutation;
import org.apache.cassandra.thrift.NotFoundException;
import org.apache.cassandra.thrift.SlicePredicate;
import org.apache.cassandra.thrift.SliceRange;
import org.apache.cassandra.thrift.SuperColumn;
import org.apache.cassandra.thrift.TokenRange;

/**
 * An in-memory stand-in for a 0.6 node, enough for the client tools' tests: one keyspace with a few
 * standard column families and two super ones, names compared as unsigned bytes, rows kept in key
 * (String) order as under an order-preserving partitioner. Deletes remove data outright (no
 * tombstones). Validation covers what the tests provoke, with 0.6's messages. Thread-safe (one lock).
 */
public final class FakeCassandra implements Cassandra.Iface {

    public static final String KEYSPACE = "Keyspace1";
    private static final String MARSHAL = "org.apache.cassandra.db.marshal.";
    private static final Comparator<byte[]> UNSIGNED = Arrays::compareUnsigned;

    record CfDef(String name, boolean isSuper, String compareWith, String compareSubcolumnsWith) {
    }

    /** A row: column name → Column (standard) or super column name → (name → Column) (super). */
    private static final class Row {
        final TreeMap<byte[], Column> columns = new TreeMap<>(UNSIGNED);
        final TreeMap<byte[], TreeMap<byte[], Column>> supers = new TreeMap<>(UNSIGNED);

        boolean isEmpty() {
            return columns.isEmpty() && supers.isEmpty();
        }
    }

    private final Map<String, Map<String, CfDef>> schema = new LinkedHashMap<>();
    /** "keyspace/cf" → key → row. */
    private final Map<String, TreeMap<String, Row>> data = new HashMap<>();
    private final ThreadLocal<Boolean> loggedIn = ThreadLocal.withInitial(() -> false);
    private final AtomicInteger calls = new AtomicInteger();
    /** System.nanoTime() at the arrival of each plain insert, in arrival order. */
    private final List<Long> insertArrivals = new ArrayList<>();
    private volatile Map<String, String> users;
    private volatile long replyDelayMillis;

    public FakeCassandra() {
        Map<String, CfDef> ks = new LinkedHashMap<>();
        ks.put("Standard1", new CfDef("Standard1", false, MARSHAL + "BytesType", null));
        ks.put("Standard2", new CfDef("Standard2", false, MARSHAL + "UTF8Type", null));
        ks.put("StandardLong1", new CfDef("StandardLong1", false, MARSHAL + "LongType", null));
        ks.put("StandardByUUID1", new CfDef("StandardByUUID1", false, MARSHAL + "TimeUUIDType", null));
        ks.put("Super1", new CfDef("Super1", true, MARSHAL + "BytesType", MARSHAL + "BytesType"));
        ks.put("Super2", new CfDef("Super2", true, MARSHAL + "UTF8Type", MARSHAL + "UTF8Type"));
        schema.put(KEYSPACE, ks);
        schema.put("system", Map.of("LocationInfo",
                new CfDef("LocationInfo", false, MARSHAL + "BytesType", null)));
    }

    /** Requires login with one of these user → password pairs (any keyspace) on every connection. */
    public void requireLogin(Map<String, String> users) {
        this.users = Map.copyOf(users);
    }

    /** Makes describe_cluster_name wait this long before replying (for read-timeout tests). */
    public void delayDescribeClusterName(long millis) {
        this.replyDelayMillis = millis;
    }

    /** Called when a connection starts (see FakeServer): login state is per connection. */
    void connectionStarted() {
        loggedIn.set(false);
    }

    public int calls() {
        return calls.get();
    }

    /** When each plain insert arrived (System.nanoTime()), in the order they did. */
    public synchronized List<Long> insertArrivals() {
        return List.copyOf(insertArrivals);
    }

    public synchronized int rowCount(String keyspace, String cf) {
        TreeMap<String, Row> rows = data.get(keyspace + "/" + cf);
        return rows == null ? 0 : rows.size();
    }

    public synchronized int columnCount(String keyspace, String cf) {
        TreeMap<String, Row> rows = data.get(keyspace + "/" + cf);
        int n = 0;
        if (rows != null) {
            for (Row r : rows.values()) {
                n += r.columns.size();
                for (TreeMap<byte[], Column> sc : r.supers.values()) {
                    n += sc.size();
                }
            }
        }
        return n;
    }

    // ---- meta ----

    @Override
    public void login(String keyspace, AuthenticationRequest auth) throws AuthenticationException,
            AuthorizationException {
        calls.incrementAndGet();
        Map<String, String> u = users;
        if (u == null) {
            return;
        }
        String user = auth.getCredentials().get("username");
        String password = auth.getCredentials().get("password");
        if (user == null) {
            throw new AuthenticationException("Authentication request was missing the required key 'username'");
        }
        if (password == null || !password.equals(u.get(user))) {
            throw new AuthenticationException(
                    "Given password in password mode PLAIN could not be validated for user " + user);
        }
        loggedIn.set(true);
    }

    @Override
    public Set<String> describe_keyspaces() {
        calls.incrementAndGet();
        return new TreeSet<>(schema.keySet());
    }

    @Override
    public String describe_cluster_name() {
        calls.incrementAndGet();
        long delay = replyDelayMillis;
        if (delay > 0) {
            try {
                Thread.sleep(delay);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return "Fake Cluster";
    }

    @Override
    public String describe_version() {
        calls.incrementAndGet();
        return "2.2.0";
    }

    @Override
    public String describe_partitioner() {
        return "org.apache.cassandra.dht.OrderPreservingPartitioner";
    }

    @Override
    public Map<String, Map<String, String>> describe_keyspace(String keyspace) throws NotFoundException {
        calls.incrementAndGet();
        Map<String, CfDef> ks = schema.get(keyspace);
        if (ks == null) {
            throw new NotFoundException();
        }
        Map<String, Map<String, String>> out = new LinkedHashMap<>();
        for (CfDef cf : ks.values()) {
            Map<String, String> props = new LinkedHashMap<>();
            props.put("Type", cf.isSuper() ? "Super" : "Standard");
            props.put("CompareWith", cf.compareWith());
            if (cf.isSuper()) {
                props.put("CompareSubcolumnsWith", cf.compareSubcolumnsWith());
            }
            props.put("Desc", keyspace + "." + cf.name() + "\nColumn Family Type: "
                    + (cf.isSuper() ? "Super" : "Standard") + "\n");
            out.put(cf.name(), props);
        }
        return out;
    }

    @Override
    public List<TokenRange> describe_ring(String keyspace) {
        return List.of(new TokenRange("", "", List.of("127.0.0.1")));
    }

    @Override
    public List<String> describe_splits(String start, String end, int keysPerSplit) {
        return List.of(start, end);
    }

    @Override
    public String get_string_property(String property) {
        return "?";
    }

    @Override
    public List<String> get_string_list_property(String property) {
        return List.of();
    }

    // ---- reads ----

    @Override
    public synchronized ColumnOrSuperColumn get(String keyspace, String key, ColumnPath path,
                                                ConsistencyLevel level)
            throws InvalidRequestException, NotFoundException {
        calls.incrementAndGet();
        checkLogin();
        CfDef cf = cf(keyspace, path.getColumn_family());
        checkKey(key);
        Row row = rows(keyspace, cf).get(key);
        if (!cf.isSuper()) {
            if (path.isSetSuper_column()) {
                throw new InvalidRequestException("supercolumn parameter is invalid for standard CF " + cf.name());
            }
            if (!path.isSetColumn()) {
                throw new InvalidRequestException("column parameter is not optional for standard CF " + cf.name());
            }
            checkName(cf.compareWith(), path.getColumn());
            Column c = row == null ? null : row.columns.get(path.getColumn());
            if (c == null) {
                throw new NotFoundException();
            }
            return new ColumnOrSuperColumn().setColumn(c);
        }
        if (!path.isSetSuper_column()) {
            throw new InvalidRequestException("supercolumn parameter is not optional for super CF " + cf.name());
        }
        TreeMap<byte[], Column> sc = row == null ? null : row.supers.get(path.getSuper_column());
        if (sc == null || sc.isEmpty()) {
            throw new NotFoundException();
        }
        if (!path.isSetColumn()) {
            return new ColumnOrSuperColumn().setSuper_column(
                    new SuperColumn(ByteBuffer.wrap(path.getSuper_column()), new ArrayList<>(sc.values())));
        }
        Column c = sc.get(path.getColumn());
        if (c == null) {
            throw new NotFoundException();
        }
        return new ColumnOrSuperColumn().setColumn(c);
    }

    @Override
    public synchronized List<ColumnOrSuperColumn> get_slice(String keyspace, String key, ColumnParent parent,
                                                            SlicePredicate predicate, ConsistencyLevel level)
            throws InvalidRequestException {
        calls.incrementAndGet();
        checkLogin();
        CfDef cf = checkParent(keyspace, parent);
        checkPredicate(predicate);
        checkKey(key);
        checkReadLevel(level);
        return slice(rows(keyspace, cf).get(key), cf, parent, predicate);
    }

    @Override
    public synchronized Map<String, ColumnOrSuperColumn> multiget(String keyspace, List<String> keys,
                                                                  ColumnPath path, ConsistencyLevel level)
            throws InvalidRequestException {
        Map<String, ColumnOrSuperColumn> out = new LinkedHashMap<>();
        for (String key : keys) {
            try {
                out.put(key, get(keyspace, key, path, level));
            } catch (NotFoundException e) {
                out.put(key, new ColumnOrSuperColumn());
            }
        }
        return out;
    }

    @Override
    public synchronized Map<String, List<ColumnOrSuperColumn>> multiget_slice(
            String keyspace, List<String> keys, ColumnParent parent, SlicePredicate predicate,
            ConsistencyLevel level) throws InvalidRequestException {
        calls.incrementAndGet();
        checkLogin();
        CfDef cf = checkParent(keyspace, parent);
        checkPredicate(predicate);
        checkReadLevel(level);
        Map<String, List<ColumnOrSuperColumn>> out = new LinkedHashMap<>();
        for (String key : keys) {
            checkKey(key);
            out.put(key, slice(rows(keyspace, cf).get(key), cf, parent, predicate));
        }
        return out;
    }

    @Override
    public synchronized int get_count(String keyspace, String key, ColumnParent parent, ConsistencyLevel level)
            throws InvalidRequestException {
        SliceRange all = new SliceRange(ByteBuffer.allocate(0), ByteBuffer.allocate(0), false, Integer.MAX_VALUE);
        return get_slice(keyspace, key, parent, new SlicePredicate().setSlice_range(all), level).size();
    }

    @Override
    public synchronized List<KeySlice> get_range_slice(String keyspace, ColumnParent parent,
                                                       SlicePredicate predicate, String startKey,
                                                       String finishKey, int rowCount, ConsistencyLevel level)
            throws InvalidRequestException {
        KeyRange range = new KeyRange(rowCount).setStart_key(startKey).setEnd_key(finishKey);
        return get_range_slices(keyspace, parent, predicate, range, level);
    }

    @Override
    public synchronized List<KeySlice> get_range_slices(String keyspace, ColumnParent parent,
                                                        SlicePredicate predicate, KeyRange range,
                                                        ConsistencyLevel level) throws InvalidRequestException {
        calls.incrementAndGet();
        checkLogin();
        CfDef cf = checkParent(keyspace, parent);
        checkPredicate(predicate);
        if (!range.isSetStart_key() || !range.isSetEnd_key()) {
            throw new InvalidRequestException("the fake server only supports key ranges");
        }
        if (range.getCount() <= 0) {
            throw new InvalidRequestException("maxRows must be positive");
        }
        NavigableMap<String, Row> rows = rows(keyspace, cf);
        rows = range.getEnd_key().isEmpty()
                ? rows.tailMap(range.getStart_key(), true)
                : rows.subMap(range.getStart_key(), true, range.getEnd_key(), true);
        List<KeySlice> out = new ArrayList<>();
        for (Map.Entry<String, Row> e : rows.entrySet()) {
            if (out.size() >= range.getCount()) {
                break;
            }
            out.add(new KeySlice(e.getKey(), slice(e.getValue(), cf, parent, predicate)));
        }
        return out;
    }

    // ---- writes ----

    @Override
    public synchronized void insert(String keyspace, String key, ColumnPath path, ByteBuffer value, long timestamp,
                                    ConsistencyLevel level) throws InvalidRequestException {
        calls.incrementAndGet();
        insertArrivals.add(System.nanoTime());
        checkLogin();
        checkKey(key);
        CfDef cf = cf(keyspace, path.getColumn_family());
        if (!path.isSetColumn()) {
            throw new InvalidRequestException("column parameter is not optional for "
                    + (cf.isSuper() ? "super" : "standard") + " CF " + cf.name());
        }
        if (cf.isSuper() != path.isSetSuper_column()) {
            throw new InvalidRequestException(cf.isSuper()
                    ? "supercolumn parameter is not optional for super CF " + cf.name()
                    : "supercolumn parameter is invalid for standard CF " + cf.name());
        }
        Column c = new Column(ByteBuffer.wrap(path.getColumn()), value, timestamp);
        if (cf.isSuper()) {
            checkName(cf.compareWith(), path.getSuper_column());
            checkName(cf.compareSubcolumnsWith(), path.getColumn());
            write(keyspace, cf, key, path.getSuper_column(), c);
        } else {
            checkName(cf.compareWith(), path.getColumn());
            write(keyspace, cf, key, null, c);
        }
    }

    @Override
    public synchronized void batch_insert(String keyspace, String key, Map<String, List<ColumnOrSuperColumn>> cfmap,
                                          ConsistencyLevel level) throws InvalidRequestException {
        Map<String, List<Mutation>> byCf = new HashMap<>();
        cfmap.forEach((cf, list) -> {
            List<Mutation> ms = new ArrayList<>();
            list.forEach(c -> ms.add(new Mutation().setColumn_or_supercolumn(c)));
            byCf.put(cf, ms);
        });
        batch_mutate(keyspace, Map.of(key, byCf), level);
    }

    @Override
    public synchronized void remove(String keyspace, String key, ColumnPath path, long timestamp,
                                    ConsistencyLevel level) throws InvalidRequestException {
        calls.incrementAndGet();
        checkLogin();
        checkKey(key);
        CfDef cf = cf(keyspace, path.getColumn_family());
        if (!cf.isSuper() && path.isSetSuper_column()) {
            throw new InvalidRequestException("supercolumn may not be specified for standard CF " + cf.name());
        }
        Row row = rows(keyspace, cf).get(key);
        if (row == null) {
            return;
        }
        if (path.isSetSuper_column()) {
            if (path.isSetColumn()) {
                TreeMap<byte[], Column> sc = row.supers.get(path.getSuper_column());
                if (sc != null) {
                    sc.remove(path.getColumn());
                    if (sc.isEmpty()) {
                        row.supers.remove(path.getSuper_column());
                    }
                }
            } else {
                row.supers.remove(path.getSuper_column());
            }
        } else if (path.isSetColumn()) {
            row.columns.remove(path.getColumn());
        } else {
            row.columns.clear();
            row.supers.clear();
        }
        if (row.isEmpty()) {
            rows(keyspace, cf).remove(key);
        }
    }

    @Override
    public synchronized void batch_mutate(String keyspace, Map<String, Map<String, List<Mutation>>> mutations,
                                          ConsistencyLevel level) throws InvalidRequestException {
        calls.incrementAndGet();
        checkLogin();
        // Validate everything before applying anything, as 0.6 does.
        for (Map.Entry<String, Map<String, List<Mutation>>> byKey : mutations.entrySet()) {
            checkKey(byKey.getKey());
            for (Map.Entry<String, List<Mutation>> byCf : byKey.getValue().entrySet()) {
                CfDef cf = cf(keyspace, byCf.getKey());
                for (Mutation m : byCf.getValue()) {
                    if (m.isSetColumn_or_supercolumn() == m.isSetDeletion()) {
                        throw new InvalidRequestException(
                                "Mutation must have one ColumnOrSuperColumn or one Deletion");
                    }
                    if (m.isSetColumn_or_supercolumn()) {
                        ColumnOrSuperColumn c = m.getColumn_or_supercolumn();
                        if (c.isSetColumn() && cf.isSuper()) {
                            throw new InvalidRequestException(
                                    "supercolumn parameter is not optional for super CF " + cf.name());
                        }
                        if (c.isSetSuper_column() && !cf.isSuper()) {
                            throw new InvalidRequestException(
                                    "supercolumn parameter is invalid for standard CF " + cf.name());
                        }
                    }
                }
            }
        }
        for (Map.Entry<String, Map<String, List<Mutation>>> byKey : mutations.entrySet()) {
            String key = byKey.getKey();
            for (Map.Entry<String, List<Mutation>> byCf : byKey.getValue().entrySet()) {
                CfDef cf = cf(keyspace, byCf.getKey());
                for (Mutation m : byCf.getValue()) {
                    if (m.isSetColumn_or_supercolumn()) {
                        ColumnOrSuperColumn c = m.getColumn_or_supercolumn();
                        if (c.isSetColumn()) {
                            write(keyspace, cf, key, null, c.getColumn());
                        } else {
                            for (Column sub : c.getSuper_column().getColumns()) {
                                write(keyspace, cf, key, c.getSuper_column().getName(), sub);
                            }
                        }
                    } else {
                        delete(keyspace, cf, key, m.getDeletion());
                    }
                }
            }
        }
    }

    // ---- helpers ----

    private void delete(String keyspace, CfDef cf, String key, Deletion d) {
        Row row = rows(keyspace, cf).get(key);
        if (row == null) {
            return;
        }
        List<byte[]> names = d.isSetPredicate() && d.getPredicate().isSetColumn_names()
                ? d.getPredicate().getColumn_names().stream().map(FakeCassandra::bytes).toList() : null;
        if (d.isSetSuper_column()) {
            if (names == null) {
                row.supers.remove(d.getSuper_column());
            } else {
                TreeMap<byte[], Column> sc = row.supers.get(d.getSuper_column());
                if (sc != null) {
                    names.forEach(sc::remove);
                    if (sc.isEmpty()) {
                        row.supers.remove(d.getSuper_column());
                    }
                }
            }
        } else if (names != null) {
            names.forEach(n -> {
                row.columns.remove(n);
                row.supers.remove(n);
            });
        } else {
            row.columns.clear();
            row.supers.clear();
        }
        if (row.isEmpty()) {
            rows(keyspace, cf).remove(key);
        }
    }

    private void write(String keyspace, CfDef cf, String key, byte[] superColumn, Column c) {
        Row row = rows(keyspace, cf).computeIfAbsent(key, k -> new Row());
        TreeMap<byte[], Column> target = superColumn == null ? row.columns
                : row.supers.computeIfAbsent(superColumn, n -> new TreeMap<>(UNSIGNED));
        Column stored = new Column(ByteBuffer.wrap(c.getName()), ByteBuffer.wrap(c.getValue()), c.getTimestamp());
        Column old = target.get(c.getName());
        if (old == null || old.getTimestamp() <= c.getTimestamp()) {
            target.put(c.getName(), stored);
        }
    }

    private List<ColumnOrSuperColumn> slice(Row row, CfDef cf, ColumnParent parent, SlicePredicate predicate) {
        List<ColumnOrSuperColumn> out = new ArrayList<>();
        if (row == null) {
            return out;
        }
        if (!cf.isSuper()) {
            for (Column c : select(row.columns, predicate)) {
                out.add(new ColumnOrSuperColumn().setColumn(c));
            }
        } else if (parent.isSetSuper_column()) {
            TreeMap<byte[], Column> sc = row.supers.get(parent.getSuper_column());
            if (sc != null) {
                for (Column c : select(sc, predicate)) {
                    out.add(new ColumnOrSuperColumn().setColumn(c));
                }
            }
        } else {
            TreeMap<byte[], SuperColumn> supers = new TreeMap<>(UNSIGNED);
            row.supers.forEach((name, cols) -> supers.put(name,
                    new SuperColumn(ByteBuffer.wrap(name), new ArrayList<>(cols.values()))));
            for (SuperColumn sc : select(supers, predicate)) {
                out.add(new ColumnOrSuperColumn().setSuper_column(sc));
            }
        }
        return out;
    }

    private static <V> List<V> select(TreeMap<byte[], V> map, SlicePredicate predicate) {
        List<V> out = new ArrayList<>();
        if (predicate.isSetColumn_names()) {
            TreeSet<byte[]> names = new TreeSet<>(UNSIGNED);
            predicate.getColumn_names().forEach(n -> names.add(bytes(n)));
            for (byte[] n : names) {
                V v = map.get(n);
                if (v != null) {
                    out.add(v);
                }
            }
            return out;
        }
        SliceRange r = predicate.getSlice_range();
        byte[] start = r.getStart();
        byte[] finish = r.getFinish();
        NavigableMap<byte[], V> view = r.isReversed() ? map.descendingMap() : map;
        if (start.length > 0) {
            view = view.tailMap(start, true);
        }
        if (finish.length > 0) {
            view = view.headMap(finish, true);
        }
        for (V v : view.values()) {
            if (out.size() >= r.getCount()) {
                break;
            }
            out.add(v);
        }
        return out;
    }

    private TreeMap<String, Row> rows(String keyspace, CfDef cf) {
        return data.computeIfAbsent(keyspace + "/" + cf.name(), k -> new TreeMap<>());
    }

    private void checkLogin() throws InvalidRequestException {
        if (users != null && !loggedIn.get()) {
            throw new InvalidRequestException("Login is required before any other API calls");
        }
    }

    private CfDef cf(String keyspace, String cfName) throws InvalidRequestException {
        Map<String, CfDef> ks = schema.get(keyspace);
        if (ks == null) {
            throw new InvalidRequestException("Keyspace " + keyspace + " does not exist in this schema.");
        }
        if (cfName == null || cfName.isEmpty()) {
            throw new InvalidRequestException("non-empty columnfamily is required");
        }
        CfDef cf = ks.get(cfName);
        if (cf == null) {
            throw new InvalidRequestException("unconfigured columnfamily " + cfName);
        }
        return cf;
    }

    private CfDef checkParent(String keyspace, ColumnParent parent) throws InvalidRequestException {
        CfDef cf = cf(keyspace, parent.getColumn_family());
        if (!cf.isSuper() && parent.isSetSuper_column()) {
            throw new InvalidRequestException("columnfamily alone is required for standard CF " + cf.name());
        }
        return cf;
    }

    private static void checkPredicate(SlicePredicate p) throws InvalidRequestException {
        if (p.isSetColumn_names() == p.isSetSlice_range()) {
            throw new InvalidRequestException(p.isSetColumn_names()
                    ? "predicate column_names and slice_range may not both be present"
                    : "predicate column_names and slice_range may not both be null");
        }
        if (p.isSetSlice_range() && p.getSlice_range().getCount() < 0) {
            throw new InvalidRequestException("get_slice requires non-negative count");
        }
    }

    private static void checkKey(String key) throws InvalidRequestException {
        if (key == null || key.isEmpty()) {
            throw new InvalidRequestException("Key may not be empty");
        }
    }

    private static void checkReadLevel(ConsistencyLevel level) throws InvalidRequestException {
        if (level == ConsistencyLevel.ZERO) {
            throw new InvalidRequestException("Consistency level zero may not be applied to read operations");
        }
        if (level == ConsistencyLevel.ANY) {
            throw new InvalidRequestException("Consistency level any may not be applied to read operations");
        }
    }

    private static void checkName(String comparator, byte[] name) throws InvalidRequestException {
        if (name.length == 0) {
            throw new InvalidRequestException("column name must not be empty");
        }
        if (comparator.endsWith("LongType") && name.length != 8) {
            throw new InvalidRequestException("A long is exactly 8 bytes");
        }
        if (comparator.endsWith("UUIDType") && name.length != 16) {
            throw new InvalidRequestException("UUIDs must be exactly 16 bytes");
        }
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }
}
