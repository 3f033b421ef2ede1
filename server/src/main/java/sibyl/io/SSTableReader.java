package sibyl.io;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sibyl.db.CFMetaData;
import sibyl.db.ColumnFamily;
import sibyl.db.ColumnSelection;
import sibyl.db.RowSource;
import sibyl.dht.DecoratedKey;
import sibyl.dht.Partitioner;

/**
 * An open SSTable: statistics, bloom filter and index sample in memory, the data and index files
 * read with positional reads, so any number of threads read at once. One type serves both formats
 * ({@link SSTableFormat}): Sibyl's own, and Cassandra 0.6's, read in place ({@link Cassandra06Table}
 * opens those); what differs between them is how an index entry and a row lie on disk, which an
 * {@link IndexFormat} and a {@link RowFormat} read.
 *
 * <p>Lifetime: the reader starts with one reference, owned by whoever opened it. Readers that
 * may outlive a change of the set of SSTables ({@code rowsFrom} iterations, reads racing a
 * compaction) take their own with {@link #acquire} and give it back with {@link #release}. Once
 * the last reference is released the files are closed, and deleted if {@link #markObsolete} was
 * called. Acquiring succeeds while any reference is held, obsolete or not; so a store first
 * takes a replaced SSTable out of the set new readers see, then releases its own reference, and
 * a reader whose acquire fails reads from the current set instead.
 */
public final class SSTableReader implements RowSource {
    private static final Logger log = LoggerFactory.getLogger(SSTableReader.class);
    /** Per thread, for {@link #readStretch}; a stretch longer than this gets an array of its own each time. */
    private static final ThreadLocal<byte[]> STRETCH_SCRATCH = ThreadLocal.withInitial(() -> new byte[8192]);
    private static final int MAX_SCRATCH_BYTES = 1 << 20;

    private final Descriptor descriptor;
    private final CFMetaData metadata;
    private final Partitioner partitioner;
    private final SSTableMetadata stats;
    private final BloomFilter filter;
    private final IndexSummary summary;
    private final PositionalFile data;
    private final PositionalFile index;
    private final DecoratedKey firstKey;
    private final DecoratedKey lastKey;
    private final KeyCache keyCache;
    private final IndexFormat indexFormat;
    private final RowFile rows;
    private final AtomicInteger references = new AtomicInteger(1);
    private volatile boolean obsolete;

    SSTableReader(Descriptor descriptor, CFMetaData metadata, Partitioner partitioner, SSTableMetadata stats,
                  BloomFilter filter, IndexSummary summary, PositionalFile data, PositionalFile index,
                  KeyCache keyCache, IndexFormat indexFormat, RowFormat rowFormat) {
        this.descriptor = descriptor;
        this.metadata = metadata;
        this.partitioner = partitioner;
        this.stats = stats;
        this.filter = filter;
        this.summary = summary;
        this.data = data;
        this.index = index;
        this.firstKey = partitioner.decorateKey(stats.firstKey());
        this.lastKey = partitioner.decorateKey(stats.lastKey());
        this.keyCache = keyCache;
        this.indexFormat = indexFormat;
        this.rows = new RowFile(data, rowFormat, metadata);
    }

    /** As {@link #open(Descriptor, CFMetaData, Partitioner, int, KeyCache)}, with no key cache. */
    public static SSTableReader open(Descriptor descriptor, CFMetaData metadata, Partitioner partitioner,
                                     int indexInterval) throws IOException {
        return open(descriptor, metadata, partitioner, indexInterval, new KeyCache(0));
    }

    /**
     * Opens a complete SSTable: checks statistics and filter, and takes the sample of every
     * {@code indexInterval}-th key from the Summary component, or, when that is missing or
     * unusable, from one pass over the index. A Cassandra 0.6 SSTable is opened as
     * {@link Cassandra06Table#open} says.
     *
     * @param keyCache the column family's key cache, which point reads of this SSTable use and fill
     * @throws CorruptSSTableException when a component is damaged, truncated or of another
     *                                 partitioner or format version
     */
    public static SSTableReader open(Descriptor descriptor, CFMetaData metadata, Partitioner partitioner,
                                     int indexInterval, KeyCache keyCache) throws IOException {
        return open(descriptor, metadata, partitioner, indexInterval, keyCache, FileAccess.STANDARD);
    }

    /** As {@link #open(Descriptor, CFMetaData, Partitioner, int, KeyCache)}, reading the files as {@code access} says. */
    public static SSTableReader open(Descriptor descriptor, CFMetaData metadata, Partitioner partitioner,
                                     int indexInterval, KeyCache keyCache, FileAccess access) throws IOException {
        if (indexInterval <= 0) throw new IllegalArgumentException("index interval must be positive: " + indexInterval);
        if (descriptor.format() == SSTableFormat.CASSANDRA_06) {
            return Cassandra06Table.open(descriptor, metadata, partitioner, indexInterval, keyCache, access);
        }
        Path statsPath = descriptor.path(Component.STATISTICS);
        SSTableMetadata stats = ChecksummedFile.read(statsPath, (in, length) -> SSTableMetadata.readFrom(in));
        if (!stats.partitioner().equals(partitioner.className())) {
            throw new CorruptSSTableException(statsPath, 0, "written under partitioner " + stats.partitioner()
                    + ", but the node runs " + partitioner.className());
        }
        BloomFilter filter = ChecksummedFile.read(descriptor.path(Component.FILTER), BloomFilter::readFrom);
        PositionalFile data = new PositionalFile(descriptor.path(Component.DATA), access.mapData(),
                PositionalFile.DEFAULT_CHUNK_BITS);
        PositionalFile index = null;
        try {
            index = new PositionalFile(descriptor.path(Component.INDEX), access.mapIndex(),
                    PositionalFile.DEFAULT_CHUNK_BITS);
            checkLength(data, stats.dataLength());
            checkLength(index, stats.indexLength());
            IndexSummary summary = IndexSummaryFile.read(descriptor.path(Component.SUMMARY), partitioner, indexInterval,
                    stats).orElse(null);
            if (summary == null) summary = summarize(index, partitioner, indexInterval, stats.rowCount());
            return new SSTableReader(descriptor, metadata, partitioner, stats, filter, summary, data, index, keyCache,
                    SibylIndexFormat.INSTANCE, SibylRowFormat.INSTANCE);
        } catch (IOException | RuntimeException e) {
            data.close();
            if (index != null) index.close();
            throw e;
        }
    }

    /**
     * Opens an SSTable this node has just written (a flush or compaction output). If it cannot be
     * opened, its files are deleted before the failure is rethrown: nothing would ever read
     * them, and a restart would otherwise load them beside the data they copy.
     */
    public static SSTableReader openWritten(Descriptor descriptor, CFMetaData metadata, Partitioner partitioner,
                                            int indexInterval, KeyCache keyCache, FileAccess access)
            throws IOException {
        try {
            return open(descriptor, metadata, partitioner, indexInterval, keyCache, access);
        } catch (IOException | RuntimeException e) {
            try {
                SSTableDirectory.delete(descriptor);
            } catch (IOException d) {
                e.addSuppressed(d);
            }
            throw e;
        }
    }

    private static void checkLength(PositionalFile file, long expected) {
        if (file.length() != expected) {
            throw new CorruptSSTableException(file.path(), Math.min(file.length(), expected), "file is " + file.length()
                    + " bytes long, the statistics say " + expected);
        }
    }

    private static IndexSummary summarize(PositionalFile index, Partitioner partitioner, int interval, long rowCount)
            throws IOException {
        List<DecoratedKey> keys = new ArrayList<>();
        List<Long> positions = new ArrayList<>();
        IndexEntry.Reader entries = IndexEntry.Reader.scan(index, 0);
        long count = 0;
        DecoratedKey previous = null;
        for (IndexEntry e = entries.next(); e != null; e = entries.next()) {
            if (count++ % interval == 0) {
                DecoratedKey key = partitioner.decorateKey(e.key());
                if (previous != null && key.compareTo(previous) <= 0) {
                    throw new CorruptSSTableException(index.path(), e.position(), "key " + e.key() + " out of ring order");
                }
                keys.add(key);
                positions.add(e.position());
                previous = key;
            }
        }
        if (count != rowCount) {
            throw new CorruptSSTableException(index.path(), index.length(), count + " index entries for " + rowCount + " rows");
        }
        long[] p = new long[positions.size()];
        for (int i = 0; i < p.length; i++) p[i] = positions.get(i);
        return new IndexSummary(keys, p, index.length(), interval);
    }

    public Descriptor descriptor() {
        return descriptor;
    }

    /** Sibyl's format, or Cassandra 0.6's for a table read in place until compaction rewrites it. */
    public SSTableFormat format() {
        return descriptor.format();
    }

    public CFMetaData metadata() {
        return metadata;
    }

    public SSTableMetadata statistics() {
        return stats;
    }

    /** How an SSTable that takes this one's place lists it in its Statistics. */
    SSTableMetadata.Replaced asReplaced() {
        return stats.asReplaced(descriptor.generation());
    }

    public DecoratedKey firstKey() {
        return firstKey;
    }

    public DecoratedKey lastKey() {
        return lastKey;
    }

    /** Bytes of the data file, the measure size-tiered compaction groups by. */
    public long dataLength() {
        return data.length();
    }

    /** Bytes read from the data file since opening, by every kind of read. */
    public long dataBytesRead() {
        return data.bytesRead();
    }

    /** Bytes read from the index file since opening: what a point read of a key-cached row does not add to. */
    public long indexBytesRead() {
        return index.bytesRead();
    }

    /** False only when this SSTable surely holds nothing for {@code key}: key range, then bloom filter. */
    public boolean mayContain(DecoratedKey key) {
        return !key.isMarker() && key.compareTo(firstKey) >= 0 && key.compareTo(lastKey) <= 0
                && filter.mightContain(key.key());
    }

    // ---- reads

    @Override
    public ColumnFamily getRow(DecoratedKey key) {
        try {
            IndexEntry entry = find(key);
            return entry == null ? null : rows.decodeRow(data.read(entry.dataOffset(), entry.rowLength()), entry);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + descriptor, e);
        }
    }

    /**
     * The part of a row a selection needs, reading only the blocks of the column index whose
     * name range meets it: the row tombstone plus every stored cell (tombstones and shadowed
     * versions included) that the selection names or whose name lies within its range; null
     * when the SSTable holds no row for the key.
     *
     * <p>A range's count is not applied: which cells are live is only known once every source's
     * version is merged, so the caller applies it afterwards. In a super column family the
     * selection picks super columns, whole.
     */
    public ColumnFamily readSlice(DecoratedKey key, ColumnSelection selection) {
        try {
            IndexEntry entry = find(key);
            return entry == null ? null : new SliceRead(rows, entry, selection).read();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + descriptor, e);
        }
    }

    /**
     * The stored cells of a row from {@code start} on (an empty start = the first, or the last
     * when reversed), read block by block as the cursor advances; null when the SSTable holds no
     * row for the key. For slices with a count: see {@link CellCursor}.
     */
    public CellCursor cellsFrom(DecoratedKey key, byte[] start, boolean reversed) {
        try {
            IndexEntry entry = find(key);
            if (entry == null) return null;
            return new CellCursor(rows, entry, rows.readStart(entry), start, reversed);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + descriptor, e);
        }
    }

    /** Rows from {@code from} on, in ring order; hold a reference while iterating (see class comment). */
    @Override
    public Iterator<Map.Entry<DecoratedKey, ColumnFamily>> rowsFrom(DecoratedKey from) {
        return new SSTableScanner(descriptor, indexEntries(summary.stretchStart(summary.floor(from))), index.path(), rows,
                partitioner::decorateKey, from);
    }

    /**
     * Every row from the first, each a {@link SSTableScanner.StoredRow} decoded only when its value is asked for:
     * compaction's read, which writes some rows as they are stored. Hold a reference while iterating.
     */
    Iterator<Map.Entry<DecoratedKey, ColumnFamily>> storedRows() {
        DecoratedKey from = DecoratedKey.startOf(partitioner.getMinimumToken());
        return new SSTableScanner(descriptor, indexEntries(summary.stretchStart(summary.floor(from))), index.path(), rows,
                partitioner::decorateKey, from, true);
    }

    /**
     * Every {@code interval}-th key from the first: straight from the in-memory sample when the
     * interval is a multiple of the index interval, else by one pass over the index file.
     */
    @Override
    public List<DecoratedKey> sampleKeys(int interval) {
        if (interval <= 0) throw new IllegalArgumentException("interval must be positive: " + interval);
        List<DecoratedKey> samples = new ArrayList<>();
        if (interval % summary.interval() == 0) {
            List<DecoratedKey> all = summary.keys();
            for (int i = 0; i < all.size(); i += interval / summary.interval()) samples.add(all.get(i));
            return samples;
        }
        try {
            IndexEntries entries = indexEntries(0);
            long i = 0;
            for (IndexEntry e = entries.next(); e != null; e = entries.next()) {
                if (i++ % interval == 0) samples.add(partitioner.decorateKey(e.key()));
            }
            return samples;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + index.path(), e);
        }
    }

    /**
     * The index entry of {@code key}: range and bloom filter first, then the key cache, then one
     * stretch of the index, whose entry is cached.
     */
    private IndexEntry find(DecoratedKey key) throws IOException {
        if (!mayContain(key)) return null;
        IndexEntry cached = keyCache.get(descriptor.generation(), key);
        if (cached != null) return cached;
        int sample = summary.floor(key);
        if (sample < 0) return null;
        byte[] stretch = readStretch(sample);
        IndexEntry e = findIn(stretch, stretchLength(sample), sample, key);
        if (e != null) keyCache.put(descriptor.generation(), key, e);
        return e;
    }

    /**
     * Caches the index entries of those of {@code keys} this SSTable holds (a saved key cache
     * being loaded), reading each stretch of the index they fall in once.
     *
     * @param keys in ring order
     * @return the keys found and cached
     */
    public int cacheKeys(List<DecoratedKey> keys) {
        int found = 0;
        int stretchSample = -1;
        byte[] stretch = null;
        try {
            for (DecoratedKey key : keys) {
                if (!mayContain(key)) continue;
                int sample = summary.floor(key);
                if (sample < 0) continue;
                if (stretch == null || sample != stretchSample) {
                    stretchSample = sample;
                    stretch = readStretch(sample);
                }
                IndexEntry e = findIn(stretch, stretchLength(sample), sample, key);
                if (e != null) {
                    keyCache.put(descriptor.generation(), key, e);
                    found++;
                }
            }
            return found;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + index.path(), e);
        }
    }

    /**
     * The stretch of index entries from sample {@code sample} to the next, in the first
     * {@link #stretchLength} bytes of this thread's scratch array, valid until the thread reads
     * another stretch. A lookup keeps nothing of the stretch but the entry it decodes, and with
     * 0.6's small key caches most point reads of a large column family read one (a few KB) per
     * SSTable: a new array each time was half of the bytes such a read allocated.
     */
    private byte[] readStretch(int sample) throws IOException {
        int length = stretchLength(sample);
        byte[] scratch = STRETCH_SCRATCH.get();
        if (scratch.length < length) {
            scratch = new byte[length];
            if (length <= MAX_SCRATCH_BYTES) STRETCH_SCRATCH.set(scratch);
        }
        index.read(summary.stretchStart(sample), scratch, 0, length);
        return scratch;
    }

    private int stretchLength(int sample) {
        return (int) (summary.stretchEnd(sample) - summary.stretchStart(sample));
    }

    /**
     * The entry of {@code key} in the first {@code length} bytes of {@code stretch}, the stretch
     * of index entries from sample {@code sample} on, checked to lie within the data file; null
     * when absent.
     */
    private IndexEntry findIn(byte[] stretch, int length, int sample, DecoratedKey key) {
        IndexEntry e = indexFormat.find(stretch, length, summary.stretchStart(sample), summary.stretchDataEnd(sample), key,
                index.path());
        if (e != null && e.dataOffset() + e.rowLength() > data.length()) {
            throw new CorruptSSTableException(index.path(), e.position(), "row of " + e.rowLength()
                    + " bytes at " + e.dataOffset() + " runs past the end of the data file");
        }
        return e;
    }

    /** Whether the key cache holds this SSTable's entry of {@code key}. */
    boolean isKeyCached(DecoratedKey key) {
        return keyCache.contains(descriptor.generation(), key);
    }

    /** The column family's key cache this SSTable's reads use. */
    KeyCache keyCache() {
        return keyCache;
    }

    PositionalFile dataFile() {
        return data;
    }

    /** The data file read as rows of this SSTable's format. */
    RowFile rows() {
        return rows;
    }

    /** The index entries from the one at {@code start} on, read sequentially. */
    IndexEntries indexEntries(long start) {
        return indexFormat.scan(index, start);
    }

    PositionalFile indexFile() {
        return index;
    }

    // ---- lifetime

    /** Takes a reference; false when the reader is already closed (then read elsewhere). */
    public boolean acquire() {
        while (true) {
            int n = references.get();
            if (n <= 0) return false;
            if (references.compareAndSet(n, n + 1)) return true;
        }
    }

    /** Gives a reference back; the last one closes the files, and deletes them if obsolete. */
    public void release() {
        int n = references.decrementAndGet();
        if (n < 0) throw new IllegalStateException("sstable " + descriptor + " released more often than acquired");
        if (n == 0) closeFiles();
    }

    /**
     * Marks the SSTable as replaced (by a compaction): its files are deleted when the last
     * reference is released. The owner still releases its own reference.
     */
    public void markObsolete() {
        obsolete = true;
    }

    public boolean isObsolete() {
        return obsolete;
    }

    /** References held now (for tests and diagnostics). */
    public int referenceCount() {
        return references.get();
    }

    private void closeFiles() {
        // No read can reach this SSTable any more: its key cache entries are dead weight.
        keyCache.invalidate(descriptor.generation());
        try {
            data.close();
            index.close();
        } catch (IOException e) {
            log.warn("Closing {} failed", descriptor, e);
        }
        if (!obsolete) return;
        try {
            SSTableDirectory.delete(descriptor);
            log.debug("Deleted obsolete sstable {}", descriptor);
        } catch (IOException e) {
            log.warn("Cannot delete obsolete sstable {}", descriptor, e);
        }
    }

    @Override
    public String toString() {
        return "SSTableReader(" + descriptor + ")";
    }
}
