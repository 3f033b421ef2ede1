package sibyl.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static sibyl.db.TestSchema.KS;
import static sibyl.db.TestSchema.STD;
import static sibyl.db.TestSchema.SUPER;
import static sibyl.db.TestSchema.b;
import static sibyl.db.TestSchema.l;
import static sibyl.db.TestSchema.m;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import sibyl.db.Cell;
import sibyl.db.Column;
import sibyl.db.ColumnSelection;
import sibyl.db.QueryPath;
import sibyl.db.RowMutation;
import sibyl.db.RowRange;
import sibyl.db.RowSlice;
import sibyl.db.TestSchema;
import sibyl.dht.RandomPartitioner;

/**
 * Writers apply mutations that write every column of a row at one timestamp (or delete the
 * row); readers check each read shows one mutation's columns whole or, after a deletion, none.
 */
class AtomicityTest {
    private static final int COLUMNS = 20;
    private static final String[] KEYS = {"r0", "r1", "r2"};

    private final LocalStorageService db = TestStores.service(new RandomPartitioner());
    private final AtomicLong clock = new AtomicLong();
    private final AtomicBoolean stop = new AtomicBoolean();

    @Test
    void readersSeeWholeMutationsOrNone() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        List<Future<Integer>> futures = new ArrayList<>();
        for (int w = 0; w < 4; w++) futures.add(pool.submit(this::write));
        for (int r = 0; r < 4; r++) futures.add(pool.submit(this::read));
        Thread.sleep(1500);
        stop.set(true);
        pool.shutdown();
        assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS));
        int reads = 0;
        for (int i = 0; i < futures.size(); i++) {
            int n = futures.get(i).get();
            if (i >= 4) reads += n;
        }
        assertTrue(reads > 100, "too few reads to mean anything: " + reads);
    }

    private Integer write() {
        int n = 0;
        java.util.Random random = new java.util.Random(Thread.currentThread().getId());
        while (!stop.get()) {
            String key = KEYS[random.nextInt(KEYS.length)];
            long ts = clock.incrementAndGet();
            RowMutation.Builder mutation = m(key);
            if (random.nextInt(10) == 0) {
                mutation.deleteRow(STD, ts).deleteRow(SUPER, ts);
            } else if (random.nextInt(10) == 0) {
                mutation.deleteSlice(STD, null, ColumnSelection.all(), ts)
                        .deleteSlice(SUPER, b("sc"), ColumnSelection.all(), ts);
            } else {
                for (int c = 0; c < COLUMNS; c++) {
                    mutation.write(STD, l(c), l(ts), ts);
                    mutation.write(SUPER, b("sc"), l(c), l(ts), ts);
                }
            }
            db.apply(mutation.build());
            n++;
        }
        return n;
    }

    private Integer read() {
        int n = 0;
        while (!stop.get()) {
            for (String key : KEYS) {
                check(db.getSlice(KS, key, QueryPath.cf(STD), ColumnSelection.all()));
                check(db.getSlice(KS, key, QueryPath.superColumn(SUPER, b("sc")), ColumnSelection.all()));
                n++;
            }
            for (RowSlice row : db.getRangeSlice(KS, QueryPath.cf(STD), ColumnSelection.all(), RowRange.keys("", ""), 10)) {
                check(row.cells());
            }
        }
        return n;
    }

    private static void check(List<Cell> cells) {
        if (cells.isEmpty()) return;
        assertEquals(COLUMNS, cells.size(), "a read saw part of a mutation");
        byte[] first = ((Column) cells.get(0)).value();
        for (Cell c : cells) {
            assertEquals(java.util.Arrays.toString(first), java.util.Arrays.toString(((Column) c).value()),
                    "columns from different mutations");
        }
    }
}
