package sibyl.io;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.AbstractMap;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.function.Function;
import sibyl.db.ColumnFamily;
import sibyl.dht.DecoratedKey;

/**
 * Rows of one SSTable in ring order from a position on: walks the index file and the data file
 * side by side, each through its own buffered positional stream, so it holds no file handle and
 * does not disturb concurrent point reads. The caller must hold a reference to the SSTable
 * ({@link SSTableReader#acquire}) while iterating.
 */
final class SSTableScanner implements Iterator<Map.Entry<DecoratedKey, ColumnFamily>> {
    private static final int BUFFER_SIZE = 64 * 1024;

    private final Descriptor sstable;
    private final IndexEntries index;
    private final Path indexPath;
    private final RowFile rows;
    private final Function<String, DecoratedKey> decorate;
    /** Whether rows come as {@link StoredRow}s, their bytes kept and decoded only when asked for (compaction). */
    private final boolean stored;
    private DataInputStream data;
    private long dataPosition;
    /** Holds the current row's bytes; reused, as a decoded row copies what it keeps. */
    private byte[] rowBuffer = new byte[0];
    private Map.Entry<DecoratedKey, IndexEntry> pending;

    /**
     * Starts at the first of {@code index}'s entries, skipping keys before {@code from}.
     *
     * @param sstable   names the SSTable in reports of a failed read
     * @param indexPath the index file {@code index} reads, for reports of damage
     * @param decorate  the partitioner's decoration of an index entry's key
     */
    SSTableScanner(Descriptor sstable, IndexEntries index, Path indexPath, RowFile rows,
                   Function<String, DecoratedKey> decorate, DecoratedKey from) {
        this(sstable, index, indexPath, rows, decorate, from, false);
    }

    /** As above; with {@code stored}, every row comes as a {@link StoredRow}. */
    SSTableScanner(Descriptor sstable, IndexEntries index, Path indexPath, RowFile rows,
                   Function<String, DecoratedKey> decorate, DecoratedKey from, boolean stored) {
        this.stored = stored;
        this.sstable = sstable;
        this.index = index;
        this.indexPath = indexPath;
        this.rows = rows;
        this.decorate = decorate;
        try {
            do {
                pending = nextEntry();
            } while (pending != null && pending.getKey().compareTo(from) < 0);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + indexPath, e);
        }
    }

    private Map.Entry<DecoratedKey, IndexEntry> nextEntry() throws IOException {
        IndexEntry entry = index.next();
        return entry == null ? null : new AbstractMap.SimpleImmutableEntry<>(decorate.apply(entry.key()), entry);
    }

    @Override
    public boolean hasNext() {
        return pending != null;
    }

    @Override
    public Map.Entry<DecoratedKey, ColumnFamily> next() {
        if (pending == null) throw new NoSuchElementException();
        DecoratedKey key = pending.getKey();
        IndexEntry entry = pending.getValue();
        try {
            if (stored) {
                byte[] row = readRow(entry);
                pending = nextEntry();
                return new StoredRow(key, rows, entry, row);
            }
            byte[] row = readRow(entry);
            pending = nextEntry();
            try {
                return new AbstractMap.SimpleImmutableEntry<>(key, rows.decodeRow(row, entry));
            } catch (CorruptSSTableException e) {
                return new DamagedRow(key, e);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + sstable, e);
        }
    }

    /**
     * The row's bytes, at the start of a buffer reused for the next row (an array of their own for a
     * {@link StoredRow}). Rows follow each other without gaps, so the data stream is opened once, at the first row.
     */
    private byte[] readRow(IndexEntry entry) throws IOException {
        PositionalFile file = rows.data();
        if (data == null) {
            data = new DataInputStream(new BufferedInputStream(
                    new PositionalInputStream(file, entry.dataOffset(), file.length()), BUFFER_SIZE));
            dataPosition = entry.dataOffset();
        }
        if (entry.dataOffset() != dataPosition) {
            throw new CorruptSSTableException(indexPath, entry.position(), "index entry for key "
                    + entry.key() + " points at data offset " + entry.dataOffset() + ", the row before ends at " + dataPosition);
        }
        if (entry.dataOffset() + entry.rowLength() > file.length()) {
            throw new CorruptSSTableException(indexPath, entry.position(), "row of " + entry.rowLength()
                    + " bytes at " + entry.dataOffset() + " runs past the end of the data file");
        }
        byte[] buffer;
        if (stored) {
            buffer = new byte[entry.rowLength()];
        } else {
            if (rowBuffer.length < entry.rowLength()) rowBuffer = new byte[Math.max(entry.rowLength(), 2 * rowBuffer.length)];
            buffer = rowBuffer;
        }
        data.readFully(buffer, 0, entry.rowLength());
        dataPosition += entry.rowLength();
        return buffer;
    }

    /**
     * A row as its SSTable stores it: its key (from the index) and its own copy of its bytes, decoded when its value is
     * first asked for, so that compaction may write a row that nothing would change as it is ({@link RowCopy}). A row
     * whose bytes fail their checks throws from {@link #getValue}, as a {@link DamagedRow} does.
     */
    static final class StoredRow implements Map.Entry<DecoratedKey, ColumnFamily> {
        private final DecoratedKey key;
        private final RowFile rows;
        private final IndexEntry entry;
        private final byte[] bytes;
        private ColumnFamily decoded;

        StoredRow(DecoratedKey key, RowFile rows, IndexEntry entry, byte[] bytes) {
            this.key = key;
            this.rows = rows;
            this.entry = entry;
            this.bytes = bytes;
        }

        RowFile rows() {
            return rows;
        }

        IndexEntry entry() {
            return entry;
        }

        /** The row's {@code entry().rowLength()} bytes; not to be changed. */
        byte[] bytes() {
            return bytes;
        }

        @Override
        public DecoratedKey getKey() {
            return key;
        }

        @Override
        public ColumnFamily getValue() {
            if (decoded == null) decoded = rows.decodeRow(bytes, entry);
            return decoded;
        }

        @Override
        public ColumnFamily setValue(ColumnFamily value) {
            throw new UnsupportedOperationException();
        }
    }

    /**
     * A row whose bytes fail their checks: its key is known (from the index), its value throws.
     * So a scan or merge that only looks ahead at it (to compare keys, or to find where a range
     * ends) goes on, and only a reader that wants the row itself meets the damage.
     */
    private static final class DamagedRow implements Map.Entry<DecoratedKey, ColumnFamily> {
        private final DecoratedKey key;
        private final CorruptSSTableException damage;

        DamagedRow(DecoratedKey key, CorruptSSTableException damage) {
            this.key = key;
            this.damage = damage;
        }

        @Override
        public DecoratedKey getKey() {
            return key;
        }

        @Override
        public ColumnFamily getValue() {
            throw damage;
        }

        @Override
        public ColumnFamily setValue(ColumnFamily value) {
            throw new UnsupportedOperationException();
        }
    }
}
