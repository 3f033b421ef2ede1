package sibyl.io;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sibyl.db.CFMetaData;
import sibyl.db.LogPosition;
import sibyl.dht.DecoratedKey;
import sibyl.dht.Partitioner;

/**
 * Opens a Cassandra 0.6 SSTable in place. 0.6 kept no statistics and no checksums, so opening walks the whole
 * index once and checks everything a later read relies on: each disk key decodes and carries its key's own
 * token (RandomPartitioner), keys are in this node's ring order, row positions start at 0 and leave each row
 * at least its smallest length, and the first and last rows begin with their index entries' keys. Along the
 * way it keeps every IndexInterval-th key with its index and data positions (the in-memory sample; the index
 * itself is not held), and a second pass fills a bloom filter of the keys: 0.6's own Filter file is another
 * serialization of another hash, and is not read.
 *
 * <p>The statistics are made up from what the walk saw: row count, first and last key, file lengths. Column
 * timestamps are not known without reading every row, so they are the widest possible, which keeps the read
 * path's newest-first shortcut from ever passing over the table; there is no commit log position
 * ({@link LogPosition#NONE}).
 */
final class Cassandra06Table {
    private static final Logger log = LoggerFactory.getLogger(Cassandra06Table.class);

    private Cassandra06Table() {
    }

    /**
     * @throws CorruptSSTableException naming the file and offset when anything does not check out, including
     *                                 keys of another partitioner or out of this node's order
     */
    static SSTableReader open(Descriptor descriptor, CFMetaData metadata, Partitioner partitioner, int indexInterval,
                              KeyCache keyCache, FileAccess access) throws IOException {
        PositionalFile data = new PositionalFile(descriptor.path(Component.DATA), access.mapData(),
                PositionalFile.DEFAULT_CHUNK_BITS);
        PositionalFile index = null;
        try {
            index = new PositionalFile(descriptor.path(Component.INDEX), access.mapIndex(),
                    PositionalFile.DEFAULT_CHUNK_BITS);
            Cassandra06Keys keys = new Cassandra06Keys(partitioner);
            Walk walk = walk(index, data.length(), keys, indexInterval);
            BloomFilter filter = filter(index, keys, walk.rowCount);
            IndexSummary summary = new IndexSummary(walk.sampleKeys, walk.samplePositions(), index.length(), indexInterval,
                    walk.sampleDataPositions(), data.length());
            SSTableMetadata stats = new SSTableMetadata(SSTableMetadata.CASSANDRA_06_VERSION, descriptor.generation(),
                    partitioner.className(), walk.rowCount, walk.first.key(), walk.last.key(), Long.MIN_VALUE,
                    Long.MAX_VALUE, LogPosition.NONE, data.length(), index.length());
            SSTableReader reader = new SSTableReader(descriptor, metadata, partitioner, stats, filter, summary, data,
                    index, keyCache, new Cassandra06Index(keys, data.length()), new Cassandra06RowFormat(keys));
            // The rows at both ends begin with their entries' keys: a data file of another table, or one cut short,
            // shows here rather than at the first read of an unlucky key.
            reader.rows().readStart(walk.firstEntry);
            reader.rows().readStart(walk.lastEntry);
            log.debug("Opened Cassandra 0.6 sstable {}: {} rows", descriptor, walk.rowCount);
            return reader;
        } catch (IOException | RuntimeException e) {
            data.close();
            if (index != null) index.close();
            throw e;
        }
    }

    /** What the walk over the index found. */
    private static final class Walk {
        final List<DecoratedKey> sampleKeys = new ArrayList<>();
        final List<Long> samplePositions = new ArrayList<>();
        final List<Long> sampleDataPositions = new ArrayList<>();
        long rowCount;
        DecoratedKey first;
        DecoratedKey last;
        IndexEntry firstEntry;
        IndexEntry lastEntry;

        long[] samplePositions() {
            return toArray(samplePositions);
        }

        long[] sampleDataPositions() {
            return toArray(sampleDataPositions);
        }

        private static long[] toArray(List<Long> values) {
            long[] a = new long[values.size()];
            for (int i = 0; i < a.length; i++) a[i] = values.get(i);
            return a;
        }
    }

    private static Walk walk(PositionalFile index, long dataLength, Cassandra06Keys keys, int interval)
            throws IOException {
        Path file = index.path();
        Walk walk = new Walk();
        Cassandra06Index.RawReader entries = new Cassandra06Index.RawReader(index, 0);
        Cassandra06Index.Raw previous = null;
        for (Cassandra06Index.Raw e = entries.next(); e != null; e = entries.next()) {
            if (previous == null) {
                if (e.dataPosition() != 0) {
                    throw new CorruptSSTableException(file, 0, "the first entry puts its row at data position "
                            + e.dataPosition() + ", not 0");
                }
                keys.checkPartitioner(e.diskKey(), file);
            } else {
                IndexEntry entry = rowOf(walk.last, previous, e.dataPosition(), file);
                if (walk.rowCount == 1) walk.firstEntry = entry;
            }
            if (e.dataPosition() >= dataLength) {
                throw new CorruptSSTableException(file, e.position(), "entry puts its row at data position "
                        + e.dataPosition() + ", past the data file's " + dataLength + " bytes");
            }
            DecoratedKey key = keys.decorate(e.diskKey(), file, e.position());
            if (walk.last != null && key.compareTo(walk.last) <= 0) {
                throw new CorruptSSTableException(file, e.position(), "key '" + key.key() + "' comes after '"
                        + walk.last.key() + "', which this node's partitioner sorts after it: written under another"
                        + " partitioner (or another collation), or damaged");
            }
            if (walk.rowCount % interval == 0) {
                walk.sampleKeys.add(key);
                walk.samplePositions.add(e.position());
                walk.sampleDataPositions.add(e.dataPosition());
            }
            if (walk.first == null) walk.first = key;
            walk.last = key;
            walk.rowCount++;
            previous = e;
        }
        if (previous == null) throw new CorruptSSTableException(file, 0, "the index holds no entry");
        walk.lastEntry = rowOf(walk.last, previous, dataLength, file);
        if (walk.firstEntry == null) walk.firstEntry = walk.lastEntry;
        return walk;
    }

    /** The entry of the row at {@code raw}, which ends at {@code rowEnd}; refused when it cannot be that long. */
    private static IndexEntry rowOf(DecoratedKey key, Cassandra06Index.Raw raw, long rowEnd, Path file) {
        long length = rowEnd - raw.dataPosition();
        if (length < Cassandra06RowFormat.minimumRowLength(raw.keyBytes()) || length > Integer.MAX_VALUE) {
            throw new CorruptSSTableException(file, raw.position(), "the row of key '" + key.key() + "' at data position "
                    + raw.dataPosition() + " would be " + length + " bytes long (the next row starts at " + rowEnd + ")");
        }
        return new IndexEntry(key.key(), raw.dataPosition(), (int) length, raw.position());
    }

    /** A bloom filter of every key, sized for the row count the walk found. */
    private static BloomFilter filter(PositionalFile index, Cassandra06Keys keys, long rowCount) throws IOException {
        BloomFilter filter = BloomFilter.create(rowCount, SSTableWriter.BLOOM_FILTER_FP_RATE);
        Cassandra06Index.RawReader entries = new Cassandra06Index.RawReader(index, 0);
        for (Cassandra06Index.Raw e = entries.next(); e != null; e = entries.next()) {
            filter.add(keys.keyOf(e.diskKey(), index.path(), e.position()));
        }
        return filter;
    }
}
