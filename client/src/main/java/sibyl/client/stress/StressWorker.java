package sibyl.client.stress;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.cassandra.thrift.Column;
import org.apache.cassandra.thrift.ColumnOrSuperColumn;
import org.apache.cassandra.thrift.ColumnParent;
import org.apache.cassandra.thrift.KeyRange;
import org.apache.cassandra.thrift.KeySlice;
import org.apache.cassandra.thrift.SlicePredicate;
import org.apache.cassandra.thrift.SuperColumn;
import sibyl.client.BatchMutation;
import sibyl.client.ClientException;
import sibyl.client.Predicates;
import sibyl.client.SibylClient;

/** One stress thread: runs operations on its own connection until the budget or the time is used up. */
final class StressWorker implements Runnable {

    private final StressOptions options;
    private final SibylClient client;
    private final KeyDistribution keys;
    private final SplittableRandom random;
    private final LatencyRecorder recorder;
    private final StressCounters counters;
    /** Operations left to start in count mode; null in duration mode. */
    private final AtomicLong budget;
    private final AtomicBoolean stop;
    private final ColumnParent parent;
    private final SlicePredicate rowPredicate;

    StressWorker(StressOptions options, SibylClient client, KeyDistribution keys, long seed,
                 LatencyRecorder recorder, StressCounters counters, AtomicLong budget, AtomicBoolean stop) {
        this.options = options;
        this.client = client;
        this.keys = keys;
        this.random = new SplittableRandom(seed);
        this.recorder = recorder;
        this.counters = counters;
        this.budget = budget;
        this.stop = stop;
        this.parent = new ColumnParent(options.columnFamily());
        this.rowPredicate = Predicates.first(options.superFamily() ? options.supers() : options.columns());
    }

    @Override
    public void run() {
        try {
            while (!stop.get() && (budget == null || budget.getAndDecrement() > 0)) {
                Operation op = options.operation();
                if (op == Operation.MIXED) {
                    op = random.nextDouble() < options.readRatio() ? Operation.READ : Operation.INSERT;
                }
                long start = System.nanoTime();
                try {
                    execute(op);
                    recorder.record((System.nanoTime() - start) / 1_000);
                } catch (ClientException e) {
                    counters.error(e);
                    if (e.brokeConnection()) {
                        pause(); // the next call reconnects; do not spin while the server is away
                    }
                }
            }
        } finally {
            client.close();
        }
    }

    private void execute(Operation op) {
        switch (op) {
            case INSERT -> insert(keys.next(random));
            case READ -> read(keys.next(random));
            case RANGE_SLICE -> rangeSlice(keys.next(random));
            case MULTIGET -> multiget();
            default -> throw new AssertionError(op);
        }
    }

    private void insert(long key) {
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
        client.batchMutate(options.keyspace(), batch, options.consistency());
    }

    private void read(long key) {
        List<ColumnOrSuperColumn> row = client.getSlice(options.keyspace(), Payload.key(key), parent, rowPredicate,
                options.consistency());
        verify(key, row);
    }

    private void rangeSlice(long key) {
        KeyRange range = new KeyRange(options.rangeCount()).setStart_key(Payload.key(key)).setEnd_key("");
        List<KeySlice> rows = client.getRangeSlices(options.keyspace(), parent, rowPredicate, range,
                options.consistency());
        for (KeySlice row : rows) {
            verify(Payload.keyIndex(row.getKey()), row.getColumns());
        }
    }

    private void multiget() {
        Set<String> chosen = new LinkedHashSet<>();
        int wanted = (int) Math.min(options.keysPerMultiget(), keys.numKeys);
        // A narrow distribution may not have that many distinct keys to give; stop drawing after a while.
        for (int draws = 0; chosen.size() < wanted && draws < 20 * wanted; draws++) {
            chosen.add(Payload.key(keys.next(random)));
        }
        Map<String, List<ColumnOrSuperColumn>> rows = client.multigetSlice(options.keyspace(),
                new ArrayList<>(chosen), parent, rowPredicate, options.consistency());
        rows.forEach((k, row) -> verify(Payload.keyIndex(k), row));
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

    private static void pause() {
        try {
            Thread.sleep(100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
