package sibyl.cql;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import sibyl.db.Cell;
import sibyl.db.ColumnSelection;

/**
 * The cells of one row that a WHERE clause's clustering restrictions select, as a slice of the store's names: for a
 * composite comparator its bounds carry end-of-component bytes that make them exact; for a simple one the bounds are
 * inclusive in the store, so an exclusive bound's own name is dropped afterwards ({@link #admits}).
 */
final class Slice {
    private final CompactView view;
    private final byte[] start;
    private final byte[] finish;
    private final boolean reversed;
    private final boolean empty;
    /** Names the store returns but the restrictions exclude (exclusive bounds of a simple comparator). */
    private final List<byte[]> excluded;
    /** The names {@code column1 IN (...)} selects, or null. */
    private final List<byte[]> names;

    private Slice(CompactView view, byte[] start, byte[] finish, boolean reversed, boolean empty, List<byte[]> excluded) {
        this(view, start, finish, reversed, empty, excluded, null);
    }

    private Slice(CompactView view, byte[] start, byte[] finish, boolean reversed, boolean empty, List<byte[]> excluded,
                  List<byte[]> names) {
        this.names = names;
        this.view = view;
        this.start = start;
        this.finish = finish;
        this.reversed = reversed;
        this.empty = empty;
        this.excluded = excluded;
    }

    /** @param reversed whether the cells are wanted against the comparator's order */
    static Slice of(CompactView view, Where where, Bindings values, boolean reversed) {
        if (where.in() != null) {
            List<byte[]> names = new ArrayList<>();
            String column = CompactView.clusteringName(0);
            for (Term t : where.in()) {
                byte[] name = CompactView.bytes(Keys.clustering(values.bytes(t, view.type(0), column), column));
                // Nothing is stored under the empty name; the store would take it for an open bound.
                if (name.length > 0) names.add(name);
            }
            return new Slice(view, new byte[0], new byte[0], reversed, names.isEmpty(), List.of(), names);
        }
        List<ByteBuffer> prefix = new ArrayList<>();
        for (int i = 0; i < where.prefix().size(); i++) {
            String name = CompactView.clusteringName(i);
            prefix.add(Keys.clustering(values.bytes(where.prefix().get(i), view.type(i), name), name));
        }
        int at = prefix.size();
        ByteBuffer lower = bound(view, where.lower(), values, at);
        ByteBuffer upper = bound(view, where.upper(), values, at);
        if (view.composite()) {
            byte[] low = lower != null ? view.cellName(with(prefix, lower), where.lower().inclusive() ? -1 : 1)
                    : view.cellName(prefix, -1);
            byte[] high = upper != null ? view.cellName(with(prefix, upper), where.upper().inclusive() ? 1 : -1)
                    : view.cellName(prefix, 1);
            return ordered(view, low, high, reversed, false, List.of());
        }
        if (!prefix.isEmpty()) {
            byte[] name = CompactView.bytes(prefix.get(0));
            return ordered(view, name, name, reversed, name.length == 0, List.of());
        }
        List<byte[]> excluded = new ArrayList<>();
        byte[] low = lower == null ? new byte[0] : CompactView.bytes(lower);
        byte[] high = upper == null ? new byte[0] : CompactView.bytes(upper);
        if (lower != null && !where.lower().inclusive()) excluded.add(low);
        if (upper != null && !where.upper().inclusive()) excluded.add(high);
        // An empty upper bound would be open in the store; in CQL nothing sorts below the empty value.
        boolean empty = upper != null && high.length == 0;
        if (view.storedDescending()) return ordered(view, high, low, reversed, empty, excluded);
        return ordered(view, low, high, reversed, empty, excluded);
    }

    private static Slice ordered(CompactView view, byte[] first, byte[] last, boolean reversed, boolean empty,
                                 List<byte[]> excluded) {
        return reversed ? new Slice(view, last, first, true, empty, excluded)
                : new Slice(view, first, last, false, empty, excluded);
    }

    private static ByteBuffer bound(CompactView view, Where.Bound bound, Bindings values, int at) {
        if (bound == null) return null;
        String name = CompactView.clusteringName(at);
        return Keys.clustering(values.bytes(bound.term(), view.type(at), name), name);
    }

    private static List<ByteBuffer> with(List<ByteBuffer> prefix, ByteBuffer last) {
        List<ByteBuffer> all = new ArrayList<>(prefix);
        all.add(last);
        return all;
    }

    /** Whether nothing can match. */
    boolean empty() {
        return empty;
    }

    boolean reversed() {
        return reversed;
    }

    /** The store's selection: at most {@code max} of the cells this slice admits, or for IN, the names it lists. */
    ColumnSelection selection(int max) {
        return names != null ? new ColumnSelection.Names(names) : range(max);
    }

    /** The cells the store found, in the slice's order, without those it excludes. */
    List<Cell> arranged(List<Cell> found) {
        List<Cell> cells = new ArrayList<>(found.size());
        for (Cell c : found) {
            if (admits(c.name())) cells.add(c);
        }
        // The store answers names in the comparator's order, whatever the direction asked.
        if (names != null && reversed) Collections.reverse(cells);
        return cells;
    }

    /** The names {@code column1 IN (...)} selects; null for a range. */
    List<byte[]> names() {
        return names;
    }

    /** The store's range of the cells, at most {@code max} of the cells this slice admits. */
    ColumnSelection.Range range(int max) {
        long count = (long) max + excluded.size();
        return new ColumnSelection.Range(start, finish, reversed, (int) Math.min(Integer.MAX_VALUE, count));
    }

    private boolean admits(byte[] name) {
        for (byte[] e : excluded) {
            if (view.cf().comparator().compare(name, e) == 0) return false;
        }
        return true;
    }
}
