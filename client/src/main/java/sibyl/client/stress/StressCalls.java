package sibyl.client.stress;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.cassandra.thrift.Column;
import org.apache.cassandra.thrift.ColumnOrSuperColumn;
import org.apache.cassandra.thrift.ColumnParent;
import org.apache.cassandra.thrift.ColumnPath;
import org.apache.cassandra.thrift.KeyRange;
import org.apache.cassandra.thrift.KeySlice;
import org.apache.cassandra.thrift.Mutation;
import org.apache.cassandra.thrift.SlicePredicate;
import org.apache.cassandra.thrift.SuperColumn;
import org.apache.thrift.TException;
import sibyl.client.BatchMutation;
import sibyl.client.Predicates;
import sibyl.client.SibylClient;

/**
 * Makes the operations of one connection: picks each operation (by --read-ratio for mixed) and key, builds its
 * request, and checks what the server answers against what an insert writes. One per connection, used by one
 * thread at a time.
 */
final class StressCalls {
    private final StressOptions options;
    private final KeyDistribution keys;
    private final SplittableRandom random;
    private final StressCounters counters;
    private final ColumnParent parent;
    private final SlicePredicate rowPredicate;
    /** The one column insert_column writes and get_column reads: C0, in S0 of a super column family. */
    private final ColumnPath columnPath;
    /** The super column that column is in: 0 for S0, -1 in a standard column family (as {@link Payload#value}). */
    private final int columnPathSuper;
    /** How the calls go on the wire: chosen once per connection, so the per-call path has no dialect test. */
    private final DialectCodec codec;

    StressCalls(StressOptions options, KeyDistribution keys, long seed, StressCounters counters) {
        this.options = options;
        this.codec = options.codec();
        this.keys = keys;
        this.random = new SplittableRandom(seed);
        this.counters = counters;
        this.parent = new ColumnParent(options.columnFamily());
        this.rowPredicate = Predicates.first(options.superFamily() ? options.supers() : options.columns());
        this.columnPath = new ColumnPath(options.columnFamily()).setColumn(Payload.columnName(0));
        if (options.superFamily()) {
            columnPath.setSuper_column(Payload.superColumnName(0));
        }
        this.columnPathSuper = options.superFamily() ? 0 : -1;
    }

    /** The call this connection makes once each time it is opened, before any other (set_keyspace); or null. */
    StressCall handshake() {
        return codec.handshake();
    }

    StressCall next() {
        Operation op = options.operation();
        if (op == Operation.MIXED) {
            op = random.nextDouble() < options.readRatio() ? Operation.READ : Operation.INSERT;
        }
        return switch (op) {
            case INSERT -> insert(keys.next(random));
            case READ -> read(keys.next(random));
            case RANGE_SLICE -> rangeSlice(keys.next(random));
            case MULTIGET -> multiget();
            case INSERT_COLUMN -> insertColumn(keys.next(random));
            case GET_COLUMN -> getColumn(keys.next(random));
            case ADD -> add(keys.next(random));
            default -> throw new AssertionError(op);
        };
    }

    private StressCall insert(long key) {
        BatchMutation batch = new BatchMutation(SibylClient.nowMicros());
        BatchMutation.Row row = batch.row(options.columnFamily(), Payload.key(key));
        if (options.superFamily()) {
            for (int s = 0; s < options.supers(); s++) {
                List<Column> columns = new ArrayList<>(options.columns());
                for (int c = 0; c < options.columns(); c++) {
                    columns.add(new Column().setName(Payload.columnName(c))
                            .setValue(Payload.value(key, s, c, options.valueSize())).setTimestamp(batch.timestamp()));
                }
                row.putSuper(Payload.superColumnName(s), columns);
            }
        } else {
            for (int c = 0; c < options.columns(); c++) {
                row.put(Payload.columnName(c), Payload.value(key, -1, c, options.valueSize()));
            }
        }
        Map<String, Map<String, List<Mutation>>> mutations = batch.toThrift();
        return new StressCall() {
            @Override
            public String operation() {
                return "batch_mutate in " + options.keyspace() + " (" + mutations.size() + " rows)";
            }

            @Override
            public void send(Cassandra.Client client) throws TException {
                codec.sendBatchMutate(client, mutations);
            }

            @Override
            public void receive(Cassandra.Client client) throws TException {
                codec.receiveBatchMutate(client);
            }
        };
    }

    /**
     * Thrift's insert of the one column a batch_mutate of the row with -c 1 writes, with the same value; with --redis,
     * SET of the row key to that value.
     */
    private StressCall insertColumn(long key) {
        String k = Payload.key(key);
        byte[] value = Payload.value(key, columnPathSuper, 0, options.valueSize());
        long timestamp = SibylClient.nowMicros();
        return new StressCall() {
            @Override
            public String operation() {
                return options.redis() ? "SET " + k
                        : "insert into " + options.keyspace() + "." + options.columnFamily() + " key '" + k + "'";
            }

            @Override
            public void send(Cassandra.Client client) throws TException {
                codec.sendInsert(client, k, columnPath, value, timestamp);
            }

            @Override
            public void receive(Cassandra.Client client) throws TException {
                codec.receiveInsert(client);
            }
        };
    }

    /**
     * Thrift's get of that column (GET of the row key with --redis). A row without it is answered with
     * NotFoundException (Redis's nil), which the codec gives as null: not a failure of the call, but with --verify
     * a missing row, as an empty get_slice is.
     */
    private StressCall getColumn(long key) {
        String k = Payload.key(key);
        return new StressCall() {
            @Override
            public String operation() {
                return options.redis() ? "GET " + k
                        : "get from " + options.keyspace() + "." + options.columnFamily() + " key '" + k + "'";
            }

            @Override
            public void send(Cassandra.Client client) throws TException {
                codec.sendGet(client, k, columnPath);
            }

            @Override
            public void receive(Cassandra.Client client) throws TException {
                ColumnOrSuperColumn read = codec.receiveGet(client);
                if (read == null) {
                    if (options.verify()) {
                        counters.missingRows.increment();
                    }
                    return;
                }
                verifyColumn(key, read);
            }
        };
    }

    /** 0.7's add of 1 to the counter C0 (in S0 of a super column family) of the row. */
    private StressCall add(long key) {
        String k = Payload.key(key);
        return new StressCall() {
            @Override
            public String operation() {
                return "add to " + options.keyspace() + "." + options.columnFamily() + " key '" + k + "'";
            }

            @Override
            public void send(Cassandra.Client client) throws TException {
                codec.sendAdd(client, k, columnPath, 1);
            }

            @Override
            public void receive(Cassandra.Client client) throws TException {
                codec.receiveAdd(client);
            }
        };
    }

    private StressCall read(long key) {
        String k = Payload.key(key);
        return new StressCall() {
            @Override
            public String operation() {
                return "get_slice from " + options.keyspace() + "." + options.columnFamily() + " key '" + k + "'";
            }

            @Override
            public void send(Cassandra.Client client) throws TException {
                codec.sendGetSlice(client, k, parent, rowPredicate);
            }

            @Override
            public void receive(Cassandra.Client client) throws TException {
                verify(key, codec.receiveGetSlice(client));
            }
        };
    }

    private StressCall rangeSlice(long key) {
        KeyRange range = new KeyRange(options.rangeCount()).setStart_key(Payload.key(key)).setEnd_key("");
        return new StressCall() {
            @Override
            public String operation() {
                return "get_range_slices from " + options.keyspace() + "." + options.columnFamily();
            }

            @Override
            public void send(Cassandra.Client client) throws TException {
                codec.sendGetRangeSlices(client, parent, rowPredicate, range);
            }

            @Override
            public void receive(Cassandra.Client client) throws TException {
                for (KeySlice row : codec.receiveGetRangeSlices(client)) {
                    verify(Payload.keyIndex(row.getKey()), row.getColumns());
                }
            }
        };
    }

    private StressCall multiget() {
        Set<String> chosen = new LinkedHashSet<>();
        int wanted = (int) Math.min(options.keysPerMultiget(), keys.numKeys);
        // A narrow distribution may not have that many distinct keys to give; stop drawing after a while.
        for (int draws = 0; chosen.size() < wanted && draws < 20 * wanted; draws++) {
            chosen.add(Payload.key(keys.next(random)));
        }
        List<String> keyList = new ArrayList<>(chosen);
        return new StressCall() {
            @Override
            public String operation() {
                return "multiget_slice from " + options.keyspace() + "." + options.columnFamily() + " ("
                        + keyList.size() + " keys)";
            }

            @Override
            public void send(Cassandra.Client client) throws TException {
                codec.sendMultigetSlice(client, keyList, parent, rowPredicate);
            }

            @Override
            public void receive(Cassandra.Client client) throws TException {
                codec.receiveMultigetSlice(client).forEach((k, row) -> verify(Payload.keyIndex(k), row));
            }
        };
    }

    /** Compares a row read back with what an insert of {@code key} writes (only with --verify). */
    private void verify(long key, List<ColumnOrSuperColumn> row) {
        if (!options.verify() || key < 0) {
            return;
        }
        if (row.isEmpty()) {
            counters.missingRows.increment();
            return;
        }
        long bad = 0;
        if (options.superFamily()) {
            bad += Math.max(0, options.supers() - row.size());
            for (ColumnOrSuperColumn cosc : row) {
                SuperColumn sc = cosc.getSuper_column();
                int s = sc == null ? -1 : Payload.nameIndex(sc.getName());
                if (s < 0 || s >= options.supers()) {
                    bad += options.columns();
                } else {
                    bad += badColumns(key, s, sc.getColumns());
                }
            }
        } else {
            List<Column> columns = new ArrayList<>(row.size());
            for (ColumnOrSuperColumn cosc : row) {
                if (cosc.isSetColumn()) {
                    columns.add(cosc.getColumn());
                }
            }
            bad += badColumns(key, -1, columns) + (row.size() - columns.size());
        }
        if (bad > 0) {
            counters.mismatches.add(bad);
        }
    }

    /** Compares the column a get returned with the one an insert of {@code key} writes (only with --verify). */
    private void verifyColumn(long key, ColumnOrSuperColumn read) {
        if (!options.verify() || key < 0) {
            return;
        }
        Column c = read.getColumn();
        if (c == null || Payload.nameIndex(c.getName()) != 0
                || !Arrays.equals(c.getValue(), Payload.value(key, columnPathSuper, 0, options.valueSize()))) {
            counters.mismatches.increment();
        }
    }

    /** Wrong, foreign or missing columns among {@code columns} of (key, super column). */
    private long badColumns(long key, int superColumn, List<Column> columns) {
        long good = 0;
        for (Column c : columns) {
            int j = Payload.nameIndex(c.getName());
            if (j >= 0 && j < options.columns()
                    && Arrays.equals(c.getValue(), Payload.value(key, superColumn, j, options.valueSize()))) {
                good++;
            }
        }
        return (columns.size() - good) + Math.max(0, options.columns() - columns.size());
    }
}
