package sibyl.db;

import java.util.AbstractMap;
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

    @Override
    public Map.Entry<DecoratedKey, ColumnFamily> next() {
        if (heads.isEmpty()) throw new NoSuchElementException();
        Head first = heads.poll();
        DecoratedKey key = first.current.getKey();
        ColumnFamily row = first.current.getValue();
        requeue(first);
        while (!heads.isEmpty() && heads.peek().current.getKey().equals(key)) {
            Head same = heads.poll();
            row = ColumnFamily.merge(row, same.current.getValue());
            requeue(same);
        }
        return new AbstractMap.SimpleImmutableEntry<>(key, row);
    }

    private void requeue(Head head) {
        if (head.advance()) heads.add(head);
    }
}
