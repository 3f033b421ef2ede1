package sibyl.engine;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import sibyl.db.CFMetaData;
import sibyl.db.Cell;
import sibyl.db.Column;
import sibyl.db.ColumnFamily;
import sibyl.db.ColumnSelection;
import sibyl.db.IndexQuery;
import sibyl.db.RowSlice;
import sibyl.dht.DecoratedKey;

/**
 * get_indexed_slices and row_filter on one store (docs/thrift-api-0.7.md §Secondary indexes): the rows of a stretch
 * of the ring for which every expression holds, in ring order, each with what the column predicate selects. With an
 * EQ expression on an indexed column the candidates are the keys its index lists under that value, so a read costs
 * in proportion to the rows that match it, not to the column family; without one, every row of the stretch is a
 * candidate. Each candidate is read and judged by its live columns, so an index entry a ttl made stale is passed
 * over, and refreshed on the way.
 */
final class IndexedRead {
    /** Candidates fetched at a time: the index is not held while their rows are read. */
    private static final int BATCH = 64;
    private static final byte[] NO_VALUE = {};
    private static final ColumnSelection ANY_COLUMN = ColumnSelection.range(NO_VALUE, NO_VALUE, false, 1);

    /** What the read needs of the store. */
    interface Rows {
        List<Cell> slice(DecoratedKey key, ColumnSelection selection);

        /** The row merged from every source, tombstones and all; null when no source holds it. */
        ColumnFamily row(DecoratedKey key);

        /** The time the store judges expiring columns by, in seconds since the epoch. */
        int nowSeconds();

        /** Up to {@code limit} keys the store holds anything for, in ring order, from {@code from} on. */
        List<DecoratedKey> keys(DecoratedKey from, boolean inclusive, int limit);
    }

    /** A stretch of the ring without wrap: from {@code from} (a key or a token's start) up to {@code to} (null: the end). */
    record Stretch(DecoratedKey from, DecoratedKey to) {
    }

    private final CFMetaData cf;
    private final StoreIndexes indexes;
    private final Rows rows;
    private final IndexQuery query;
    /** The EQ expression whose index lists the candidates, or null for a scan. */
    private final IndexQuery.Expression driving;

    IndexedRead(CFMetaData cf, StoreIndexes indexes, Rows rows, IndexQuery query) {
        this.cf = cf;
        this.indexes = indexes;
        this.rows = rows;
        this.query = query;
        this.driving = firstIndexed(indexes, query);
    }

    /** Whether the read uses an index, rather than a scan of every row. */
    boolean usesIndex() {
        return driving != null;
    }

    /**
     * The first EQ expression on an indexed column. Which one answers matters to what matches: the others are judged
     * on the columns the predicate selects. 3.11 chooses by its estimates; the first is what it chose in every case
     * IndexDifferentialIT compared.
     */
    private static IndexQuery.Expression firstIndexed(StoreIndexes indexes, IndexQuery query) {
        for (IndexQuery.Expression e : query.expressions()) {
            if (e.op() == IndexQuery.Operator.EQ && indexes.of(e.column()) != null) return e;
        }
        return null;
    }

    /** Up to {@code count} matching rows of {@code stretches}, in order, each with what {@code selection} picks. */
    List<RowSlice> read(List<Stretch> stretches, ColumnSelection selection, int count) {
        List<RowSlice> found = new ArrayList<>();
        KeysIndex index = driving == null ? null : indexes.of(driving.column());
        for (Stretch stretch : stretches) {
            DecoratedKey from = stretch.from();
            boolean inclusive = true;
            while (found.size() < count) {
                List<DecoratedKey> candidates = index != null ? index.keys(driving.value(), from, inclusive, BATCH)
                        : rows.keys(from, inclusive, BATCH);
                if (candidates.isEmpty()) break;
                for (DecoratedKey key : candidates) {
                    if (stretch.to() != null && key.compareTo(stretch.to()) > 0) {
                        candidates = List.of();
                        break;
                    }
                    List<Cell> selected = matches(key, selection);
                    // A row the selection picks nothing of still counts: get_indexed_slices leaves it out after.
                    if (selected != null) found.add(new RowSlice(key.key(), selected));
                    if (found.size() == count) break;
                }
                if (candidates.size() < BATCH) break;
                from = candidates.get(candidates.size() - 1);
                inclusive = false;
            }
            if (found.size() >= count) break;
        }
        return found;
    }

    /**
     * What {@code selection} picks of the row of {@code key} (perhaps nothing) when the row matches, else null. As
     * in 3.11, the expressions other than the one the index answers are judged only on columns the selection could
     * pick (one it does not name, or whose name is outside its range, matches no row), by {@link #judgedValue}.
     */
    private List<Cell> matches(DecoratedKey key, ColumnSelection selection) {
        if (driving != null) {
            byte[] indexed = valueOf(rows.slice(key, ColumnSelection.names(driving.column())), driving.column());
            if (!driving.holds(indexed, cf.validators().valueOf(ByteBuffer.wrap(driving.column())))) {
                // The index listed the row under a value it no longer has live (a ttl ran out): list it anew.
                indexes.refresh(key);
                return null;
            }
        } else if (rows.slice(key, ANY_COLUMN).isEmpty()) {
            return null; // a row of tombstones only, which 3.11 does not list
        }
        List<byte[]> judged = new ArrayList<>();
        for (IndexQuery.Expression e : query.expressions()) {
            if (answeredByIndex(e)) continue;
            if (!picks(selection, e.column())) return null;
            judged.add(e.column());
        }
        if (!judged.isEmpty()) {
            ColumnFamily row = rows.row(key);
            int now = rows.nowSeconds();
            for (IndexQuery.Expression e : query.expressions()) {
                if (answeredByIndex(e)) continue;
                byte[] value = judgedValue(row, e.column(), now);
                if (value == null || !e.holds(value, cf.validators().valueOf(ByteBuffer.wrap(e.column())))) return null;
            }
        }
        List<Cell> selected = rows.slice(key, selection);
        // As 3.11: a row that holds no version at all (live or deleted) of any name a list of names selects is not
        // listed; one whose selected names are deleted is, with no columns.
        if (selected.isEmpty() && selection instanceof ColumnSelection.Names names && !holdsAny(rows.row(key), names)) {
            return null;
        }
        return selected;
    }

    /** Whether {@code row} holds a version, live or a tombstone, of a name {@code names} selects. */
    private static boolean holdsAny(ColumnFamily row, ColumnSelection.Names names) {
        if (row == null) return false;
        for (byte[] name : names.names()) {
            if (row.cell(name) != null) return true;
        }
        return false;
    }

    /**
     * The value an expression is judged by, as 3.11 judges it: the live value; the empty value for a column whose
     * newest version is a tombstone (a deletion of the column, or a ttl run out) that no row deletion covers; null,
     * matching nothing, for a column the row has no version of, or only versions a row deletion covers.
     */
    private static byte[] judgedValue(ColumnFamily row, byte[] column, int now) {
        if (row == null || !(row.cell(column) instanceof Column c) || row.deletion().shadows(c.timestamp())) return null;
        return c.isTombstone() || c.hasExpired(now) ? NO_VALUE : c.value();
    }

    /** The expression the index answers, or one the same as it (3.11 judges a repeated expression once). */
    private boolean answeredByIndex(IndexQuery.Expression e) {
        return driving != null && (e == driving || (e.op() == driving.op() && Arrays.equals(e.column(), driving.column())
                && Arrays.equals(e.value(), driving.value())));
    }

    /** Whether {@code selection} names {@code column}, or its range holds the name. */
    private boolean picks(ColumnSelection selection, byte[] column) {
        if (selection instanceof ColumnSelection.Names names) {
            for (byte[] name : names.names()) if (Arrays.equals(name, column)) return true;
            return false;
        }
        ColumnSelection.Range range = (ColumnSelection.Range) selection;
        byte[] low = range.reversed() ? range.finish() : range.start();
        byte[] high = range.reversed() ? range.start() : range.finish();
        return (low.length == 0 || cf.comparator().compare(column, low) >= 0)
                && (high.length == 0 || cf.comparator().compare(column, high) <= 0);
    }

    private static byte[] valueOf(List<Cell> live, byte[] column) {
        for (Cell cell : live) {
            if (cell instanceof Column c && Arrays.equals(c.name(), column)) return c.value();
        }
        return null;
    }
}
