package sibyl.db;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import sibyl.dht.DecoratedKey;
import sibyl.dht.Partitioner;
import sibyl.dht.Token;

/**
 * The rows of one column family on this node: a memtable now, later also memtables being
 * flushed and SSTables. Every read merges the versions all {@link RowSource}s hold, so new kinds
 * of source plug in here without changing any caller.
 *
 * <p>Writes arrive already serialized per row by {@link Keyspace} (which holds the row lock); the
 * store itself is safe for any number of concurrent readers.
 */
public final class ColumnFamilyStore {
    /** The sources of one moment, newest first; replaced as a whole so readers see a consistent set. */
    private record View(Memtable memtable, List<RowSource> older) {
        List<RowSource> all() {
            if (older.isEmpty()) return List.of(memtable);
            List<RowSource> all = new ArrayList<>(older.size() + 1);
            all.add(memtable);
            all.addAll(older);
            return all;
        }
    }

    /** A change to one row of this store, resolved into tombstones and columns. */
    record Delta(ColumnFamily row, int operations) {
    }

    private final CFMetaData metadata;
    private final Partitioner partitioner;
    private final LatencyTracker reads = new LatencyTracker();
    private final LatencyTracker writes = new LatencyTracker();
    private volatile View view;

    public ColumnFamilyStore(CFMetaData metadata, Partitioner partitioner) {
        this.metadata = metadata;
        this.partitioner = partitioner;
        this.view = new View(new Memtable(metadata), List.of());
    }

    public CFMetaData metadata() {
        return metadata;
    }

    /** Reads served (get, get_slice, get_count, range slices) and their latency. */
    public LatencyTracker readLatency() {
        return reads;
    }

    /** Row deltas applied and their latency. */
    public LatencyTracker writeLatency() {
        return writes;
    }

    /** The memtable writes go to now. */
    public Memtable memtable() {
        return view.memtable();
    }

    /** Every source of this store at this moment, newest first. */
    public List<RowSource> sources() {
        return view.all();
    }

    // ---- writes (called by Keyspace under the row lock)

    /**
     * Turns a mutation's changes to this column family into one row delta, resolving slice
     * deletions against the row as it is now plus the mutation's other changes.
     *
     * @throws InvalidQueryException when a change does not fit this column family's type
     */
    Delta resolve(DecoratedKey key, List<Change> changes, int localDeletionTime) {
        DeltaBuilder delta = new DeltaBuilder(metadata, localDeletionTime);
        List<Change.DeleteSlice> slices = new ArrayList<>();
        for (Change change : changes) {
            if (change instanceof Change.DeleteSlice slice) {
                checkParent(slice.superColumn());
                slices.add(slice);
            } else {
                delta.add(change);
            }
        }
        if (!slices.isEmpty()) {
            ColumnFamily stored = getRow(key);
            ColumnFamily current = stored == null ? delta.row() : ColumnFamily.merge(stored, delta.row());
            for (Change.DeleteSlice slice : slices) {
                for (Cell cell : SliceReader.read(current, slice.superColumn(), slice.range())) {
                    delta.add(cell instanceof SuperColumn
                            ? new Change.DeleteSuperColumn(cell.name(), slice.timestamp())
                            : new Change.DeleteColumn(slice.superColumn(), cell.name(), slice.timestamp()));
                }
            }
        }
        return new Delta(delta.row(), delta.operations());
    }

    /** Applies a resolved delta; one that changes nothing (a slice deletion that selected nothing) creates no row. */
    void apply(DecoratedKey key, Delta delta) {
        if (delta.row().isEmpty()) return;
        long start = System.nanoTime();
        view.memtable().apply(key, delta.row(), delta.operations());
        writes.record(System.nanoTime() - start);
    }

    // ---- reads

    /** The row merged from every source, tombstones and all; null when no source holds it. */
    public ColumnFamily getRow(DecoratedKey key) {
        ColumnFamily merged = null;
        for (RowSource source : view.all()) {
            ColumnFamily row = source.getRow(key);
            if (row != null) merged = merged == null ? row : ColumnFamily.merge(merged, row);
        }
        return merged;
    }

    /** get_slice: the live entries {@code selection} picks below {@code parent}. */
    public List<Cell> getSlice(DecoratedKey key, QueryPath parent, ColumnSelection selection) {
        checkParent(parent);
        long start = System.nanoTime();
        List<Cell> cells = SliceReader.read(getRow(key), parent.superColumn(), selection);
        reads.record(System.nanoTime() - start);
        return cells;
    }

    /** get: the live column, subcolumn or super column (with its live subcolumns) at {@code path}. */
    public Optional<Cell> get(DecoratedKey key, QueryPath path) {
        checkPath(path);
        long start = System.nanoTime();
        ColumnFamily row = getRow(key);
        Optional<Cell> cell = row == null ? Optional.empty()
                : Optional.ofNullable(SliceReader.readOne(row, path.superColumn(), path.column()));
        reads.record(System.nanoTime() - start);
        return cell;
    }

    /** get_count: live columns, super columns with a live subcolumn, or live subcolumns. */
    public int getCount(DecoratedKey key, QueryPath parent) {
        return getSlice(key, parent, ColumnSelection.all()).size();
    }

    /**
     * get_range_slices: up to {@code count} rows of {@code range} in ring order, each with what
     * {@code selection} picks in it. Every key this column family holds anything for, live or
     * tombstone, is a row here, with an empty list when nothing is selected ("range ghosts").
     */
    public List<RowSlice> getRangeSlice(RowRange range, QueryPath parent, ColumnSelection selection, int count) {
        checkParent(parent);
        if (count <= 0) throw new IllegalArgumentException("maxRows must be positive");
        long start = System.nanoTime();
        List<RowSlice> result = new ArrayList<>();
        for (Segment segment : segments(range)) {
            Iterator<Map.Entry<DecoratedKey, ColumnFamily>> rows = rowsFrom(segment.from());
            while (rows.hasNext() && result.size() < count) {
                Map.Entry<DecoratedKey, ColumnFamily> row = rows.next();
                if (segment.to() != null && row.getKey().compareTo(segment.to()) > 0) break;
                result.add(new RowSlice(row.getKey().key(),
                        SliceReader.read(row.getValue(), parent.superColumn(), selection)));
            }
            if (result.size() >= count) break;
        }
        reads.record(System.nanoTime() - start);
        return result;
    }

    /** Every {@code interval}-th key of each source, in no particular order (see describe_splits). */
    public List<DecoratedKey> sampleKeys(int interval) {
        List<DecoratedKey> samples = new ArrayList<>();
        for (RowSource source : view.all()) samples.addAll(source.sampleKeys(interval));
        return samples;
    }

    private Iterator<Map.Entry<DecoratedKey, ColumnFamily>> rowsFrom(DecoratedKey from) {
        List<Iterator<Map.Entry<DecoratedKey, ColumnFamily>>> iterators = new ArrayList<>();
        for (RowSource source : view.all()) iterators.add(source.rowsFrom(from));
        return MergingRowIterator.of(iterators);
    }

    /** A stretch of the ring without wrap: positions from {@code from} up to {@code to} (null = the end). */
    private record Segment(DecoratedKey from, DecoratedKey to) {
    }

    private List<Segment> segments(RowRange range) {
        if (range instanceof RowRange.Keys keys) {
            Token start = keys.startKey().isEmpty() ? partitioner.getMinimumToken() : partitioner.getToken(keys.startKey());
            DecoratedKey end = keys.endKey().isEmpty() ? null : DecoratedKey.endOf(partitioner.getToken(keys.endKey()));
            return List.of(new Segment(DecoratedKey.startOf(start), end));
        }
        RowRange.Tokens tokens = (RowRange.Tokens) range;
        DecoratedKey afterStart = DecoratedKey.endOf(tokens.start());
        DecoratedKey end = DecoratedKey.endOf(tokens.end());
        if (tokens.start().compareTo(tokens.end()) < 0) return List.of(new Segment(afterStart, end));
        // Wraps (start == end: the whole ring): to the end of the ring, then from its start.
        return List.of(new Segment(afterStart, null),
                new Segment(DecoratedKey.startOf(partitioner.getMinimumToken()), end));
    }

    // ---- shape checks: the Thrift layer validates first; these keep the store consistent anyway

    private void checkParent(QueryPath parent) {
        if (parent.column() != null) throw new IllegalArgumentException("a slice parent names no column: " + parent);
        checkParent(parent.superColumn());
    }

    private void checkParent(byte[] superColumn) {
        if (superColumn != null && !metadata.isSuper()) {
            throw new InvalidQueryException("columnfamily alone is required for standard CF " + metadata.name());
        }
    }

    private void checkPath(QueryPath path) {
        if (metadata.isSuper()) {
            if (path.superColumn() == null) {
                throw new InvalidQueryException("supercolumn parameter is not optional for super CF " + metadata.name());
            }
        } else {
            if (path.superColumn() != null) {
                throw new InvalidQueryException("supercolumn parameter is invalid for standard CF " + metadata.name());
            }
            if (path.column() == null) {
                throw new InvalidQueryException("column parameter is not optional for standard CF " + metadata.name());
            }
        }
    }
}
