package sibyl.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;
import sibyl.db.CFMetaData;
import sibyl.db.Column;
import sibyl.db.ColumnFamily;
import sibyl.db.ColumnSelection;
import sibyl.db.marshal.BytesType;
import sibyl.db.marshal.LongType;
import sibyl.dht.DecoratedKey;
import sibyl.dht.RandomPartitioner;
import sibyl.engine.Memtable;

/**
 * Rough numbers, not a test: run with
 * {@code mvn -B -ntp -q -pl server -am test -Dtest=SSTableBenchmark -Dsibyl.bench=true -Dsurefire.failIfNoSpecifiedTests=false}
 * and read the lines starting "bench". "Cold" reads follow an eviction of the SSTable's files
 * from the page cache with {@code dd iflag=nocache count=0} (Linux; skipped where it fails).
 */
@EnabledIfSystemProperty(named = "sibyl.bench", matches = "true")
class SSTableBenchmark {
    private static final int ROWS = 100_000;
    private static final int COLUMNS = 10;
    private static final int VALUE_SIZE = 50;

    @TempDir
    Path dir;

    private final RandomPartitioner partitioner = new RandomPartitioner();

    /** {@value #ROWS} rows of {@value #COLUMNS} random {@value #VALUE_SIZE}-byte values; their keys go to {@code keys}. */
    private Memtable flushSized(CFMetaData cf, Random random, List<DecoratedKey> keys) {
        Memtable memtable = new Memtable(cf, Runnable::run);
        for (int i = 0; i < ROWS; i++) {
            DecoratedKey key = partitioner.decorateKey("key" + i);
            keys.add(key);
            ColumnFamily row = ColumnFamily.empty(cf);
            for (int c = 0; c < COLUMNS; c++) {
                byte[] value = new byte[VALUE_SIZE];
                random.nextBytes(value);
                row = row.withCell(Column.live(SSTableFixtures.b("column" + c), value, System.currentTimeMillis()));
            }
            memtable.apply(key, row, COLUMNS);
        }
        return memtable;
    }

    @Test
    void flushSizedSSTable() throws IOException {
        CFMetaData cf = CFMetaData.standard(SSTableFixtures.KS, "Standard1", BytesType.instance);
        Random random = new Random(1);
        List<DecoratedKey> keys = new ArrayList<>();
        Memtable memtable = flushSized(cf, random, keys);
        for (int run = 0; run < 3; run++) {
            long start = System.nanoTime();
            Descriptor d = SSTableFixtures.write(dir, run, memtable, partitioner, 64 * 1024);
            double seconds = (System.nanoTime() - start) / 1e9;
            long bytes = d.path(Component.DATA).toFile().length() + d.path(Component.INDEX).toFile().length();
            System.out.printf(Locale.ROOT, "bench write run %d: %d rows, %.1f MB (data+index) in %.2f s = %.1f MB/s; memtable throughput %.1f MB%n",
                    run, ROWS, bytes / 1e6, seconds, bytes / 1e6 / seconds, memtable.throughputBytes() / 1e6);
        }
        Descriptor d = new Descriptor(dir, "Standard1", 2);
        SSTableReader sstable = SSTableReader.open(d, cf, partitioner, 128);
        try {
            evict(d);
            measureReads("cold (after page cache eviction)", sstable, keys, random, 2_000);
            measureReads("cached", sstable, keys, random, 200_000);
            measureReads("cached", sstable, keys, random, 200_000);
        } finally {
            sstable.release();
        }
    }

    private static void measureReads(String label, SSTableReader sstable, List<DecoratedKey> keys, Random random, int reads) {
        long[] nanos = new long[reads];
        for (int i = 0; i < reads; i++) {
            DecoratedKey key = keys.get(random.nextInt(keys.size()));
            long t = System.nanoTime();
            if (sstable.getRow(key) == null) throw new AssertionError("missing " + key);
            nanos[i] = System.nanoTime() - t;
        }
        Arrays.sort(nanos);
        System.out.printf(Locale.ROOT, "bench point read %s: %d reads, p50 %.1f us, p99 %.1f us, mean %.1f us%n", label, reads,
                nanos[reads / 2] / 1e3, nanos[reads * 99 / 100] / 1e3, Arrays.stream(nanos).average().orElse(0) / 1e3);
    }

    @Test
    void narrowSliceOfAWideRow() throws IOException {
        CFMetaData cf = CFMetaData.standard(SSTableFixtures.KS, "Wide", LongType.instance);
        Memtable memtable = new Memtable(cf, Runnable::run);
        DecoratedKey key = partitioner.decorateKey("wide");
        ColumnFamily row = ColumnFamily.empty(cf);
        int columns = 100_000;
        for (long i = 0; i < columns; i++) row = row.withCell(Column.live(name(i), new byte[VALUE_SIZE], i));
        memtable.apply(key, row, columns);
        Descriptor d = SSTableFixtures.write(dir, 9, memtable, partitioner, 64 * 1024);
        SSTableReader sstable = SSTableReader.open(d, cf, partitioner, 128);
        try {
            long before = sstable.dataBytesRead();
            long t = System.nanoTime();
            sstable.getRow(key);
            long wholeNanos = System.nanoTime() - t;
            long whole = sstable.dataBytesRead() - before;
            before = sstable.dataBytesRead();
            t = System.nanoTime();
            ColumnFamily slice = sstable.readSlice(key, ColumnSelection.range(name(50_000), name(50_099), false, 100));
            long sliceNanos = System.nanoTime() - t;
            long sliceBytes = sstable.dataBytesRead() - before;
            System.out.printf(Locale.ROOT, "bench wide row of %d columns: whole row %d bytes read in %.1f ms; 100-column slice "
                            + "(%d cells) %d bytes read in %.2f ms (%.2f%% of the row)%n", columns, whole, wholeNanos / 1e6,
                    slice.cellCount(), sliceBytes, sliceNanos / 1e6, 100.0 * sliceBytes / whole);
            before = sstable.dataBytesRead();
            t = System.nanoTime();
            CellCursor cursor = sstable.cellsFrom(key, new byte[0], true);
            for (int i = 0; i < 100; i++) cursor.next();
            long cursorNanos = System.nanoTime() - t;
            System.out.printf(Locale.ROOT, "bench wide row: last 100 columns by a reversed cursor: %d bytes read in %.2f ms%n",
                    sstable.dataBytesRead() - before, cursorNanos / 1e6);
        } finally {
            sstable.release();
        }
    }

    /**
     * Point reads of one SSTable with the key cache off and with every key cached, in alternating
     * rounds of the same random keys, so a busy machine slows both alike; CPU time of this thread
     * per read, medians over the rounds.
     */
    @Test
    void keyCacheHitsAgainstIndexReads() throws IOException {
        CFMetaData cf = CFMetaData.standard(SSTableFixtures.KS, "Standard1", BytesType.instance);
        Random random = new Random(1);
        List<DecoratedKey> keys = new ArrayList<>();
        Memtable memtable = flushSized(cf, random, keys);
        Descriptor d = SSTableFixtures.write(dir, 1, memtable, partitioner, 64 * 1024);
        SSTableReader off = SSTableReader.open(d, cf, partitioner, 128, new KeyCache(0));
        SSTableReader on = SSTableReader.open(d, cf, partitioner, 128, new KeyCache(ROWS));
        java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        try {
            for (DecoratedKey key : keys) {
                off.getRow(key);
                on.getRow(key);
            }
            int reads = 50_000;
            int rounds = 9;
            long[][] cpu = new long[2][rounds];
            long[] indexBytes = new long[2];
            for (int round = 0; round < rounds; round++) {
                for (int variant = 0; variant < 2; variant++) {
                    SSTableReader sstable = variant == 0 ? off : on;
                    Random order = new Random(round);
                    long index = sstable.indexBytesRead();
                    long start = threads.getCurrentThreadCpuTime();
                    for (int i = 0; i < reads; i++) sstable.getRow(keys.get(order.nextInt(keys.size())));
                    cpu[variant][round] = threads.getCurrentThreadCpuTime() - start;
                    indexBytes[variant] += sstable.indexBytesRead() - index;
                }
            }
            Arrays.sort(cpu[0]);
            Arrays.sort(cpu[1]);
            double offNanos = (double) cpu[0][rounds / 2] / reads;
            double onNanos = (double) cpu[1][rounds / 2] / reads;
            System.out.printf(Locale.ROOT, "bench point read, %d rows of %d x %d-byte columns, page cache warm: key cache off "
                            + "%.0f ns CPU/read (%.0f index bytes/read), all keys cached %.0f ns CPU/read (%.0f index bytes/read): "
                            + "ratio on/off %.2f%n", ROWS, COLUMNS, VALUE_SIZE, offNanos, (double) indexBytes[0] / reads / rounds,
                    onNanos, (double) indexBytes[1] / reads / rounds, onNanos / offNanos);
        } finally {
            off.release();
            on.release();
        }
    }

    private static byte[] name(long i) {
        return ByteBuffer.allocate(8).putLong(i).array();
    }

    private static void evict(Descriptor d) {
        for (Component c : Component.values()) {
            try {
                Process p = new ProcessBuilder("dd", "if=" + d.path(c), "iflag=nocache", "count=0").redirectErrorStream(true).start();
                p.getInputStream().readAllBytes();
                if (p.waitFor() != 0) System.out.println("bench: dd could not evict " + d.path(c));
            } catch (IOException e) {
                System.out.println("bench: no dd to evict the page cache: " + e.getMessage());
                return;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
