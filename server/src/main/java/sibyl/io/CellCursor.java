package sibyl.io;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import sibyl.db.Cell;
import sibyl.db.marshal.AbstractType;

/**
 * The stored cells of one row from a start name on, forward or reversed, reading one column
 * index block at a time as the caller advances. This is what a count-limited slice of a wide
 * row needs: a reader merging sources stops as soon as it has enough live cells, and only the
 * blocks it went through were read.
 *
 * <p>The row tombstone comes with the cursor, since a reader needs it to tell live cells. The
 * caller holds a reference to the SSTable while iterating ({@link SSTableReader#acquire}).
 */
public final class CellCursor implements Iterator<Cell> {
    private final SSTableReader sstable;
    private final IndexEntry entry;
    private final RowStart rowStart;
    private final RowHeader header;
    private final byte[] start;
    private final boolean reversed;
    private final AbstractType comparator;
    private int nextBlock;
    private Iterator<Cell> current = Collections.emptyIterator();
    private Cell next;

    CellCursor(SSTableReader sstable, IndexEntry entry, RowStart rowStart, byte[] start, boolean reversed) {
        this.sstable = sstable;
        this.entry = entry;
        this.rowStart = rowStart;
        this.header = rowStart.header();
        this.start = start;
        this.reversed = reversed;
        this.comparator = sstable.metadata().comparator();
        this.nextBlock = firstBlock();
        advance();
    }

    /** Timestamp of the row tombstone, Long.MIN_VALUE if none. */
    public long markedForDeleteAt() {
        return header.markedForDeleteAt();
    }

    public int localDeletionTime() {
        return header.localDeletionTime();
    }

    /** The block holding the first cell at or after start (at or before, reversed), by the column index. */
    private int firstBlock() {
        List<ColumnIndexBlock> blocks = header.blocks();
        if (blocks.isEmpty()) return reversed ? -1 : 0;
        if (start.length == 0 || blocks.get(0).coversAll()) return reversed ? blocks.size() - 1 : 0;
        if (reversed) {
            int i = blocks.size() - 1;
            while (i >= 0 && comparator.compare(blocks.get(i).firstName(), start) > 0) i--;
            return i;
        }
        int i = 0;
        while (i < blocks.size() && comparator.compare(blocks.get(i).lastName(), start) < 0) i++;
        return i;
    }

    private boolean beforeStart(Cell cell) {
        if (start.length == 0) return false;
        int c = comparator.compare(cell.name(), start);
        return reversed ? c > 0 : c < 0;
    }

    private void advance() {
        next = null;
        while (next == null) {
            while (current.hasNext()) {
                Cell cell = current.next();
                if (!beforeStart(cell)) {
                    next = cell;
                    return;
                }
            }
            if (nextBlock < 0 || nextBlock >= header.blocks().size()) return;
            current = readBlock(header.blocks().get(nextBlock)).iterator();
            nextBlock += reversed ? -1 : 1;
        }
    }

    private List<Cell> readBlock(ColumnIndexBlock block) {
        PositionalFile data = sstable.dataFile();
        long at = entry.dataOffset() + header.blocksStart() + block.offset();
        List<Cell> cells = new ArrayList<>();
        try {
            BlockDecoder.decode(rowStart.block(block, entry, data), 0, block.length(), sstable.metadata(), data.path(), at,
                    cells::add);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + data.path(), e);
        }
        if (reversed) Collections.reverse(cells);
        return cells;
    }

    @Override
    public boolean hasNext() {
        return next != null;
    }

    @Override
    public Cell next() {
        if (next == null) throw new NoSuchElementException();
        Cell cell = next;
        advance();
        return cell;
    }
}
