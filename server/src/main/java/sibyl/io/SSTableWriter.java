package sibyl.io;

import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import sibyl.db.CFMetaData;
import sibyl.db.Cell;
import sibyl.db.Column;
import sibyl.db.ColumnFamily;
import sibyl.db.LogPosition;
import sibyl.db.SuperColumn;
import sibyl.dht.DecoratedKey;
import sibyl.dht.Partitioner;
import sibyl.fs.Directories;

/**
 * Writes one SSTable from rows handed over in ring order. Every component is written under its
 * temporary name; {@link #finish} fsyncs them, renames them into place (Statistics last, so its
 * presence marks a complete SSTable) and fsyncs the directory. {@link #close} without a finish
 * deletes what was written, so try-with-resources cleans up after any failure.
 *
 * <p>Not thread-safe: one thread appends.
 */
public final class SSTableWriter implements AutoCloseable {
    /** The false-positive rate bloom filters are sized for. */
    public static final double BLOOM_FILTER_FP_RATE = 0.01;
    private static final int BUFFER_SIZE = 64 * 1024;

    private final Descriptor descriptor;
    private final CFMetaData metadata;
    private final Partitioner partitioner;
    private final RowSerializer rows;
    private final BloomFilter filter;
    private final GrowableBuffer indexScratch = new GrowableBuffer(128);
    private final FileChannel dataChannel;
    private final FileChannel indexChannel;
    private final OutputStream data;
    private final DataOutputStream index;
    private final IndexSummaryFile.Sampler sampler;

    private long dataLength;
    private long indexLength;
    private long rowCount;
    private DecoratedKey firstKey;
    private DecoratedKey lastKey;
    private IndexEntry lastEntry;
    private long minTimestamp = Long.MAX_VALUE;
    private long maxTimestamp = Long.MIN_VALUE;
    private boolean finished;
    private boolean closed;

    private SSTableWriter(Descriptor descriptor, CFMetaData metadata, Partitioner partitioner, int columnIndexSize,
                          long expectedKeys, FileChannel dataChannel, FileChannel indexChannel,
                          IndexSummaryFile.Sampler sampler) {
        this.sampler = sampler;
        this.descriptor = descriptor;
        this.metadata = metadata;
        this.partitioner = partitioner;
        this.rows = new RowSerializer(columnIndexSize);
        this.filter = BloomFilter.create(expectedKeys, BLOOM_FILTER_FP_RATE);
        this.dataChannel = dataChannel;
        this.indexChannel = indexChannel;
        this.data = new BufferedOutputStream(Channels.newOutputStream(dataChannel), BUFFER_SIZE);
        this.index = new DataOutputStream(new BufferedOutputStream(Channels.newOutputStream(indexChannel), BUFFER_SIZE));
    }

    /**
     * Starts writing an SSTable; its directory is created if needed.
     *
     * @param columnIndexSize     a column index entry per this many bytes of a row's cells
     *                            (ColumnIndexSizeInKB × 1024)
     * @param expectedKeys        rows about to be written, to size the bloom filter; more work
     *                            but raise the false-positive rate
     * @throws IOException when the files cannot be created, or already exist
     */
    public static SSTableWriter create(Descriptor descriptor, CFMetaData metadata, Partitioner partitioner,
                                       int columnIndexSize, long expectedKeys) throws IOException {
        return create(descriptor, metadata, partitioner, columnIndexSize, IndexSummaryFile.DEFAULT_INTERVAL, expectedKeys);
    }

    /**
     * As {@link #create(Descriptor, CFMetaData, Partitioner, int, long)}, writing the index
     * summary every {@code indexInterval} keys (IndexInterval): readers configured alike, or with
     * a multiple of it, open the SSTable from the summary without reading the index.
     */
    public static SSTableWriter create(Descriptor descriptor, CFMetaData metadata, Partitioner partitioner,
                                       int columnIndexSize, int indexInterval, long expectedKeys) throws IOException {
        IndexSummaryFile.Sampler sampler = new IndexSummaryFile.Sampler(indexInterval);
        // Durably: the SSTable's directory entry must survive a power cut as its renames do.
        Directories.createDurably(descriptor.directory());
        for (Component c : Component.values()) {
            if (Files.exists(descriptor.path(c))) throw new IOException("sstable " + descriptor.path(c) + " exists already");
        }
        FileChannel dataChannel = open(descriptor.temporaryPath(Component.DATA));
        try {
            return new SSTableWriter(descriptor, metadata, partitioner, columnIndexSize, expectedKeys,
                    dataChannel, open(descriptor.temporaryPath(Component.INDEX)), sampler);
        } catch (IOException | RuntimeException e) {
            dataChannel.close();
            Files.deleteIfExists(descriptor.temporaryPath(Component.DATA));
            throw e;
        }
    }

    private static FileChannel open(Path path) throws IOException {
        return FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    }

    public Descriptor descriptor() {
        return descriptor;
    }

    /**
     * Appends a row; keys must come in strictly increasing ring order.
     *
     * @param row the stored version, tombstones included
     */
    public void append(DecoratedKey key, ColumnFamily row) throws IOException {
        checkNext(key);
        if (!row.metadata().sameRowsAs(metadata)) {
            throw new IllegalArgumentException("a row of " + row.metadata().name() + " written to an sstable of " + metadata.name());
        }
        int length = rows.serialize(key.key(), row);
        rows.writeTo(data);
        noteTimestamps(row);
        appended(key, length);
    }

    /**
     * Appends a row as its bytes: what {@link #append(DecoratedKey, ColumnFamily)} writes for it, taken from an SSTable
     * of this column family in Sibyl's format whose row of {@code key} the writer would encode to exactly these bytes
     * ({@link RowCopy} decides). Keys must come in strictly increasing ring order.
     *
     * @param row          holds the row's {@code length} bytes from index 0
     * @param minTimestamp the smallest of its cells' timestamps, as the Statistics file records them
     * @param maxTimestamp the largest
     */
    void appendStored(DecoratedKey key, byte[] row, int length, long minTimestamp, long maxTimestamp) throws IOException {
        checkNext(key);
        data.write(row, 0, length);
        note(minTimestamp);
        note(maxTimestamp);
        appended(key, length);
    }

    private void checkNext(DecoratedKey key) {
        if (finished || closed) throw new IllegalStateException("sstable " + descriptor + " is finished");
        if (key.isMarker()) throw new IllegalArgumentException("not a row key: " + key);
        if (lastKey != null && key.compareTo(lastKey) <= 0) {
            throw new IllegalArgumentException("rows out of ring order: " + key + " after " + lastKey + " in " + descriptor);
        }
    }

    /** Records a row of {@code length} bytes just written to the data file: index entry, summary, filter, counts. */
    private void appended(DecoratedKey key, int length) throws IOException {
        sampler.row(key.key(), indexLength);
        lastEntry = new IndexEntry(key.key(), dataLength, length, indexLength);
        indexLength += IndexEntry.write(index, key.key(), dataLength, length, indexScratch);
        dataLength += length;
        filter.add(key.key());
        if (firstKey == null) firstKey = key;
        lastKey = key;
        rowCount++;
    }

    public long rowCount() {
        return rowCount;
    }

    /** The index entry of the row appended last (a compaction carrying key cache entries over); null before any. */
    IndexEntry lastEntry() {
        return lastEntry;
    }

    /** Bytes of the data file so far. */
    public long dataLength() {
        return dataLength;
    }

    /**
     * Completes the SSTable: writes filter, index summary and statistics, fsyncs every component, renames them
     * into place and fsyncs the directory.
     *
     * @param logPosition what the flush code wants recorded (LogPosition.NONE otherwise)
     * @return the descriptor of the complete SSTable
     * @throws IllegalStateException when no row was appended: an SSTable is never empty
     */
    public Descriptor finish(LogPosition logPosition) throws IOException {
        return finish(logPosition, List.of());
    }

    /**
     * As {@link #finish(LogPosition)} for an SSTable that takes the place of Sibyl's SSTables {@code replaces}
     * (of this column family): once this one's Statistics is renamed into place, a start drops them
     * if they are still on disk, so the rows they share are never loaded twice (a counter's increments would
     * count twice).
     */
    public Descriptor finish(LogPosition logPosition, List<SSTableMetadata.Replaced> replaces) throws IOException {
        if (finished || closed) throw new IllegalStateException("sstable " + descriptor + " is finished");
        if (rowCount == 0) throw new IllegalStateException("refusing to write an empty sstable " + descriptor);
        data.flush();
        index.flush();
        dataChannel.force(true);
        indexChannel.force(true);
        dataChannel.close();
        indexChannel.close();
        ChecksummedFile.write(descriptor.temporaryPath(Component.FILTER), filter::writeTo);
        sampler.writeTo(descriptor.temporaryPath(Component.SUMMARY), indexLength);
        SSTableMetadata stats = new SSTableMetadata(SSTableMetadata.CURRENT_VERSION, descriptor.generation(),
                partitioner.className(), rowCount, firstKey.key(), lastKey.key(), minTimestamp, maxTimestamp,
                logPosition, dataLength, indexLength, replaces);
        ChecksummedFile.write(descriptor.temporaryPath(Component.STATISTICS), stats::writeTo);
        for (Component c : Component.values()) {
            Files.move(descriptor.temporaryPath(c), descriptor.path(c), StandardCopyOption.ATOMIC_MOVE);
        }
        syncDirectory(descriptor.directory());
        finished = true;
        return descriptor;
    }

    /**
     * Deletes what was written unless {@link #finish} succeeded: the temporary files, and any
     * component a finish that failed half-way (a full disk) had already renamed into place.
     * {@link #create} refused to start over existing final names, so those are all this
     * writer's. Idempotent.
     */
    @Override
    public void close() throws IOException {
        if (closed) return;
        closed = true;
        if (finished) return;
        dataChannel.close();
        indexChannel.close();
        for (Component c : Component.values()) Files.deleteIfExists(descriptor.temporaryPath(c));
        SSTableDirectory.delete(descriptor);
    }

    private void noteTimestamps(ColumnFamily row) {
        if (row.isMarkedForDelete()) note(row.deletion().markedForDeleteAt());
        for (Cell cell : row.cells()) {
            if (cell instanceof Column c) {
                note(c.timestamp());
            } else {
                SuperColumn sc = (SuperColumn) cell;
                if (sc.isMarkedForDelete()) note(sc.deletion().markedForDeleteAt());
                for (Column c : sc.subcolumns()) note(c.timestamp());
            }
        }
    }

    private void note(long timestamp) {
        minTimestamp = Math.min(minTimestamp, timestamp);
        maxTimestamp = Math.max(maxTimestamp, timestamp);
    }

    /** Makes the renames durable: on Linux a directory is fsynced through a read-only channel. */
    static void syncDirectory(Path directory) throws IOException {
        try (FileChannel dir = FileChannel.open(directory, StandardOpenOption.READ)) {
            dir.force(true);
        } catch (IOException e) {
            // Some platforms cannot open directories; the renames are then as durable as they get.
            if (!System.getProperty("os.name", "").toLowerCase().contains("win")) throw e;
        }
    }
}
