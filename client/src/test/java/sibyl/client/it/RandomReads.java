package sibyl.client.it;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.text.Collator;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.cassandra.thrift.ColumnOrSuperColumn;
import org.apache.cassandra.thrift.ColumnParent;
import org.apache.cassandra.thrift.ColumnPath;
import org.apache.cassandra.thrift.ConsistencyLevel;
import org.apache.cassandra.thrift.KeyRange;
import org.apache.cassandra.thrift.KeySlice;
import org.apache.cassandra.thrift.SlicePredicate;
import org.apache.cassandra.thrift.SliceRange;
import sibyl.client.it.DifferentialSchema.Family;

/**
 * Random reads of the Thrift API, each a {@link ThriftCall} whose answer is the text of what was read:
 * get_slice with random ranges, counts and directions or named columns (of rows and inside super columns),
 * get, get_count, multiget_slice, multiget, and get_range_slices over ranges of keys or of tokens; now and then
 * a read the server must refuse. The calls of a seed are the same whichever server answers them.
 */
final class RandomReads {
    private final Random random;
    private final Vocabulary words;
    private final String partitioner;

    /** @param partitioner the partitioner's class name without package: RandomPartitioner, ... */
    RandomReads(Random random, Vocabulary words, String partitioner) {
        this.random = random;
        this.words = words;
        this.partitioner = partitioner;
    }

    ThriftCall next() {
        int r = random.nextInt(100);
        if (r < 35) return getSlice();
        if (r < 50) return get();
        if (r < 58) return getCount();
        if (r < 70) return multigetSlice();
        if (r < 75) return multiget();
        if (r < 95) return rangeSlices();
        return refused();
    }

    /** Every column of a row, or of the super column {@code parent} names: the whole-ring scans read these. */
    static SlicePredicate everything() {
        return new SlicePredicate().setSlice_range(new SliceRange(ByteBuffer.allocate(0), ByteBuffer.allocate(0), false, 1_000_000));
    }

    /** A predicate for a whole-ring scan of {@code f}: everything, or a random slice of it. */
    SlicePredicate scanPredicate(Family f, ColumnParent parent) {
        return random.nextBoolean() ? everything() : predicate(f, parent.isSetSuper_column());
    }

    /** The parent of a whole-ring scan of {@code f}: the rows, or (now and then, in a super family) one super column of each. */
    ColumnParent scanParent(Family f) {
        ColumnParent parent = new ColumnParent(f.name());
        if (f.isSuper() && random.nextInt(3) == 0) parent.setSuper_column(words.name(f));
        return parent;
    }

    /** Rows a page of a whole-ring scan asks for. */
    int pageSize() {
        return random.nextInt(3) == 0 ? 100 : 2 + random.nextInt(5); // at least 2: a page starts with the last row of the one before
    }

    // ---- the calls

    private Family family() {
        return DifferentialSchema.FAMILIES.get(random.nextInt(DifferentialSchema.FAMILIES.size()));
    }

    private ConsistencyLevel level() {
        int r = random.nextInt(20);
        return r == 0 ? ConsistencyLevel.QUORUM : r == 1 ? ConsistencyLevel.ALL : ConsistencyLevel.ONE;
    }

    private ColumnParent parent(Family f) {
        ColumnParent parent = new ColumnParent(f.name());
        if (f.isSuper() && random.nextInt(5) < 2) parent.setSuper_column(words.nameOrStranger(f));
        return parent;
    }

    private SlicePredicate predicate(Family f, boolean insideSuperColumn) {
        if (random.nextInt(5) == 0) {
            List<ByteBuffer> names = new ArrayList<>();
            for (int i = 1 + random.nextInt(5); i > 0; i--) names.add(ByteBuffer.wrap(words.nameAt(f, insideSuperColumn)));
            return new SlicePredicate().setColumn_names(names);
        }
        byte[] start = bound(f, insideSuperColumn);
        byte[] finish = bound(f, insideSuperColumn);
        int r = random.nextInt(4);
        int count = r == 0 ? 100 + random.nextInt(2) * 900 : random.nextInt(9);
        return new SlicePredicate().setSlice_range(new SliceRange(ByteBuffer.wrap(start), ByteBuffer.wrap(finish),
                random.nextInt(10) < 3, count));
    }

    private byte[] bound(Family f, boolean insideSuperColumn) {
        return random.nextInt(5) < 2 ? new byte[0] : words.nameAt(f, insideSuperColumn);
    }

    private ThriftCall getSlice() {
        Family f = family();
        String key = words.keyOrStranger();
        ColumnParent parent = parent(f);
        SlicePredicate predicate = predicate(f, parent.isSetSuper_column());
        return getSlice(f.keyspace(), key, parent, predicate, level());
    }

    private static ThriftCall getSlice(String keyspace, String key, ColumnParent parent, SlicePredicate predicate, ConsistencyLevel cl) {
        String d = "get_slice(" + keyspace + ", " + ThriftCall.key(key) + ", " + ThriftCall.parent(parent) + ", "
                + ThriftCall.predicate(predicate) + ", " + cl + ")";
        SliceRows.Reader reader = (c, p) -> {
            LinkedHashMap<String, List<ColumnOrSuperColumn>> row = new LinkedHashMap<>();
            row.put("", c.get_slice(keyspace, key, parent, p, cl));
            return row;
        };
        return sliceCall(d, keyspace, parent, predicate, new SliceRows(reader, rows -> ThriftCall.cells(rows.get(""))));
    }

    /** A call of {@code keyspace} and {@code parent} reading {@code rows} with {@code predicate}. */
    private static ThriftCall sliceCall(String description, String keyspace, ColumnParent parent, SlicePredicate predicate,
                                        SliceRows rows) {
        return new ThriftCall(description, c -> rows.render(rows.read(c, predicate)), ReversedSliceCheck.of(predicate, rows),
                SuperCountCheck.of(keyspace, parent, predicate, rows));
    }

    private ColumnPath path(Family f) {
        ColumnPath path = new ColumnPath(f.name());
        if (!f.isSuper()) return path.setColumn(words.nameOrStranger(f));
        path.setSuper_column(words.nameOrStranger(f));
        if (random.nextInt(5) < 3) path.setColumn(words.subnameOrStranger(f));
        return path;
    }

    private ThriftCall get() {
        Family f = family();
        String key = words.keyOrStranger();
        ColumnPath path = path(f);
        ConsistencyLevel cl = level();
        String d = "get(" + f.keyspace() + ", " + ThriftCall.key(key) + ", " + ThriftCall.path(path) + ", " + cl + ")";
        return new ThriftCall(d, c -> ThriftCall.cell(c.get(f.keyspace(), key, path, cl)));
    }

    private ThriftCall getCount() {
        Family f = family();
        String key = words.keyOrStranger();
        ColumnParent parent = parent(f);
        ConsistencyLevel cl = level();
        String d = "get_count(" + f.keyspace() + ", " + ThriftCall.key(key) + ", " + ThriftCall.parent(parent) + ", " + cl + ")";
        return new ThriftCall(d, c -> String.valueOf(c.get_count(f.keyspace(), key, parent, cl)));
    }

    private List<String> someKeys() {
        List<String> keys = new ArrayList<>();
        for (int i = 1 + random.nextInt(6); i > 0; i--) keys.add(words.keyOrStranger());
        return keys;
    }

    private ThriftCall multigetSlice() {
        Family f = family();
        List<String> keys = someKeys();
        ColumnParent parent = parent(f);
        SlicePredicate predicate = predicate(f, parent.isSetSuper_column());
        ConsistencyLevel cl = level();
        String d = "multiget_slice(" + f.keyspace() + ", " + keys.stream().map(ThriftCall::key).toList() + ", "
                + ThriftCall.parent(parent) + ", " + ThriftCall.predicate(predicate) + ", " + cl + ")";
        SliceRows.Reader reader = (c, p) -> new LinkedHashMap<>(new TreeMap<>(c.multiget_slice(f.keyspace(), keys, parent, p, cl)));
        return sliceCall(d, f.keyspace(), parent, predicate, new SliceRows(reader, rows -> ThriftCall.byKey(rows, ThriftCall::cells)));
    }

    private ThriftCall multiget() {
        Family f = family();
        List<String> keys = someKeys();
        ColumnPath path = path(f);
        ConsistencyLevel cl = level();
        String d = "multiget(" + f.keyspace() + ", " + keys.stream().map(ThriftCall::key).toList() + ", " + ThriftCall.path(path)
                + ", " + cl + ")";
        return new ThriftCall(d, c -> ThriftCall.byKey(c.multiget(f.keyspace(), keys, path, cl), ThriftCall::cell));
    }

    /** get_range_slices over the key range, with its predicate, as a call of its own. */
    static ThriftCall rangeSlices(String keyspace, ColumnParent parent, SlicePredicate predicate, KeyRange range, ConsistencyLevel cl) {
        String d = "get_range_slices(" + keyspace + ", " + ThriftCall.parent(parent) + ", " + ThriftCall.predicate(predicate) + ", "
                + ThriftCall.range(range) + ", " + cl + ")";
        SliceRows.Reader reader = (c, p) -> {
            LinkedHashMap<String, List<ColumnOrSuperColumn>> rows = new LinkedHashMap<>();
            for (KeySlice row : c.get_range_slices(keyspace, parent, p, range, cl)) rows.put(row.getKey(), row.getColumns());
            return rows;
        };
        return sliceCall(d, keyspace, parent, predicate, new SliceRows(reader, rows -> {
            List<KeySlice> slices = new ArrayList<>();
            for (Map.Entry<String, List<ColumnOrSuperColumn>> row : rows.entrySet()) slices.add(new KeySlice(row.getKey(), row.getValue()));
            return ThriftCall.keySlices(slices);
        }));
    }

    private ThriftCall rangeSlices() {
        Family f = family();
        ColumnParent parent = parent(f);
        SlicePredicate predicate = predicate(f, parent.isSetSuper_column());
        int count = random.nextInt(3) == 0 ? 100 : 1 + random.nextInt(8);
        KeyRange range = new KeyRange(count);
        if (random.nextInt(4) > 0) {
            range.setStart_key(random.nextInt(4) == 0 ? "" : words.keyOrStranger());
            range.setEnd_key(random.nextInt(2) == 0 ? "" : words.keyOrStranger());
        } else {
            range.setStart_token(token());
            range.setEnd_token(token());
        }
        return rangeSlices(f.keyspace(), parent, predicate, range, level());
    }

    /** A token of the partitioner: the minimum, a key's, or (random partitioner) any. */
    private String token() {
        int r = random.nextInt(5);
        if (r == 0) return minimumToken();
        if (r == 1 && partitioner.equals("RandomPartitioner")) return new BigInteger(127, random).toString();
        return tokenOf(words.keyOrStranger());
    }

    private String minimumToken() {
        return partitioner.equals("RandomPartitioner") ? "0" : "";
    }

    /** The token {@code key} has under the partitioner, as its token factory writes it. */
    String tokenOf(String key) {
        byte[] utf8 = key.getBytes(StandardCharsets.UTF_8);
        return switch (partitioner) {
            case "RandomPartitioner" -> {
                try {
                    yield new BigInteger(MessageDigest.getInstance("MD5").digest(utf8)).abs().toString();
                } catch (NoSuchAlgorithmException e) {
                    throw new AssertionError(e);
                }
            }
            case "OrderPreservingPartitioner" -> key;
            case "CollatingOrderPreservingPartitioner" ->
                    HexFormat.of().formatHex(Collator.getInstance(Locale.US).getCollationKey(key).toByteArray());
            default -> throw new IllegalArgumentException(partitioner);
        };
    }

    /** A read the server must refuse, each as a client gets it wrong. */
    private ThriftCall refused() {
        Family f = family();
        String key = words.key();
        switch (random.nextInt(9)) {
            case 0 -> {
                return getSlice(f.keyspace(), "", new ColumnParent(f.name()), everything(), ConsistencyLevel.ONE);
            }
            case 1 -> {
                ConsistencyLevel cl = random.nextBoolean() ? ConsistencyLevel.ZERO : ConsistencyLevel.ANY;
                return getSlice(f.keyspace(), key, new ColumnParent(f.name()), everything(), cl);
            }
            case 2 -> {
                SlicePredicate p = new SlicePredicate().setSlice_range(new SliceRange(ByteBuffer.allocate(0), ByteBuffer.allocate(0), false, -1));
                return getSlice(f.keyspace(), key, new ColumnParent(f.name()), p, ConsistencyLevel.ONE);
            }
            case 3 -> {
                SlicePredicate p = predicate(f, false);
                p.setColumn_names(new ArrayList<>(List.of(ByteBuffer.wrap(words.name(f)))));
                p.setSlice_range(new SliceRange(ByteBuffer.allocate(0), ByteBuffer.allocate(0), false, 10));
                return getSlice(f.keyspace(), key, new ColumnParent(f.name()), p, ConsistencyLevel.ONE);
            }
            case 4 -> {
                return getSlice(f.keyspace(), key, new ColumnParent(f.name()), new SlicePredicate(), ConsistencyLevel.ONE);
            }
            case 5 -> {
                byte[] bad = f.names().invalidName(random);
                if (bad == null) bad = new byte[0];
                SlicePredicate p = new SlicePredicate().setColumn_names(new ArrayList<>(List.of(ByteBuffer.wrap(bad))));
                return getSlice(f.keyspace(), key, new ColumnParent(f.name()), p, ConsistencyLevel.ONE);
            }
            case 6 -> {
                ColumnParent parent = new ColumnParent(f.name());
                if (!f.isSuper()) parent.setSuper_column(words.name(f));
                else parent.setColumn_family("NoSuchFamily");
                return getSlice(f.keyspace(), key, parent, everything(), ConsistencyLevel.ONE);
            }
            case 7 -> {
                return rangeSlices(f.keyspace(), new ColumnParent(f.name()), everything(),
                        new KeyRange(random.nextBoolean() ? 0 : -3).setStart_key("").setEnd_key(""), ConsistencyLevel.ONE);
            }
            default -> {
                KeyRange range = new KeyRange(10).setStart_key(key);
                if (random.nextBoolean()) range.setStart_token(minimumToken()).setEnd_token(minimumToken());
                return rangeSlices(f.keyspace(), new ColumnParent(f.name()), everything(), range, ConsistencyLevel.ONE);
            }
        }
    }
}
