package sibyl.io;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sibyl.db.CFMetaData;
import sibyl.db.Cell;
import sibyl.db.Column;
import sibyl.db.ColumnFamily;
import sibyl.db.ColumnSelection;
import sibyl.db.marshal.AbstractType;
import sibyl.db.marshal.MarshalTypes;
import sibyl.db.marshal.Names;
import sibyl.dht.DecoratedKey;
import sibyl.dht.RandomPartitioner;
import sibyl.engine.Memtable;

/**
 * A row of composite names (CompositeType(UTF8Type,ReversedType(LongType))) flushed to an SSTable of small column
 * index blocks keeps the comparator's order, and slices between composite bounds (end-of-component bytes -1, 0, 1;
 * forwards and reversed) find through the column index exactly the names between them. The comparator's own order
 * is Cassandra 3.11's (db.marshal's CompositeTypeTest, and TypesAgainst311IT against a real 3.11).
 */
class CompositeSliceTest {
    private static final int COLUMN_INDEX_SIZE = 256;

    @TempDir
    Path dir;

    private final RandomPartitioner partitioner = new RandomPartitioner();
    private final AbstractType comparator = MarshalTypes.forName("CompositeType(UTF8Type,ReversedType(LongType))");
    private final CFMetaData cf = CFMetaData.standard(SSTableFixtures.KS, "Composite", comparator);
    private final DecoratedKey key = partitioner.decorateKey("row");

    /** A text alone or with a number, the last end-of-component byte {@code eoc}. */
    private static byte[] name(int eoc, String text, Long number) {
        return number == null ? Names.composite(eoc, Names.utf8(text))
                : Names.composite(eoc, Names.utf8(text), Names.ofLong(number));
    }

    @Test
    void flushedRowsKeepTheOrderAndSlicesFindTheirBounds() throws IOException {
        long seed = new Random().nextLong();
        Random random = new Random(seed);
        String[] words = {"", "a", "ab", "b", "c", "é"};
        TreeSet<byte[]> names = new TreeSet<>(comparator);
        ColumnFamily row = ColumnFamily.empty(cf);
        for (int i = 0; i < 400; i++) {
            byte[] n = name(0, words[random.nextInt(words.length)], random.nextInt(5) == 0 ? null : (long) random.nextInt(200) - 100);
            names.add(n);
            row = row.withCell(Column.live(n, new byte[16], i));
        }
        Memtable memtable = new Memtable(cf, Runnable::run);
        memtable.apply(key, row, names.size());
        assertEquals(render(new ArrayList<>(names)), render(memtable.getRow(key)), "seed " + seed + ": the memtable's order");
        SSTableReader sstable = SSTableReader.open(SSTableFixtures.write(dir, 1, memtable, partitioner, COLUMN_INDEX_SIZE),
                cf, partitioner, 128);
        try {
            assertEquals(render(new ArrayList<>(names)), render(sstable.getRow(key)), "seed " + seed + ": the SSTable's order");
            for (int i = 0; i < 300; i++) {
                byte[] start = bound(random, words);
                byte[] finish = bound(random, words);
                boolean reversed = random.nextBoolean();
                AbstractType traversal = reversed ? comparator.reversed() : comparator;
                if (start.length > 0 && finish.length > 0 && traversal.compare(start, finish) > 0) continue;
                List<byte[]> inTraversalOrder = new ArrayList<>();
                for (byte[] n : reversed ? names.descendingSet() : names) {
                    if ((start.length == 0 || traversal.compare(n, start) >= 0)
                            && (finish.length == 0 || traversal.compare(n, finish) <= 0)) {
                        inTraversalOrder.add(n);
                    }
                }
                String what = "seed " + seed + ": from " + hex(start) + " to " + hex(finish) + (reversed ? " reversed" : "");
                // readSlice gives every cell between the bounds, held in the comparator's order.
                List<byte[]> between = new ArrayList<>(inTraversalOrder);
                between.sort(comparator);
                assertEquals(render(between), render(sstable.readSlice(key, ColumnSelection.range(start, finish, reversed,
                        Integer.MAX_VALUE))), what);
                // The cursor a counted slice reads walks from the start in the order of traversal.
                int count = 1 + random.nextInt(300);
                List<byte[]> walked = new ArrayList<>();
                CellCursor cursor = sstable.cellsFrom(key, start, reversed);
                while (cursor.hasNext() && walked.size() < count) {
                    byte[] n = cursor.next().name();
                    if (finish.length > 0 && traversal.compare(n, finish) > 0) break;
                    walked.add(n);
                }
                assertEquals(render(inTraversalOrder.subList(0, Math.min(count, inTraversalOrder.size()))), render(walked),
                        what + ", the first " + count + " walked");
            }
        } finally {
            sstable.release();
        }
    }

    /** Empty (open), or a text alone or with a number, its last end-of-component byte -1, 0 or 1. */
    private static byte[] bound(Random random, String[] words) {
        if (random.nextInt(10) == 0) return new byte[0];
        return name(random.nextInt(3) - 1, words[random.nextInt(words.length)],
                random.nextBoolean() ? null : (long) random.nextInt(220) - 110);
    }

    private static String render(ColumnFamily row) {
        List<byte[]> names = new ArrayList<>();
        for (Cell c : row.cells()) names.add(c.name());
        return render(names);
    }

    private static String render(List<byte[]> names) {
        List<String> hex = new ArrayList<>();
        for (byte[] n : names) hex.add(hex(n));
        return String.join(" ", hex);
    }

    private static String hex(byte[] b) {
        return HexFormat.of().formatHex(b);
    }
}
