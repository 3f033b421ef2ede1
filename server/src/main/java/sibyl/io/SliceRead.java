package sibyl.io;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.function.Predicate;
import sibyl.db.Cell;
import sibyl.db.ColumnFamily;
import sibyl.db.ColumnSelection;
import sibyl.db.marshal.AbstractType;

/**
 * One slice read of one row: the header first (one small read, usually holding the whole column
 * index), then only the blocks whose first..last name range meets the selection, adjacent ones
 * in one read.
 */
final class SliceRead {
    private final RowFile rows;
    private final IndexEntry entry;
    private final AbstractType comparator;
    private final Predicate<byte[]> wanted;
    private final Predicate<ColumnIndexBlock> blockWanted;

    SliceRead(RowFile rows, IndexEntry entry, ColumnSelection selection) {
        this.rows = rows;
        this.entry = entry;
        this.comparator = rows.metadata().comparator();
        if (selection instanceof ColumnSelection.Names names) {
            TreeSet<byte[]> set = new TreeSet<>(comparator);
            set.addAll(names.names());
            wanted = set::contains;
            blockWanted = b -> b.coversAll() ? !set.isEmpty() : overlaps(set, b);
        } else {
            ColumnSelection.Range range = (ColumnSelection.Range) selection;
            byte[] low = range.reversed() ? range.finish() : range.start();
            byte[] high = range.reversed() ? range.start() : range.finish();
            wanted = name -> (low.length == 0 || comparator.compare(name, low) >= 0)
                    && (high.length == 0 || comparator.compare(name, high) <= 0);
            blockWanted = b -> b.coversAll() || ((low.length == 0 || comparator.compare(b.lastName(), low) >= 0)
                    && (high.length == 0 || comparator.compare(b.firstName(), high) <= 0));
        }
    }

    private boolean overlaps(TreeSet<byte[]> names, ColumnIndexBlock block) {
        byte[] first = names.ceiling(block.firstName());
        return first != null && comparator.compare(first, block.lastName()) <= 0;
    }

    ColumnFamily read() throws IOException {
        RowStart rowStart = rows.readStart(entry);
        RowHeader header = rowStart.header();
        byte[] head = rowStart.bytes();

        List<Cell> cells = new ArrayList<>();
        List<ColumnIndexBlock> blocks = header.blocks();
        int i = 0;
        while (i < blocks.size()) {
            if (!blockWanted.test(blocks.get(i))) {
                i++;
                continue;
            }
            int j = i;
            while (j + 1 < blocks.size() && blockWanted.test(blocks.get(j + 1))) j++;
            readRun(header, blocks.subList(i, j + 1), head, cells);
            i = j + 1;
        }
        return rows.rowOf(header, cells);
    }

    /** Reads adjacent blocks at once (or takes them from the first read when it already holds them). */
    private void readRun(RowHeader header, List<ColumnIndexBlock> run, byte[] head, List<Cell> cells) throws IOException {
        PositionalFile data = rows.data();
        ColumnIndexBlock first = run.get(0);
        ColumnIndexBlock last = run.get(run.size() - 1);
        int runStart = header.blocksStart() + first.offset();
        int runEnd = header.blocksStart() + last.offset() + last.length();
        byte[] bytes;
        int base;
        if (runEnd <= head.length) {
            bytes = head;
            base = 0;
        } else {
            bytes = data.read(entry.dataOffset() + runStart, runEnd - runStart);
            base = runStart;
        }
        for (ColumnIndexBlock block : run) {
            int at = header.blocksStart() + block.offset();
            BlockDecoder.decode(rows.format(), bytes, at - base, block.length(), rows.metadata(), data.path(),
                    entry.dataOffset() + at, wanted, cells::add);
        }
    }
}
