package sibyl.io;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import sibyl.db.Cell;
import sibyl.db.Deletion;
import sibyl.db.RowCells;
import sibyl.db.marshal.AbstractType;

/**
 * The stored cells of one row from a start name on, forward or reversed, reading one column
 * index block at a time as the caller advances. This is what a count-limited slice of a wide
 * row needs: a reader merging sources stops as soon as it has enough live cells, and only the
 * blocks it went through were read.
 *
 * <p>The row tombstone comes with the cursor, since a reader needs it to tell live cells. Rows of
 * either format are read this way: both keep a column index of blocks ({@link RowFormat}). The
 * caller holds a reference to the SSTable while iterating ({@link SSTableReader#acquire}).
 */
public final class CellCursor implements RowCells {
    private final RowFile rows;
    private final IndexEntry entry;
    private final RowStart rowStart;
    private final RowHeader header;
    private final byte[] start;
    private final boolean reversed;
    private final AbstractType comparator;
    private int nextBlock;
    /** Reversed: the cells of the block read last, turned round. */
    private Iterator<Cell> current = Collections.emptyIterator();
    /** Forward: the block read last, at its next undecoded cell; null before the first. */
    private ByteBuffer forward;
    private long forwardOffset;
    /** Forward: a cell at or past the start was found, so every later one is wanted. */
    private boolean reachedStart;
    private Cell next;

    CellCursor(RowFile rows, IndexEntry entry, RowStart rowStart, byte[] start, boolean reversed) {
        this.rows = rows;
        this.entry = entry;
        this.rowStart = rowStart;
        this.header = rowStart.header();
        this.start = start;
        this.reversed = reversed;
        this.comparator = rows.metadata().comparator();
        this.nextBlock = firstBlock();
        advance();
    }

    /** The row tombstone; {@link Deletion#LIVE} if none. */
    @Override
    public Deletion deletion() {
        return header.deletion();
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

    /** Whether a cell's name is at or past the start in the cursor's direction. */
    private boolean fromStart(byte[] name) {
        if (start.length == 0) return true;
        int c = comparator.compare(name, start);
        return reversed ? c <= 0 : c >= 0;
    }

    private void advance() {
        next = null;
        while (true) {
            if (reversed) {
                if (current.hasNext()) {
                    next = current.next();
                    return;
                }
            } else if (forward != null && forward.hasRemaining()) {
                Cell cell = readForward();
                if (cell != null) {
                    next = cell;
                    return;
                }
                continue;
            }
            if (nextBlock < 0 || nextBlock >= header.blocks().size()) return;
            open(header.blocks().get(nextBlock));
            nextBlock += reversed ? -1 : 1;
        }
    }

    /**
     * The next cell of the block read forward, or null for one before the start, stepped over without
     * being built: cells are decoded one at a time as the caller advances, so a count met early leaves
     * the rest of the block undecoded.
     */
    private Cell readForward() {
        try {
            if (reachedStart) return rows.format().read(forward, rows.metadata());
            Cell cell = rows.format().readIf(forward, rows.metadata(), this::fromStart);
            reachedStart = cell != null;
            return cell;
        } catch (BufferUnderflowException | IllegalArgumentException e) {
            throw BlockDecoder.malformed(rows.path(), forwardOffset, e);
        }
    }

    /** Reads a block: forward, checked and kept for decoding cell by cell; reversed, decoded whole and turned round. */
    private void open(ColumnIndexBlock block) {
        PositionalFile data = rows.data();
        long at = entry.dataOffset() + header.blocksStart() + block.offset();
        byte[] bytes;
        try {
            bytes = rowStart.block(block, entry, data);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + data.path(), e);
        }
        if (!reversed) {
            forward = rows.format().blockCells(bytes, 0, block.length(), data.path(), at);
            forwardOffset = at;
            return;
        }
        List<Cell> cells = new ArrayList<>();
        BlockDecoder.decode(rows.format(), bytes, 0, block.length(), rows.metadata(), data.path(), at,
                this::fromStart, cells::add);
        Collections.reverse(cells);
        current = cells.iterator();
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
