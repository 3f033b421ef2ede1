package sibyl.tools;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import sibyl.db.CFMetaData;
import sibyl.db.Cell;
import sibyl.db.Column;
import sibyl.db.ColumnFamily;
import sibyl.db.LogPosition;
import sibyl.db.MergingRowIterator;
import sibyl.db.SuperColumn;
import sibyl.dht.DecoratedKey;
import sibyl.dht.Partitioner;
import sibyl.io.Descriptor;
import sibyl.io.SSTableDirectory;
import sibyl.io.SSTableReader;
import sibyl.io.SSTableWriter;

/**
 * Puts rows that arrive in any order into ring order with bounded memory: rows are buffered
 * until they take about {@code memoryBudget} bytes, then written in order as a run (a temporary
 * SSTable in the work directory); at the end the runs are merged, at most {@link #FAN_IN} at a
 * time, into the output. Versions of one key, in one run or several, are reconciled as the
 * node reconciles writes. Input that fits the budget is written straight to the output.
 *
 * <p>Not thread-safe. {@link #close} deletes whatever runs are left.
 */
final class RowSorter implements AutoCloseable {
    /** Runs read at once by a merge: each costs two 64 KiB read buffers, a bloom filter and an index sample. */
    static final int FAN_IN = 16;

    /** Makes the output SSTable once the number of rows it will hold (at most) is known. */
    interface Output {
        SSTableWriter create(long expectedRows) throws IOException;
    }

    private final CFMetaData metadata;
    private final Partitioner partitioner;
    private final Path workDirectory;
    private final long memoryBudget;
    private final int columnIndexSize;
    private final int indexInterval;
    private final TreeMap<DecoratedKey, ColumnFamily> buffer = new TreeMap<>();
    private final List<Descriptor> runs = new ArrayList<>();
    private long buffered;
    private long rowsAdded;
    private int runsWritten;
    private int nextGeneration;

    /**
     * @param workDirectory where runs are written; on the output's file system, so merging
     *                      needs no other disk, and of this sorter's alone
     * @param memoryBudget  about how many bytes of heap buffered rows may take
     */
    RowSorter(CFMetaData metadata, Partitioner partitioner, Path workDirectory, long memoryBudget, int columnIndexSize,
              int indexInterval) {
        this.metadata = metadata;
        this.partitioner = partitioner;
        this.workDirectory = workDirectory;
        this.memoryBudget = memoryBudget;
        this.columnIndexSize = columnIndexSize;
        this.indexInterval = indexInterval;
    }

    void add(DecoratedKey key, ColumnFamily row) throws IOException {
        buffer.merge(key, row, ColumnFamily::merge);
        buffered += heapBytes(key, row);
        rowsAdded++;
        if (buffered >= memoryBudget) spill();
    }

    long rowsAdded() {
        return rowsAdded;
    }

    /** Runs written so far, intermediate merges included. */
    int runsWritten() {
        return runsWritten;
    }

    /**
     * Writes every row added, in ring order, into the SSTable {@code output} makes, and finishes
     * it.
     *
     * @return the output SSTable
     * @throws IllegalStateException when no row was added (an SSTable is never empty)
     */
    Descriptor finishInto(Output output) throws IOException {
        if (rowsAdded == 0) throw new IllegalStateException("no rows to write");
        if (runs.isEmpty()) {
            try (SSTableWriter writer = output.create(buffer.size())) {
                for (Map.Entry<DecoratedKey, ColumnFamily> row : buffer.entrySet()) writer.append(row.getKey(), row.getValue());
                buffer.clear();
                return writer.finish(LogPosition.NONE);
            }
        }
        spill();
        while (runs.size() > FAN_IN) {
            List<Descriptor> group = new ArrayList<>(runs.subList(0, FAN_IN));
            runs.subList(0, FAN_IN).clear();
            runs.add(merge(group, this::newRun));
        }
        List<Descriptor> last = new ArrayList<>(runs);
        runs.clear();
        return merge(last, output);
    }

    private SSTableWriter newRun(long expectedRows) throws IOException {
        runsWritten++;
        return SSTableWriter.create(new Descriptor(workDirectory, metadata.name(), nextGeneration++), metadata,
                partitioner, columnIndexSize, indexInterval, expectedRows);
    }

    /** Writes the buffer out as a run. */
    private void spill() throws IOException {
        if (buffer.isEmpty()) return;
        try (SSTableWriter writer = newRun(buffer.size())) {
            for (Map.Entry<DecoratedKey, ColumnFamily> row : buffer.entrySet()) writer.append(row.getKey(), row.getValue());
            runs.add(writer.finish(LogPosition.NONE));
        }
        buffer.clear();
        buffered = 0;
    }

    /** Merges runs into one SSTable and deletes them; on failure they are left for {@link #close}. */
    private Descriptor merge(List<Descriptor> inputs, Output output) throws IOException {
        List<SSTableReader> readers = new ArrayList<>();
        try {
            long rows = 0;
            List<Iterator<Map.Entry<DecoratedKey, ColumnFamily>>> sources = new ArrayList<>();
            DecoratedKey start = DecoratedKey.startOf(partitioner.getMinimumToken());
            for (Descriptor d : inputs) {
                SSTableReader reader = SSTableReader.open(d, metadata, partitioner, indexInterval);
                readers.add(reader);
                rows += reader.statistics().rowCount();
                sources.add(reader.rowsFrom(start));
            }
            Descriptor merged;
            try (SSTableWriter writer = output.create(rows)) {
                Iterator<Map.Entry<DecoratedKey, ColumnFamily>> all = MergingRowIterator.of(sources);
                while (all.hasNext()) {
                    Map.Entry<DecoratedKey, ColumnFamily> row = all.next();
                    writer.append(row.getKey(), row.getValue());
                }
                merged = writer.finish(LogPosition.NONE);
            }
            release(readers);
            for (Descriptor d : inputs) SSTableDirectory.delete(d);
            return merged;
        } catch (IOException | RuntimeException e) {
            release(readers);
            runs.addAll(inputs);
            throw e;
        }
    }

    private static void release(List<SSTableReader> readers) {
        for (SSTableReader r : readers) r.release();
        readers.clear();
    }

    @Override
    public void close() throws IOException {
        buffer.clear();
        for (Descriptor d : runs) SSTableDirectory.delete(d);
        runs.clear();
    }

    /**
     * About what a row takes on the heap while buffered: arrays, objects and map nodes. Larger
     * than its serialized size, several times so for small columns.
     */
    static long heapBytes(DecoratedKey key, ColumnFamily row) {
        long bytes = 200 + 2L * key.key().length();
        for (Cell cell : row.cells()) {
            if (cell instanceof Column c) {
                bytes += columnBytes(c);
            } else {
                SuperColumn sc = (SuperColumn) cell;
                bytes += 120 + sc.name().length;
                for (Column c : sc.subcolumns()) bytes += columnBytes(c);
            }
        }
        return bytes;
    }

    private static long columnBytes(Column c) {
        return 100 + c.name().length + c.value().length;
    }
}
