package sibyl.engine;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.TreeSet;
import sibyl.db.CFMetaData;
import sibyl.db.Cell;
import sibyl.db.Column;
import sibyl.db.ColumnFamily;
import sibyl.db.ColumnSelection;
import sibyl.db.Deletion;
import sibyl.db.MergingCellIterator;
import sibyl.db.RowCells;
import sibyl.db.SliceReader;
import sibyl.dht.DecoratedKey;
import sibyl.io.CellCursor;
import sibyl.io.SSTableReader;

/**
 * One read of one row, the same for get, get_slice, get_count, multiget and each row of a range scan: a selection
 * below a parent (the row itself, or one super column) turned into what each source yields of the row's top level,
 * merged once into the row as far as the selection needs. {@link SliceReader} then reads the client's answer out
 * of that row as it would out of the whole merged row, which is where tombstones hide what they cover.
 *
 * <p>What a source yields ({@link RowCells}), by selection:
 * <ul>
 *   <li>the whole row ({@link #wholeRow}): its whole version, merged whole;</li>
 *   <li>a range of the row's top level: its cells from the range's start in its direction, an SSTable's read block
 *       by block as the merge advances ({@link CellCursor}). The merge stops at the range's finish or once the
 *       merged cells hold {@code count} live ones, so an SSTable reads column index blocks only until the count
 *       is met. Why the count is applied to the merge and not per source: a tombstone in one source (a column
 *       tombstone, or a row tombstone newer than its columns) may hide cells of another, so a source's first
 *       {@code count} cells need not hold the merged first {@code count} live ones;</li>
 *   <li>names, or anything below a super column (which selects that super column whole): the named cells, an
 *       SSTable reading only the column index blocks that may hold them. Of a standard row, the SSTables are asked
 *       newest timestamp first and {@link Sources#settledAt} says when none older can change the answer.</li>
 * </ul>
 *
 * <p>The merged row holds every selected cell up to the last one the read needs, every source's version
 * reconciled ({@link MergingCellIterator}), and the newest row tombstone of all sources, which is known before the
 * first cell (memtable rows carry it, SSTable cursors read it with the row header).
 */
final class RowRead {
    private final CFMetaData metadata;
    /** The top-level names selected, in comparator order without duplicates; null for a range or the whole row. */
    private final List<byte[]> names;
    /** The same names as the selection an SSTable reads. */
    private final ColumnSelection.Names named;
    /** A range of the top level; null for names or the whole row. */
    private final ColumnSelection.Range range;
    /** The order of the cells sources yield and the merge keeps: the comparator's, reversed for a reversed range. */
    private final Comparator<byte[]> order;
    /** Whether an SSTable older than the versions found can be passed over (named columns of a standard row). */
    private final boolean settles;
    /** Seconds since the epoch a counted range judges expiring columns by: an expired one does not count. */
    private final int nowSeconds;

    private RowRead(CFMetaData metadata, List<byte[]> names, ColumnSelection.Range range, Comparator<byte[]> order,
                    boolean settles, int nowSeconds) {
        this.nowSeconds = nowSeconds;
        this.metadata = metadata;
        this.names = names;
        this.named = names == null ? null : ColumnSelection.names(names);
        this.range = range;
        this.order = order;
        this.settles = settles;
    }

    /**
     * The read of {@code selection} below {@code superColumn} (null = the row's top level).
     *
     * @param metadata   the column family read, whose comparator orders the top level
     * @param nowSeconds the time the read sees expiring columns at
     */
    static RowRead of(CFMetaData metadata, byte[] superColumn, ColumnSelection selection, int nowSeconds) {
        if (superColumn == null && selection instanceof ColumnSelection.Range r) {
            return new RowRead(metadata, null, r, r.reversed() ? metadata.comparator().reversed() : metadata.comparator(),
                    false, nowSeconds);
        }
        // Below a super column the sources yield that super column whole.
        List<byte[]> selected = superColumn != null ? List.of(superColumn) : ((ColumnSelection.Names) selection).names();
        List<byte[]> names = selected;
        if (selected.size() > 1) {
            TreeSet<byte[]> sorted = new TreeSet<>(metadata.comparator());
            sorted.addAll(selected);
            names = List.copyOf(sorted);
        }
        // A counter's versions add up: no version found settles it, every source counts.
        return new RowRead(metadata, names, null, metadata.comparator(), !metadata.isSuper() && !metadata.isCounter(), nowSeconds);
    }

    /**
     * The whole row, tombstones and all: what the row cache holds and a slice deletion resolves against. Each
     * source gives its whole version, and they are merged whole.
     */
    static RowRead wholeRow(CFMetaData metadata) {
        // Counts nothing, so it has no use for the time.
        return new RowRead(metadata, null, null, metadata.comparator(), false, 0);
    }

    private boolean isWholeRow() {
        return names == null && range == null;
    }

    /** The sources of one row, gathered for this read. */
    Sources sources() {
        return new Sources();
    }

    /**
     * The sources of one row in any order: row versions a memtable (or a scan) holds whole, and SSTables. Not
     * thread-safe; used by one read.
     */
    final class Sources {
        private final List<ColumnFamily> versions = new ArrayList<>(2);
        private final List<RowCells> cursors = new ArrayList<>();
        /**
         * For {@link #settledAt}: the newest tombstone and, per name, the newest timestamp of the first
         * {@code noted} versions; noted when first asked, so a row no SSTable holds costs nothing here.
         */
        private Deletion deletion = Deletion.LIVE;
        private long[] newest;
        private int noted;

        private Sources() {
        }

        /** Adds a version of the row (none when null). */
        void add(ColumnFamily version) {
            if (version != null) versions.add(version);
        }

        /**
         * Adds what {@code sstable} holds of the row that this read needs. The caller holds a reference to the
         * SSTable until the read is merged ({@link #merged}).
         *
         * @return false when the SSTable holds no row for the key
         */
        boolean add(SSTableReader sstable, DecoratedKey key) {
            if (isWholeRow()) {
                ColumnFamily row = sstable.getRow(key);
                add(row);
                return row != null;
            }
            if (range == null) {
                ColumnFamily part = sstable.readSlice(key, named);
                add(part);
                return part != null;
            }
            CellCursor cursor = sstable.cellsFrom(key, range.start(), range.reversed());
            if (cursor != null) cursors.add(cursor);
            return cursor != null;
        }

        /**
         * Whether no source whose newest timestamp is {@code timestamp} can change the answer: only for names of a
         * standard row, once a source held the row and either a row tombstone found is newer, or each name has a
         * version found that is newer (a tie could win, see {@link Column#reconcile}, so an equal one is not enough).
         */
        boolean settledAt(long timestamp) {
            if (!settles || versions.isEmpty()) return false;
            note();
            if (deletion.isMarkedForDelete() && deletion.markedForDeleteAt() > timestamp) return true;
            for (long t : newest) {
                if (t <= timestamp) return false;
            }
            return true;
        }

        private void note() {
            if (newest == null) {
                newest = new long[names.size()];
                Arrays.fill(newest, Long.MIN_VALUE);
            }
            for (; noted < versions.size(); noted++) {
                ColumnFamily version = versions.get(noted);
                deletion = Deletion.reconcile(deletion, version.deletion());
                for (int i = 0; i < newest.length; i++) {
                    if (version.cell(names.get(i)) instanceof Column c && c.timestamp() > newest[i]) newest[i] = c.timestamp();
                }
            }
        }

        /**
         * The row merged from every source as far as the read needs (see the class comment); null when no source
         * holds the row. A single version held whole is already that row.
         */
        ColumnFamily merged() {
            if (cursors.isEmpty()) {
                if (versions.isEmpty()) return null;
                if (versions.size() == 1) return versions.get(0);
            }
            if (isWholeRow()) {
                return ColumnFamily.mergeAll(versions);
            }
            List<RowCells> sources = new ArrayList<>(versions.size() + cursors.size());
            for (ColumnFamily v : versions) {
                sources.add(range == null ? RowCells.named(v, names) : RowCells.from(v, range.start(), range.reversed()));
            }
            sources.addAll(cursors);
            int count = range == null ? Integer.MAX_VALUE : range.count();
            ColumnFamily.Builder merged = ColumnFamily.builder(metadata, Math.min(range == null ? names.size() : count, 64));
            for (RowCells source : sources) merged.delete(source.deletion());
            Iterator<Cell> cells = sources.size() == 1 ? sources.get(0) : new MergingCellIterator(order, sources,
                    metadata.isCounter(), merged.deletion());
            byte[] finish = range == null ? new byte[0] : range.finish();
            boolean counted = count < Integer.MAX_VALUE;
            Deletion rowDeletion = merged.deletion();
            int live = 0;
            while (live < count && cells.hasNext()) {
                Cell cell = cells.next();
                if (finish.length > 0 && order.compare(cell.name(), finish) > 0) break;
                merged.add(cell); // in the read's order: ascending, or descending when reversed, so built in O(n)
                if (counted && SliceReader.live(cell, rowDeletion, nowSeconds) != null) live++;
            }
            return merged.build();
        }
    }
}
