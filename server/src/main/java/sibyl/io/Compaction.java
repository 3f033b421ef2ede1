package sibyl.io;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import sibyl.db.CFMetaData;
import sibyl.db.ColumnFamily;
import sibyl.db.LogPosition;
import sibyl.db.MergingRowIterator;
import sibyl.dht.DecoratedKey;
import sibyl.dht.Partitioner;

/**
 * Merges SSTables of one column family into one: rows of a key reconciled across inputs, shadowed
 * columns dropped, and (in a major compaction) tombstones past GCGraceSeconds purged.
 *
 * <p>Keys the inputs' key cache (their column family's, which they share) held stay cached,
 * with their positions in the new SSTable, as in 0.6, so a compaction does not empty the cache.
 *
 * <p>Only writes the new SSTable. Swapping it in for its inputs and then marking them obsolete
 * and releasing them ({@link SSTableReader#markObsolete}) is the store's job; inputs stay
 * readable throughout, so reads and writes never wait for a compaction.
 */
public final class Compaction {
    /**
     * What a compaction did.
     *
     * @param output  the new SSTable; empty when nothing survived the merge (no file is left)
     * @param rowsIn  rows read, counting a key once per input holding it
     * @param rowsOut rows written
     * @param rowsCopied of those, rows written as their input stored them, without decoding ({@link RowCopy})
     */
    public record Result(Optional<Descriptor> output, long rowsIn, long rowsOut, long rowsCopied, long bytesIn,
                         long bytesOut) {
    }

    private Compaction() {
    }

    /**
     * Writes the merge of {@code inputs} as the SSTable {@code output}.
     *
     * @param columnIndexSize bytes per column index block (ColumnIndexSizeInKB × 1024)
     * @param gcBefore        seconds since the epoch, now − GCGraceSeconds: older tombstones may go
     * @param nowSeconds      seconds since the epoch: expiring columns expired by then are written as tombstones
     * @param major           true when {@code inputs} are every SSTable of the column family, the
     *                        only case where purging tombstones is safe (see {@link TombstonePurger})
     * @throws IllegalStateException when an input is already closed
     */
    public static Result compact(List<SSTableReader> inputs, Descriptor output, Partitioner partitioner,
                                 int columnIndexSize, int gcBefore, int nowSeconds, boolean major) throws IOException {
        return compact(inputs, output, partitioner, columnIndexSize, IndexSummaryFile.DEFAULT_INTERVAL, gcBefore, nowSeconds,
                major);
    }

    /** As above, writing the output's index summary every {@code indexInterval} keys. */
    public static Result compact(List<SSTableReader> inputs, Descriptor output, Partitioner partitioner,
                                 int columnIndexSize, int indexInterval, int gcBefore, int nowSeconds, boolean major)
            throws IOException {
        return compact(inputs, output, partitioner, columnIndexSize, indexInterval, gcBefore, nowSeconds, major, true);
    }

    /**
     * As above; {@code copyRows} false decodes and encodes every row, even those {@link RowCopy} would write as they
     * are stored (for tests, which compare the two).
     */
    static Result compact(List<SSTableReader> inputs, Descriptor output, Partitioner partitioner, int columnIndexSize,
                          int indexInterval, int gcBefore, int nowSeconds, boolean major, boolean copyRows)
            throws IOException {
        if (inputs.isEmpty()) throw new IllegalArgumentException("nothing to compact into " + output);
        CFMetaData metadata = inputs.get(0).metadata();
        List<SSTableReader> acquired = new ArrayList<>();
        try {
            long expectedKeys = 0;
            long bytesIn = 0;
            for (SSTableReader sstable : inputs) {
                if (!sstable.metadata().sameRowsAs(metadata)) {
                    throw new IllegalArgumentException("cannot compact " + sstable + " of " + sstable.metadata().name()
                            + " with sstables of " + metadata.name());
                }
                if (!sstable.acquire()) throw new IllegalStateException(sstable + " is closed; cannot compact it");
                acquired.add(sstable);
                expectedKeys += sstable.statistics().rowCount();
                bytesIn += sstable.dataLength();
            }
            TombstonePurger purger = new TombstonePurger(gcBefore, nowSeconds, major);
            return merge(acquired, output, metadata, partitioner, columnIndexSize, indexInterval, expectedKeys, bytesIn,
                    purger, copyRows ? new RowCopy(metadata, columnIndexSize, purger) : null);
        } finally {
            for (SSTableReader sstable : acquired) sstable.release();
        }
    }

    private static Result merge(List<SSTableReader> inputs, Descriptor output, CFMetaData metadata, Partitioner partitioner,
                                int columnIndexSize, int indexInterval, long expectedKeys, long bytesIn,
                                TombstonePurger purger, RowCopy copy)
            throws IOException {
        List<Iterator<Map.Entry<DecoratedKey, ColumnFamily>>> scanners = new ArrayList<>();
        for (SSTableReader sstable : inputs) scanners.add(sstable.storedRows());
        Iterator<Map.Entry<DecoratedKey, ColumnFamily>> rows = MergingRowIterator.of(scanners);
        List<Map.Entry<DecoratedKey, IndexEntry>> stillCached = new ArrayList<>();
        long rowsCopied = 0;
        try (SSTableWriter writer = SSTableWriter.create(output, metadata, partitioner, columnIndexSize, indexInterval,
                expectedKeys)) {
            while (rows.hasNext()) {
                Map.Entry<DecoratedKey, ColumnFamily> row = rows.next();
                // A row only one input holds comes as that input's stored row (a merged one would not).
                if (copy != null && row instanceof SSTableScanner.StoredRow stored
                        && copy.copyable(stored.rows(), stored.entry(), stored.bytes())) {
                    writer.appendStored(row.getKey(), stored.bytes(), stored.entry().rowLength(), copy.minTimestamp(),
                            copy.maxTimestamp());
                    rowsCopied++;
                } else {
                    ColumnFamily kept = purger.purge(row.getValue());
                    if (kept == null) continue;
                    writer.append(row.getKey(), kept);
                }
                if (isKeyCached(inputs, row.getKey())) stillCached.add(Map.entry(row.getKey(), writer.lastEntry()));
            }
            // Every input is read whole, so rows in = the inputs' row counts.
            long rowsIn = expectedKeys;
            if (writer.rowCount() == 0) return new Result(Optional.empty(), rowsIn, 0, 0, bytesIn, 0);
            long rowsOut = writer.rowCount();
            long bytesOut = writer.dataLength();
            Descriptor written = writer.finish(newestLogPosition(inputs), replacedBy(inputs));
            // Only now: the generation of an output that was never finished must not take cache room.
            KeyCache cache = inputs.get(0).keyCache();
            for (Map.Entry<DecoratedKey, IndexEntry> e : stillCached) cache.put(written.generation(), e.getKey(), e.getValue());
            return new Result(Optional.of(written), rowsIn, rowsOut, rowsCopied, bytesIn, bytesOut);
        }
    }

    /**
     * The inputs the output's Statistics lists as replaced. Cassandra 0.6 inputs are left out: they are
     * replaced through markers (FORMAT.md, "Replacing a Cassandra 0.6 SSTable"), and hold no counters.
     */
    private static List<SSTableMetadata.Replaced> replacedBy(List<SSTableReader> inputs) {
        List<SSTableMetadata.Replaced> replaced = new ArrayList<>();
        for (SSTableReader sstable : inputs) {
            if (sstable.descriptor().format() == SSTableFormat.SIBYL) replaced.add(sstable.asReplaced());
        }
        return replaced;
    }

    private static boolean isKeyCached(List<SSTableReader> inputs, DecoratedKey key) {
        for (SSTableReader sstable : inputs) {
            if (sstable.isKeyCached(key)) return true;
        }
        return false;
    }

    /**
     * The output holds everything its inputs held, so it owes the commit log no more than the
     * newest of them: restart may skip replay up to that position.
     */
    private static LogPosition newestLogPosition(List<SSTableReader> inputs) {
        LogPosition newest = LogPosition.NONE;
        for (SSTableReader sstable : inputs) {
            LogPosition p = sstable.statistics().logPosition();
            if (p.compareTo(newest) > 0) newest = p;
        }
        return newest;
    }
}
