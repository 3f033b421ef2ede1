package sibyl.engine;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import sibyl.db.CFMetaData;
import sibyl.db.CacheCapacity;
import sibyl.db.CacheConfig;
import sibyl.db.Cell;
import sibyl.db.Change;
import sibyl.db.ColumnFamily;
import sibyl.db.ColumnSelection;
import sibyl.db.IndexQuery;
import sibyl.db.InvalidQueryException;
import sibyl.db.LogPosition;
import sibyl.db.MergingRowIterator;
import sibyl.db.PathShape;
import sibyl.db.QueryPath;
import sibyl.db.RowRange;
import sibyl.db.RowSlice;
import sibyl.db.RowSource;
import sibyl.db.SliceReader;
import sibyl.db.SuperColumn;
import sibyl.dht.DecoratedKey;
import sibyl.dht.Partitioner;
import sibyl.dht.Token;
import sibyl.io.CorruptSSTableException;
import sibyl.io.KeyCache;
import sibyl.io.SSTableReader;

/**
 * The rows of one column family on this node: the memtable written to now, memtables being
 * flushed, and SSTables. Every read merges the versions all of them hold; a point read asks only
 * the SSTables whose key range and bloom filter may hold the key, a read of named columns stops
 * at the first SSTable older than the versions it has found, and reads of a slice read only the
 * column index blocks the slice needs.
 *
 * <p>The set of sources is an immutable {@link View} replaced as a whole (switch, flush done,
 * compaction done), so a reader sees one consistent set. SSTables in a view hold one reference,
 * the view's; a reader takes its own for the duration of the read ({@link SSTableReader#acquire})
 * so a compaction replacing them cannot close the files under it. A view change installs the
 * new view first and only then gives up the old SSTables' references.
 *
 * <p>Writes arrive already serialized per row by {@link Keyspace} (which holds the row lock); the
 * store itself is safe for any number of concurrent readers.
 *
 * <p>A read that meets damaged SSTable data (a checksum that fails) fails with a
 * {@link sibyl.db.DamagedDataException} naming this column family and pointing at nodetool
 * scrub; each damaged place is logged once ({@link DamageReports}). Reads of other rows go on.
 */
public final class ColumnFamilyStore {
    /**
     * The sources of one moment: the memtable written to, memtables being flushed (oldest first)
     * and the live SSTables (oldest first).
     */
    private record View(Memtable memtable, List<PendingFlush> flushing, List<SSTableReader> sstables,
                        List<SSTableReader> newestFirst) {
        View {
            flushing = List.copyOf(flushing);
            sstables = List.copyOf(sstables);
            newestFirst = List.copyOf(newestFirst);
        }

        /** {@code newestFirst}: the SSTables by their newest timestamp, highest first, the order reads ask them in. */
        View(Memtable memtable, List<PendingFlush> flushing, List<SSTableReader> sstables) {
            this(memtable, flushing, sstables, sstables.stream()
                    .sorted(Comparator.comparingLong((SSTableReader r) -> r.statistics().maxTimestamp()).reversed())
                    .toList());
        }
    }

    /** A change to one row of this store, resolved into tombstones and columns. */
    record Delta(ColumnFamily row, int operations) {
    }

    /** Replaced by a reload that changes the column family's caches or GCGraceSeconds; never its name or comparators. */
    private volatile CFMetaData metadata;
    private final Partitioner partitioner;
    /** Where each of this store's memtables folds its new keys into ring order in the background. */
    private final Executor memtableSorter;
    private final AtomicLong switches = new AtomicLong();
    private final AtomicLong bloomHits = new AtomicLong();
    private final AtomicLong bloomFalsePositives = new AtomicLong();
    /** Replaced SSTables, kept here until their last reader lets go, for the total disk space. */
    private final List<SSTableReader> retired = new CopyOnWriteArrayList<>();
    /** Held while this store's pending flushes are written, so they finish in switch order. */
    final ReentrantLock flushLock = new ReentrantLock();
    private final Object viewLock = new Object();
    private volatile View view;
    /** The log position up to which a truncate discarded this store's writes (NONE when never truncated). */
    private volatile LogPosition truncatedAt = LogPosition.NONE;
    /** Both caches start off; {@link #configureCaches} sizes them once the SSTables are open. */
    private final KeyCache keyCache = new KeyCache(0);
    private final RowCache rowCache = new RowCache(0);
    private volatile CacheConfig caches = CacheConfig.NONE;
    private final DamageReports damage;
    private final Clock clock;
    /** The secondary indexes of the current metadata; replaced whole when they change or the store is truncated. */
    private volatile StoreIndexes indexes;

    /**
     * @param memtableSorter runs the background folds of its memtables (see {@link Memtable#Memtable(CFMetaData, Executor)})
     * @param clock          the time reads judge expiring columns by (docs/semantics.md §Expiring columns)
     */
    public ColumnFamilyStore(CFMetaData metadata, Partitioner partitioner, Executor memtableSorter, Clock clock) {
        this.metadata = metadata;
        this.clock = clock;
        this.partitioner = partitioner;
        this.memtableSorter = memtableSorter;
        this.damage = new DamageReports(metadata.keyspace(), metadata.name());
        this.view = new View(new Memtable(metadata, memtableSorter), List.of(), List.of());
        this.indexes = newIndexes(metadata);
    }

    private StoreIndexes newIndexes(CFMetaData cf) {
        return new StoreIndexes(cf.indexes(),
                (key, columns) -> getSlice(key, QueryPath.cf(cf.name()), ColumnSelection.names(columns)));
    }

    public CFMetaData metadata() {
        return metadata;
    }

    /** The memtable writes go to now. */
    public Memtable memtable() {
        return view.memtable();
    }

    /** Memtables switched out and not yet in an SSTable, oldest first. */
    public List<PendingFlush> pendingFlushes() {
        return view.flushing();
    }

    /** The live SSTables, oldest first. Readers that use one past this moment acquire it. */
    public List<SSTableReader> liveSSTables() {
        return view.sstables();
    }

    /**
     * The live SSTables, each with a reference taken for the caller, who releases every one of
     * them ({@link SSTableReader#release}) when done: until then none of their files is deleted,
     * whatever compactions replace them meanwhile (a snapshot links them).
     */
    public List<SSTableReader> acquireLiveSSTables() {
        while (true) {
            List<SSTableReader> live = view.sstables();
            if (acquireAll(live)) return live;
        }
    }

    /** Times the memtable was switched out for flushing since start. */
    public long memtableSwitchCount() {
        return switches.get();
    }

    /** Bytes of the live SSTables' data and index files. */
    public long liveDiskSpaceUsed() {
        return diskSpace(view.sstables());
    }

    /** Live bytes plus those of replaced SSTables that readers still hold open. */
    public long totalDiskSpaceUsed() {
        retired.removeIf(r -> r.referenceCount() == 0);
        return liveDiskSpaceUsed() + diskSpace(retired);
    }

    private static long diskSpace(Collection<SSTableReader> sstables) {
        long bytes = 0;
        for (SSTableReader r : sstables) bytes += r.statistics().dataLength() + r.statistics().indexLength();
        return bytes;
    }

    /**
     * The log position up to which this store's SSTables hold every write: the newest any of them
     * recorded (flushes of a store finish in switch order, so all before it are in SSTables too).
     */
    public LogPosition flushedPosition() {
        LogPosition newest = truncatedAt;
        for (SSTableReader r : view.sstables()) {
            LogPosition p = r.statistics().logPosition();
            if (p.compareTo(newest) > 0) newest = p;
        }
        return newest;
    }

    /** RowsCached; off until {@link #configureCaches} (memory-only stores have none). */
    public RowCache rowCache() {
        return rowCache;
    }

    /** KeysCached, shared by this store's SSTables; off until {@link #configureCaches}. */
    public KeyCache keyCache() {
        return keyCache;
    }

    public CacheConfig cacheConfig() {
        return caches;
    }

    /** Sizes the caches at start-up, before the first read; sizes given as fractions follow the keys from then on. */
    void configureCaches(CacheConfig config) {
        caches = config;
        resizeCaches();
    }

    /**
     * Takes a reloaded configuration of this column family: its caches are resized at once (a
     * smaller one drops its least recently used entries), and the next compaction purges by its
     * GCGraceSeconds. Rows already stored keep their meaning, so the name, type and comparators
     * must be those the store has.
     *
     * @throws IllegalArgumentException for another column family, or one of another type or comparator
     */
    void reconfigure(CFMetaData updated) {
        checkReconfigurable(updated);
        boolean newIndexes = !updated.indexes().equals(metadata.indexes());
        metadata = updated;
        // An index added is built, from the rows as they are, at its first read; one dropped is forgotten.
        if (newIndexes) indexes = newIndexes(updated);
        configureCaches(updated.caches());
    }

    /** @throws IllegalArgumentException unless {@link #reconfigure} can take {@code updated} */
    void checkReconfigurable(CFMetaData updated) {
        CFMetaData current = metadata;
        if (!updated.sameRowsAs(current)) {
            throw new IllegalArgumentException("column family " + current.keyspace() + "." + current.name()
                    + " cannot change its name, type, comparators or whether it holds counters while it stores rows");
        }
    }

    /**
     * What this store holds, in words, or null when it holds nothing: no SSTable, no memtable
     * being flushed and nothing in its memtable. A column family is removed live only when null.
     */
    String dataHeld() {
        View v = view;
        if (v.sstables().isEmpty() && v.flushing().isEmpty() && v.memtable().isEmpty()) return null;
        List<String> parts = new ArrayList<>();
        if (!v.sstables().isEmpty()) parts.add(v.sstables().size() + " SSTable" + (v.sstables().size() == 1 ? "" : "s"));
        int inMemory = v.memtable().rowCount();
        for (PendingFlush p : v.flushing()) inMemory += p.memtable().rowCount();
        if (inMemory > 0) parts.add(inMemory + " row" + (inMemory == 1 ? "" : "s") + " in memory");
        return parts.isEmpty() ? "data" : String.join(" and ", parts);
    }

    /**
     * After the SSTables changed: a cache sized as a fraction of the keys follows their number
     * (the rows the live SSTables hold, counting a key in several SSTables more than once).
     */
    private void resizeCaches() {
        // Under the view lock, so a flush and a compaction finishing together cannot leave the size of the older view.
        synchronized (viewLock) {
            long keys = 0;
            for (SSTableReader r : view.sstables()) keys += r.statistics().rowCount();
            CacheConfig config = caches;
            keyCache.setCapacity(capacity(config.keys(), keys));
            rowCache.setCapacity(capacity(config.rows(), keys));
        }
    }

    private static int capacity(CacheCapacity capacity, long keys) {
        return (int) Math.max(0, Math.min(Integer.MAX_VALUE, capacity.entriesFor(keys)));
    }

    // ---- view changes (by the flush and compaction code, and at start-up)

    /**
     * Adds SSTables found at start-up or put into the directories since (refresh); the store
     * takes over the reference each was opened with.
     */
    void addSSTables(List<SSTableReader> found) {
        synchronized (viewLock) {
            View v = view;
            List<SSTableReader> all = new ArrayList<>(v.sstables());
            all.addAll(found);
            view = new View(v.memtable(), v.flushing(), all);
            // Rows an index has not seen: it is built again from every row at its next read.
            if (!indexes.isEmpty()) indexes = newIndexes(metadata);
        }
        resizeCaches();
    }

    /**
     * Puts a fresh memtable in place of the current one, which stays readable as a pending flush.
     * The caller holds the keyspace's switch lock in write mode, so {@code position} separates the
     * two memtables' writes exactly.
     */
    PendingFlush switchMemtable(LogPosition position) {
        synchronized (viewLock) {
            View v = view;
            PendingFlush pending = new PendingFlush(v.memtable(), position);
            List<PendingFlush> flushing = new ArrayList<>(v.flushing());
            flushing.add(pending);
            view = new View(new Memtable(metadata, memtableSorter), flushing, v.sstables());
            switches.incrementAndGet();
            return pending;
        }
    }

    /** The flushed memtable's SSTable takes its place, in one view change. */
    void replaceFlushed(PendingFlush flushed, SSTableReader sstable) {
        synchronized (viewLock) {
            View v = view;
            List<PendingFlush> flushing = new ArrayList<>(v.flushing());
            if (!flushing.remove(flushed)) throw new IllegalStateException("not a pending flush of " + metadata.name());
            List<SSTableReader> sstables = new ArrayList<>(v.sstables());
            sstables.add(sstable);
            view = new View(v.memtable(), flushing, sstables);
        }
        resizeCaches();
    }

    /**
     * A compaction's output takes the place of its inputs (none when nothing survived); the
     * inputs are marked obsolete and the view's references to them given up, so their files go
     * once the last reader releases them.
     */
    void replaceCompacted(List<SSTableReader> inputs, Optional<SSTableReader> output) {
        synchronized (viewLock) {
            View v = view;
            List<SSTableReader> sstables = new ArrayList<>(v.sstables());
            if (!sstables.containsAll(inputs)) throw new IllegalStateException("compacted sstables are not all live");
            sstables.removeAll(inputs);
            output.ifPresent(sstables::add);
            view = new View(v.memtable(), v.flushing(), sstables);
        }
        resizeCaches();
        for (SSTableReader input : inputs) {
            input.markObsolete();
            retired.add(input);
            input.release();
        }
    }

    /**
     * The store's writes up to {@code position} were truncated before this start: the commit log replays none of
     * them. Before the log is replayed.
     */
    void truncatedAt(LogPosition position) {
        if (position.compareTo(truncatedAt) > 0) truncatedAt = position;
    }

    /**
     * Empties the store (a truncate): a fresh memtable and no SSTable take the place of what it held, the
     * SSTables are marked obsolete (their files go when their last reader lets go) and the row cache forgets
     * everything. The caller holds the store's flush lock and the keyspace's switch lock in write mode, has
     * made sure no flush is pending, and has recorded durably that the writes up to {@code position} and these
     * SSTables are gone.
     *
     * @return the SSTables given up
     */
    List<SSTableReader> truncate(LogPosition position) {
        List<SSTableReader> gone;
        synchronized (viewLock) {
            View v = view;
            if (!v.flushing().isEmpty()) throw new IllegalStateException("a flush of " + metadata.name() + " is pending");
            gone = v.sstables();
            view = new View(new Memtable(metadata, memtableSorter), List.of(), List.of());
            truncatedAt(position);
            indexes = newIndexes(metadata);
        }
        // After the view: a read that reserves a row from now on reads the empty store.
        rowCache.clear();
        resizeCaches();
        for (SSTableReader r : gone) {
            r.markObsolete();
            retired.add(r);
            r.release();
        }
        return gone;
    }

    /** Gives up the view's references to every SSTable (at shutdown); reads must have stopped. */
    void closeSSTables() {
        List<SSTableReader> open;
        synchronized (viewLock) {
            View v = view;
            open = v.sstables();
            view = new View(v.memtable(), v.flushing(), List.of());
        }
        for (SSTableReader r : open) r.release();
    }

    // ---- writes (called by Keyspace under the row lock)

    /**
     * Turns a mutation's changes to this column family into one row delta, resolving slice
     * deletions against the row as it is now plus the mutation's other changes.
     *
     * @throws InvalidQueryException when a change does not fit this column family's type
     */
    Delta resolve(DecoratedKey key, List<Change> changes, int localDeletionTime) {
        DeltaBuilder delta = new DeltaBuilder(metadata, localDeletionTime, changes.size());
        List<Change.DeleteSlice> slices = new ArrayList<>();
        for (Change change : changes) {
            if (change instanceof Change.DeleteSlice slice) {
                PathShape.PARENT.check(metadata, slice.superColumn() != null, false);
                slices.add(slice);
            } else {
                delta.add(change);
            }
        }
        if (!slices.isEmpty()) {
            ColumnFamily stored = getRow(key);
            ColumnFamily current = stored == null ? delta.row() : ColumnFamily.merge(stored, delta.row());
            for (Change.DeleteSlice slice : slices) {
                for (Cell cell : SliceReader.read(current, slice.superColumn(), slice.range(), localDeletionTime)) {
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
        view.memtable().apply(key, delta.row(), delta.operations());
        // After the memtable: a read that reserved the key before this write cannot cache a row without it.
        if (rowCache.isEnabled()) rowCache.write(key, delta.row());
        StoreIndexes current = indexes;
        if (!current.isEmpty()) current.written(key);
    }

    // ---- reads

    /**
     * A view whose SSTables this reader holds a reference to; close gives them back. A view
     * whose SSTables were closed meanwhile (replaced and released) is passed over for the newer
     * one that replaced it.
     */
    private final class ReadView implements AutoCloseable {
        final View view;

        ReadView() {
            while (true) {
                View v = ColumnFamilyStore.this.view;
                if (acquireAll(v.sstables())) {
                    view = v;
                    return;
                }
            }
        }

        /** The memtables, newest first. */
        List<Memtable> memtables() {
            List<Memtable> all = new ArrayList<>(view.flushing().size() + 1);
            all.add(view.memtable());
            for (int i = view.flushing().size() - 1; i >= 0; i--) all.add(view.flushing().get(i).memtable());
            return all;
        }

        List<RowSource> all() {
            List<RowSource> all = new ArrayList<>(memtables());
            all.addAll(view.sstables());
            return all;
        }

        @Override
        public void close() {
            for (SSTableReader r : view.sstables()) r.release();
        }
    }

    private static boolean acquireAll(List<SSTableReader> sstables) {
        for (int i = 0; i < sstables.size(); i++) {
            if (!sstables.get(i).acquire()) {
                for (int j = 0; j < i; j++) sstables.get(j).release();
                return false;
            }
        }
        return true;
    }

    /** The row merged from every source, tombstones and all; null when no source holds it. */
    public ColumnFamily getRow(DecoratedKey key) {
        try {
            return read(key, RowRead.wholeRow(metadata));
        } catch (CorruptSSTableException e) {
            throw damage.report(e);
        }
    }

    /**
     * At least the part of the row a read needs: the cached row, or the whole row when the row cache admits it
     * ({@link RowCache#admits}, filling it), else the part {@link #read(DecoratedKey, RowRead)} merges.
     */
    private ColumnFamily readRow(DecoratedKey key, RowRead read) {
        RowCache cache = rowCache;
        if (cache.isEnabled()) {
            ColumnFamily cached = cache.get(key);
            if (cached != null) return cached;
            if (cache.admits(key)) {
                RowCache.Reservation reservation = cache.reserve(key);
                ColumnFamily row = getRow(key);
                cache.fill(key, reservation, row);
                return row;
            }
        }
        return read(key, read);
    }

    /**
     * Caches the row of {@code key} (a saved row cache being loaded) as a read would.
     *
     * @return false when no source holds the row, or the cache already held it
     */
    boolean cacheRow(DecoratedKey key) {
        RowCache cache = rowCache;
        if (!cache.isEnabled()) return false;
        RowCache.Reservation reservation = cache.reserve(key);
        ColumnFamily row = getRow(key);
        return row != null && cache.fill(key, reservation, row);
    }

    /**
     * PreloadRowCache: fills the room the row cache has left with rows in ring order, merged
     * from every source in one pass.
     *
     * @return rows cached
     */
    int preloadRowCache() {
        RowCache cache = rowCache;
        int cached = 0;
        try (ReadView v = new ReadView()) {
            Iterator<Map.Entry<DecoratedKey, ColumnFamily>> rows =
                    rowsFrom(v, DecoratedKey.startOf(partitioner.getMinimumToken()));
            while (cache.size() < cache.capacity() && rows.hasNext()) {
                Map.Entry<DecoratedKey, ColumnFamily> row = rows.next();
                if (cache.fill(row.getKey(), cache.reserve(row.getKey()), row.getValue())) cached++;
            }
        } catch (CorruptSSTableException e) {
            throw damage.report(e);
        }
        return cached;
    }

    /**
     * The part of the row {@code read} needs, merged from every source (see {@link RowRead}): memtables give their
     * whole row, SSTables whose key range and bloom filter admit the key what the read needs (for a selection, only
     * the column index blocks it meets). SSTables are asked from the newest timestamp down, so a read of named columns of a standard row stops
     * at the first one that cannot change the answer ({@link RowRead.Sources#settledAt}): a column rewritten since
     * the last flush is answered from the memtable alone, however many SSTables hold the row.
     */
    private ColumnFamily read(DecoratedKey key, RowRead read) {
        try (ReadView v = new ReadView()) {
            RowRead.Sources sources = read.sources();
            for (Memtable m : v.memtables()) sources.add(m.getRow(key));
            for (SSTableReader r : v.view.newestFirst()) {
                if (sources.settledAt(r.statistics().maxTimestamp())) break;
                if (r.mayContain(key)) counted(sources.add(r, key));
            }
            return sources.merged();
        }
    }

    /** Notes whether an SSTable whose bloom filter said yes really held the row. */
    private void counted(boolean held) {
        (held ? bloomHits : bloomFalsePositives).incrementAndGet();
    }

    /** Reads an SSTable's key range and bloom filter sent to it that found no row there. */
    public long bloomFilterFalsePositives() {
        return bloomFalsePositives.get();
    }

    /** False positives among all reads the bloom filters let through; 0 before any. */
    public double bloomFilterFalseRatio() {
        long fp = bloomFalsePositives.get();
        long all = fp + bloomHits.get();
        return all == 0 ? 0 : (double) fp / all;
    }

    /** get_slice: the live entries {@code selection} picks below {@code parent}. */
    public List<Cell> getSlice(DecoratedKey key, QueryPath parent, ColumnSelection selection) {
        PathShape.PARENT.check(metadata, parent);
        try {
            int now = nowSeconds();
            return SliceReader.read(readRow(key, RowRead.of(metadata, parent.superColumn(), selection, now)),
                    parent.superColumn(), selection, now);
        } catch (CorruptSSTableException e) {
            throw damage.report(e);
        }
    }

    /** get: the live column, subcolumn or super column (with its live subcolumns) at {@code path}. */
    public Optional<Cell> get(DecoratedKey key, QueryPath path) {
        PathShape.COLUMN.check(metadata, path);
        ColumnSelection wanted = ColumnSelection.names(path.superColumn() != null ? path.superColumn() : path.column());
        ColumnFamily row;
        int now = nowSeconds();
        try {
            row = readRow(key, RowRead.of(metadata, null, wanted, now));
        } catch (CorruptSSTableException e) {
            throw damage.report(e);
        }
        return row == null ? Optional.empty()
                : Optional.ofNullable(SliceReader.readOne(row, path.superColumn(), path.column(), now));
    }

    /** Seconds since the epoch by the store's clock: what reads judge expiring columns by. */
    private int nowSeconds() {
        return (int) Math.min(Integer.MAX_VALUE, clock.instant().getEpochSecond());
    }

    /** get_count: live columns, super columns with a live subcolumn, or live subcolumns. */
    public int getCount(DecoratedKey key, QueryPath parent) {
        return getSlice(key, parent, ColumnSelection.all()).size();
    }

    /**
     * get_range_slices: up to {@code count} rows of {@code range} in ring order, each with what
     * {@code selection} picks in it, each row's versions merged as a point read merges them ({@link RowRead}). Every key this column family holds anything for, live or
     * tombstone, is a row here, with an empty list when nothing is selected ("range ghosts").
     */
    public List<RowSlice> getRangeSlice(RowRange range, QueryPath parent, ColumnSelection selection, int count) {
        PathShape.PARENT.check(metadata, parent);
        if (count <= 0) throw new IllegalArgumentException("maxRows must be positive");
        List<RowSlice> result = new ArrayList<>();
        int now = nowSeconds();
        RowRead read = RowRead.of(metadata, parent.superColumn(), selection, now);
        try (ReadView v = new ReadView()) {
            for (Segment segment : segments(range)) {
                Iterator<Map.Entry<DecoratedKey, ColumnFamily>> rows = rowsFrom(v, segment.from());
                while (rows.hasNext() && result.size() < count) {
                    Map.Entry<DecoratedKey, ColumnFamily> row = rows.next();
                    if (segment.to() != null && row.getKey().compareTo(segment.to()) > 0) break;
                    RowRead.Sources sources = read.sources();
                    for (ColumnFamily version : MergingRowIterator.versions(row)) sources.add(version);
                    result.add(new RowSlice(row.getKey().key(),
                            SliceReader.read(sources.merged(), parent.superColumn(), selection, now)));
                }
                if (result.size() >= count) break;
            }
        } catch (CorruptSSTableException e) {
            throw damage.report(e);
        }
        return result;
    }

    /**
     * get_indexed_slices and row_filter: up to {@code count} rows of {@code range} in ring order for which every
     * expression of {@code query} holds, each with what {@code selection} picks ({@link IndexedRead}).
     */
    public List<RowSlice> getIndexedSlice(IndexQuery query, RowRange range, QueryPath parent, ColumnSelection selection,
                                          int count) {
        PathShape.PARENT.check(metadata, parent);
        if (count <= 0) throw new IllegalArgumentException("maxRows must be positive");
        StoreIndexes current = indexes;
        IndexedRead read = new IndexedRead(metadata, current, new IndexedRead.Rows() {
            @Override
            public List<Cell> slice(DecoratedKey key, ColumnSelection wanted) {
                return getSlice(key, parent, wanted);
            }

            @Override
            public ColumnFamily row(DecoratedKey key) {
                return getRow(key);
            }

            @Override
            public int nowSeconds() {
                return ColumnFamilyStore.this.nowSeconds();
            }

            @Override
            public List<DecoratedKey> keys(DecoratedKey from, boolean inclusive, int limit) {
                return keysFrom(from, inclusive, limit);
            }
        }, query);
        if (read.usesIndex()) {
            current.ensureBuilt(each -> {
                DecoratedKey from = DecoratedKey.startOf(partitioner.getMinimumToken());
                boolean inclusive = true;
                for (List<DecoratedKey> some; !(some = keysFrom(from, inclusive, 1024)).isEmpty(); inclusive = false) {
                    some.forEach(each);
                    from = some.get(some.size() - 1);
                }
            });
        }
        List<IndexedRead.Stretch> stretches = new ArrayList<>();
        for (Segment segment : segments(range)) stretches.add(new IndexedRead.Stretch(segment.from(), segment.to()));
        return read.read(stretches, selection, count);
    }

    /** Up to {@code limit} keys this store holds anything for, in ring order, from {@code from} on. */
    private List<DecoratedKey> keysFrom(DecoratedKey from, boolean inclusive, int limit) {
        List<DecoratedKey> keys = new ArrayList<>();
        try (ReadView v = new ReadView()) {
            Iterator<Map.Entry<DecoratedKey, ColumnFamily>> rows = rowsFrom(v, from);
            while (rows.hasNext() && keys.size() < limit) {
                DecoratedKey key = rows.next().getKey();
                if (inclusive || !key.equals(from)) keys.add(key);
            }
        } catch (CorruptSSTableException e) {
            throw damage.report(e);
        }
        return keys;
    }

    /** Every {@code interval}-th key of each source, in no particular order (see describe_splits). */
    public List<DecoratedKey> sampleKeys(int interval) {
        List<DecoratedKey> samples = new ArrayList<>();
        try (ReadView v = new ReadView()) {
            for (RowSource source : v.all()) samples.addAll(source.sampleKeys(interval));
        } catch (CorruptSSTableException e) {
            throw damage.report(e);
        }
        return samples;
    }

    private static Iterator<Map.Entry<DecoratedKey, ColumnFamily>> rowsFrom(ReadView v, DecoratedKey from) {
        List<Iterator<Map.Entry<DecoratedKey, ColumnFamily>>> iterators = new ArrayList<>();
        for (RowSource source : v.all()) iterators.add(source.rowsFrom(from));
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
}
