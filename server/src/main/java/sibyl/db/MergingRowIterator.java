package sibyl.db;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.PriorityQueue;
import sibyl.dht.DecoratedKey;

/**
 * Merges several ring-ordered row iterators into one, reconciling the versions of a key that
 * more than one source holds. Used by reads across a store's sources and by compaction.
 */
public final class MergingRowIterator implements Iterator<Map.Entry<DecoratedKey, ColumnFamily>> {
    private static final class Head implements Comparable<Head> {
        final Iterator<Map.Entry<DecoratedKey, ColumnFamily>> rest;
        Map.Entry<DecoratedKey, ColumnFamily> current;

        Head(Iterator<Map.Entry<DecoratedKey, ColumnFamily>> rest) {
            this.rest = rest;
            this.current = rest.next();
        }

        boolean advance() {
            if (!rest.hasNext()) return false;
            current = rest.next();
            return true;
        }

        @Override
        public int compareTo(Head o) {
            return current.getKey().compareTo(o.current.getKey());
        }
    }

    private final PriorityQueue<Head> heads = new PriorityQueue<>();

    MergingRowIterator(List<Iterator<Map.Entry<DecoratedKey, ColumnFamily>>> sources) {
        for (Iterator<Map.Entry<DecoratedKey, ColumnFamily>> it : sources) {
            if (it.hasNext()) heads.add(new Head(it));
        }
    }

    /** One iterator over the sources: the only one itself when there is just one. */
    public static Iterator<Map.Entry<DecoratedKey, ColumnFamily>> of(List<Iterator<Map.Entry<DecoratedKey, ColumnFamily>>> sources) {
        return sources.size() == 1 ? sources.get(0) : new MergingRowIterator(sources);
    }

    @Override
    public boolean hasNext() {
        return !heads.isEmpty();
    }

    /**
     * The next key with its versions merged. The merge happens when the value is first asked
     * for, not here: a reader that only looks at the key (where a range ends) never decodes
     * the row, so a row a source cannot read fails only the reads that want it.
     */
    @Override
    public Map.Entry<DecoratedKey, ColumnFamily> next() {
        if (heads.isEmpty()) throw new NoSuchElementException();
        Head first = heads.poll();
        Map.Entry<DecoratedKey, ColumnFamily> row = first.current;
        requeue(first);
        if (heads.isEmpty() || !heads.peek().current.getKey().equals(row.getKey())) return row;
        List<Map.Entry<DecoratedKey, ColumnFamily>> versions = new ArrayList<>();
        versions.add(row);
        while (!heads.isEmpty() && heads.peek().current.getKey().equals(row.getKey())) {
            Head same = heads.poll();
            versions.add(same.current);
            requeue(same);
        }
        return new MergedRow(row.getKey(), versions);
    }

    /**
     * The versions of a row this iterator returned, not merged (one when a single source held the key), for a
     * reader that wants only part of the row and merges only that part. Reads the value of each: a version a
     * source cannot read fails here.
     */
    public static List<ColumnFamily> versions(Map.Entry<DecoratedKey, ColumnFamily> row) {
        if (!(row instanceof MergedRow merged) || merged.versions == null) return List.of(row.getValue());
        List<ColumnFamily> versions = new ArrayList<>(merged.versions.size());
        for (Map.Entry<DecoratedKey, ColumnFamily> version : merged.versions) versions.add(version.getValue());
        return versions;
    }

    /** A key several sources hold, its versions merged on first use. */
    private static final class MergedRow implements Map.Entry<DecoratedKey, ColumnFamily> {
        private final DecoratedKey key;
        private List<Map.Entry<DecoratedKey, ColumnFamily>> versions;
        private ColumnFamily merged;

        MergedRow(DecoratedKey key, List<Map.Entry<DecoratedKey, ColumnFamily>> versions) {
            this.key = key;
            this.versions = versions;
        }

        @Override
        public DecoratedKey getKey() {
            return key;
        }

        @Override
        public ColumnFamily getValue() {
            if (merged == null) {
                List<ColumnFamily> values = new ArrayList<>(versions.size());
                for (Map.Entry<DecoratedKey, ColumnFamily> v : versions) values.add(v.getValue());
                merged = ColumnFamily.mergeAll(values);
                versions = null;
            }
            return merged;
        }

        @Override
        public ColumnFamily setValue(ColumnFamily value) {
            throw new UnsupportedOperationException();
        }
    }

    private void requeue(Head head) {
        if (head.advance()) heads.add(head);
    }
}
