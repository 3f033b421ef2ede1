package sibyl.client.it;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.thrift.TException;
import sibyl.iface.v20.Cassandra;
import sibyl.iface.v20.Column;
import sibyl.iface.v20.ColumnOrSuperColumn;
import sibyl.iface.v20.ColumnParent;
import sibyl.iface.v20.ColumnPath;
import sibyl.iface.v20.ConsistencyLevel;
import sibyl.iface.v20.Deletion;
import sibyl.iface.v20.KeyRange;
import sibyl.iface.v20.Mutation;
import sibyl.iface.v20.SlicePredicate;
import sibyl.iface.v20.SliceRange;

/**
 * Requests a server must refuse (and a few at their edge it must not), each with the exception class and message
 * of 3.11 to match: calls before set_keyspace, unknown keyspaces and column families, super columns where there are
 * none, bad counts and ranges, missing timestamps, empty keys and names, names their comparator refuses.
 */
final class Diff07InvalidRequests {
    private static final ConsistencyLevel ONE = ConsistencyLevel.ONE;
    private static final ByteBuffer KEY = bytes("k1");
    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);

    private Diff07InvalidRequests() {
    }

    private static ByteBuffer bytes(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
    }

    private static SlicePredicate all() {
        return new SlicePredicate().setSlice_range(new SliceRange(EMPTY, EMPTY, false, 100));
    }

    private static SlicePredicate range(ByteBuffer start, ByteBuffer finish, boolean reversed, int count) {
        return new SlicePredicate().setSlice_range(new SliceRange(start, finish, reversed, count));
    }

    private static Column column(ByteBuffer name, long timestamp) {
        return new Column(name).setValue(bytes("v")).setTimestamp(timestamp);
    }

    /** A call made on a new connection on which no keyspace is set. */
    private interface Unset {
        String call(Cassandra.Client fresh) throws TException;
    }

    private static V20Call unset(String description, Unset call) {
        return new V20Call(description + " before set_keyspace", s -> {
            Cassandra.Client fresh = s.fresh();
            try {
                return call.call(fresh);
            } finally {
                Cassandra311Peer.close(fresh);
            }
        });
    }

    private static V20Call insert(String why, ByteBuffer key, ColumnParent parent, Column column) {
        return new V20Call("insert(" + V20Call.hex(key) + ", " + V20Call.parent(parent) + ", " + V20Call.column(column) + ") " + why, s -> {
            s.client().insert(key, parent, column, ONE);
            return V20Call.DONE;
        });
    }

    private static V20Call slice(String why, ByteBuffer key, ColumnParent parent, SlicePredicate predicate) {
        return new V20Call("get_slice(" + V20Call.hex(key) + ", " + V20Call.parent(parent) + ", " + V20Call.predicate(predicate) + ") " + why,
                s -> V20Call.cells(s.client().get_slice(key, parent, predicate, ONE)));
    }

    private static V20Call get(String why, ByteBuffer key, ColumnPath path) {
        return new V20Call("get(" + V20Call.hex(key) + ", " + V20Call.path(path) + ") " + why,
                s -> V20Call.cell(s.client().get(key, path, ONE)));
    }

    private static V20Call batch(String why, String family, Mutation mutation) {
        return new V20Call("batch_mutate(" + V20Call.hex(KEY) + "/" + family + ": " + V20Call.mutation(mutation) + ") " + why, s -> {
            s.client().batch_mutate(Map.of(KEY, Map.of(family, List.of(mutation))), ONE);
            return V20Call.DONE;
        });
    }

    /** The requests; {@code timestamp} is the one their writes carry. */
    static List<V20Call> calls(long timestamp) {
        ColumnParent stdBytes = new ColumnParent("StdBytes");
        ColumnParent super1 = new ColumnParent("Super1");
        ByteBuffer name = bytes("c");
        List<V20Call> calls = new ArrayList<>();
        calls.add(unset("get_slice", c -> V20Call.cells(c.get_slice(KEY, stdBytes, all(), ONE))));
        calls.add(unset("insert", c -> {
            c.insert(KEY, stdBytes, column(name, timestamp), ONE);
            return V20Call.DONE;
        }));
        calls.add(unset("set_keyspace(NoSuchKeyspace)", c -> {
            c.set_keyspace("NoSuchKeyspace");
            return V20Call.DONE;
        }));
        calls.add(unset("set_keyspace(\"\")", c -> {
            c.set_keyspace("");
            return V20Call.DONE;
        }));

        calls.add(slice("unknown column family", KEY, new ColumnParent("NoSuchCF"), all()));
        calls.add(insert("unknown column family", KEY, new ColumnParent("NoSuchCF"), column(name, timestamp)));
        calls.add(get("unknown column family", KEY, new ColumnPath("NoSuchCF").setColumn(name)));
        calls.add(slice("super column on a standard CF", KEY, new ColumnParent("StdBytes").setSuper_column(name), all()));
        calls.add(insert("super column on a standard CF", KEY, new ColumnParent("StdBytes").setSuper_column(name), column(name, timestamp)));
        calls.add(get("super column on a standard CF", KEY, new ColumnPath("StdBytes").setSuper_column(name).setColumn(name)));
        calls.add(get("no column on a standard CF", KEY, new ColumnPath("StdBytes")));
        calls.add(get("no super column on a super CF", KEY, new ColumnPath("Super1")));
        calls.add(get("column never written", KEY, new ColumnPath("StdBytes").setColumn(bytes("never written"))));
        calls.add(insert("no super column on a super CF", KEY, super1, column(name, timestamp)));

        calls.add(slice("count < 0", KEY, stdBytes, range(EMPTY, EMPTY, false, -1)));
        calls.add(slice("count 0", KEY, stdBytes, range(EMPTY, EMPTY, false, 0)));
        calls.add(slice("start > finish", KEY, stdBytes, range(bytes("b"), bytes("a"), false, 10)));
        calls.add(slice("start < finish reversed", KEY, stdBytes, range(bytes("a"), bytes("b"), true, 10)));
        calls.add(slice("start > finish on LongType", KEY, new ColumnParent("StdLong"),
                range(ByteBuffer.allocate(8).putLong(0, 5), ByteBuffer.allocate(8).putLong(0, -5), false, 10)));
        calls.add(slice("empty predicate", KEY, stdBytes, new SlicePredicate()));
        calls.add(slice("names and range", KEY, stdBytes, all().setColumn_names(List.of(name))));
        calls.add(slice("empty key", EMPTY, stdBytes, all()));
        calls.add(slice("names refused by LongType", KEY, new ColumnParent("StdLong"),
                new SlicePredicate().setColumn_names(List.of(ByteBuffer.wrap(new byte[] {0, 0, 0, 7})))));
        calls.add(new V20Call("get_count(" + V20Call.hex(KEY) + ", StdBytes, count < 0)",
                s -> String.valueOf(s.client().get_count(KEY, stdBytes, range(EMPTY, EMPTY, false, -1), ONE)),
                Diff07Shape.failing311(Diff07KnownDifferences.Where311Fails.NEGATIVE_COUNT)));
        calls.add(new V20Call("get_slice(StdBytes) at consistency level ANY",
                s -> V20Call.cells(s.client().get_slice(KEY, stdBytes, all(), ConsistencyLevel.ANY))));

        calls.add(insert("no timestamp", KEY, stdBytes, new Column(name).setValue(bytes("v"))));
        calls.add(insert("no value", KEY, stdBytes, new Column(name).setTimestamp(timestamp)));
        calls.add(insert("empty key", EMPTY, stdBytes, column(name, timestamp)));
        calls.add(insert("key of 65536 bytes", ByteBuffer.allocate(65536), stdBytes, column(name, timestamp)));
        calls.add(insert("empty column name", KEY, stdBytes, column(EMPTY, timestamp)));
        calls.add(insert("column name of 65536 bytes", KEY, stdBytes, column(ByteBuffer.allocate(65536), timestamp)));
        calls.add(insert("column name of 65535 bytes", KEY, stdBytes, column(ByteBuffer.allocate(65535), timestamp)));
        calls.add(insert("name refused by UTF8Type", KEY, new ColumnParent("StdUTF8"),
                column(ByteBuffer.wrap(new byte[] {0x61, (byte) 0xc3, 0x28}), timestamp)));
        calls.add(insert("name refused by LongType", KEY, new ColumnParent("StdLong"),
                column(ByteBuffer.wrap(new byte[] {0, 0, 1}), timestamp)));
        calls.add(insert("empty subcolumn name", KEY, new ColumnParent("Super1").setSuper_column(name), column(EMPTY, timestamp)));
        calls.add(insert("empty super column name", KEY, new ColumnParent("Super1").setSuper_column(EMPTY), column(name, timestamp)));

        calls.add(batch("deletion without timestamp", "StdBytes",
                new Mutation().setDeletion(new Deletion().setPredicate(new SlicePredicate().setColumn_names(List.of(name))))));
        calls.add(batch("insertion without timestamp", "StdBytes", new Mutation()
                .setColumn_or_supercolumn(new ColumnOrSuperColumn().setColumn(new Column(name).setValue(bytes("v"))))));
        calls.add(batch("empty mutation", "StdBytes", new Mutation()));
        calls.add(batch("insertion and deletion in one mutation", "StdBytes", new Mutation()
                .setColumn_or_supercolumn(new ColumnOrSuperColumn().setColumn(column(name, timestamp)))
                .setDeletion(new Deletion().setTimestamp(timestamp))));
        calls.add(batch("empty ColumnOrSuperColumn", "StdBytes", new Mutation().setColumn_or_supercolumn(new ColumnOrSuperColumn())));
        calls.add(batch("unknown column family", "NoSuchCF", new Mutation()
                .setColumn_or_supercolumn(new ColumnOrSuperColumn().setColumn(column(name, timestamp)))));
        calls.add(batch("deletion of a super column on a standard CF", "StdBytes",
                new Mutation().setDeletion(new Deletion().setTimestamp(timestamp).setSuper_column(name))));
        calls.add(batch("deletion with a range on a super CF's subcolumns", "Super1", new Mutation().setDeletion(
                new Deletion().setTimestamp(timestamp).setSuper_column(name).setPredicate(range(EMPTY, EMPTY, false, 100)))));
        calls.add(batch("deletion with a reversed range", "StdBytes", new Mutation().setDeletion(
                new Deletion().setTimestamp(timestamp).setPredicate(range(bytes("b"), bytes("a"), true, 100)))));
        calls.add(batch("deletion with an empty predicate", "StdBytes",
                new Mutation().setDeletion(new Deletion().setTimestamp(timestamp).setPredicate(new SlicePredicate()))));

        calls.add(Diff07Operations.rangeSlices(stdBytes, all(), new KeyRange(0).setStart_key(EMPTY).setEnd_key(EMPTY)));
        calls.add(Diff07Operations.rangeSlices(stdBytes, all(), new KeyRange(-1).setStart_key(EMPTY).setEnd_key(EMPTY)));
        calls.add(Diff07Operations.rangeSlices(stdBytes, all(), new KeyRange(10)));
        calls.add(Diff07Operations.rangeSlices(stdBytes, all(), new KeyRange(10).setStart_key(KEY).setStart_token("0")));
        calls.add(Diff07Operations.rangeSlices(stdBytes, all(), new KeyRange(10).setStart_key(bytes("k0")).setEnd_key(bytes("k3"))));
        calls.add(Diff07Operations.rangeSlices(stdBytes, all(), new KeyRange(10).setStart_key(bytes("k3")).setEnd_key(bytes("k0"))));
        KeyRange notANumber = new KeyRange(10).setStart_token("not a number").setEnd_token("0");
        calls.add(new V20Call("get_range_slices(StdBytes, all, " + V20Call.range(notANumber) + ")",
                s -> V20Call.keySlices(s.client().get_range_slices(stdBytes, all(), notANumber, ONE)),
                Diff07Shape.failing311(Diff07KnownDifferences.Where311Fails.TOKEN_NOT_A_NUMBER)));
        calls.add(Diff07Operations.rangeSlices(new ColumnParent("NoSuchCF"), all(), new KeyRange(10).setStart_key(EMPTY).setEnd_key(EMPTY)));
        calls.add(new V20Call("multiget_slice([], StdBytes, all)",
                s -> V20Call.byKey(s.client().multiget_slice(List.of(), stdBytes, all(), ONE), V20Call::cells),
                Diff07Shape.failing311(Diff07KnownDifferences.Where311Fails.NO_KEYS)));
        calls.add(new V20Call("multiget_count([k1, \"\"], StdBytes, all)",
                s -> V20Call.byKey(s.client().multiget_count(List.of(KEY, EMPTY), stdBytes, all(), ONE), String::valueOf)));
        calls.add(new V20Call("remove(" + V20Call.hex(KEY) + ", NoSuchCF)", s -> {
            s.client().remove(KEY, new ColumnPath("NoSuchCF"), timestamp, ONE);
            return V20Call.DONE;
        }));
        calls.add(new V20Call("remove(" + V20Call.hex(KEY) + ", StdBytes/sc=c)", s -> {
            s.client().remove(KEY, new ColumnPath("StdBytes").setSuper_column(name), timestamp, ONE);
            return V20Call.DONE;
        }));
        return calls;
    }
}
