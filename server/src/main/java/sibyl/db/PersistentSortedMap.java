package sibyl.db;

import java.util.Arrays;
import java.util.Comparator;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.function.BinaryOperator;

/**
 * An immutable sorted map: {@link #plus} returns a new map sharing all but O(log n) nodes with
 * the old one (an AVL tree with path copying). This is what lets a row change by one column in
 * O(log n) while every reader keeps iterating the exact version it started with, without locks.
 *
 * <p>A map made whole ({@link Builder}, or two maps merged by {@link #plusAll}) is kept as two
 * sorted arrays instead, searched by bisection: a row of n columns then costs two arrays, not n
 * nodes (nor the n·log n nodes that n single inserts allocate on their paths). Such a map turns
 * into a tree, in O(n), only when something is inserted into it; most rows never are (a batch's
 * delta, a row read back from a log or an SSTable, a compacted row).
 *
 * <p>Keys and values are never null. The comparator must be consistent for the map's lifetime.
 */
public final class PersistentSortedMap<K, V> implements Iterable<V> {
    private static final class Node<K, V> {
        final K key;
        final V value;
        final Node<K, V> left;
        final Node<K, V> right;
        final int height;

        Node(K key, V value, Node<K, V> left, Node<K, V> right) {
            this.key = key;
            this.value = value;
            this.left = left;
            this.right = right;
            this.height = 1 + Math.max(height(left), height(right));
        }
    }

    private final Comparator<? super K> comparator;
    private final int size;
    /** The entries when the map is a tree; null when it is empty or arrays. */
    private final Node<K, V> root;
    /** The entries when the map is arrays, strictly ascending by key in [0, size); else null. Never changed. */
    private final Object[] keys;
    private final Object[] values;
    /**
     * For a map of arrays, the same entries as a tree, made for the first insert and kept for
     * the next. Set without synchronization: two threads may each build one, and a thread that
     * sees another's sees it whole, because nodes have only final fields.
     */
    private Node<K, V> tree;

    private PersistentSortedMap(Comparator<? super K> comparator, Node<K, V> root, int size) {
        this.comparator = comparator;
        this.root = root;
        this.size = size;
        this.keys = null;
        this.values = null;
    }

    private PersistentSortedMap(Comparator<? super K> comparator, Object[] keys, Object[] values, int size) {
        this.comparator = comparator;
        this.root = null;
        this.size = size;
        this.keys = keys;
        this.values = values;
    }

    public static <K, V> PersistentSortedMap<K, V> empty(Comparator<? super K> comparator) {
        return new PersistentSortedMap<>(comparator, null, 0);
    }

    public Comparator<? super K> comparator() {
        return comparator;
    }

    public int size() {
        return size;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    /** The value under {@code key}, or null. */
    @SuppressWarnings("unchecked")
    public V get(K key) {
        if (keys != null) {
            int i = indexOf(key);
            return i >= 0 ? (V) values[i] : null;
        }
        Node<K, V> n = root;
        while (n != null) {
            int c = comparator.compare(key, n.key);
            if (c == 0) return n.value;
            n = c < 0 ? n.left : n.right;
        }
        return null;
    }

    /**
     * A map with {@code value} under {@code key}; if the key is present already, with
     * {@code combine.apply(existing, value)} instead.
     */
    public PersistentSortedMap<K, V> plus(K key, V value, BinaryOperator<V> combine) {
        boolean present = get(key) != null;
        return new PersistentSortedMap<>(comparator, insert(tree(), key, value, combine), present ? size : size + 1);
    }

    /**
     * A map with the entries of both; on a key present in both, {@code combine.apply(this map's
     * value, other's value)}. The two maps must share the comparator.
     *
     * <p>Costs O(m·log n) when {@code other} (m entries) is much smaller than this map (n),
     * inserting its entries one by one into this tree; otherwise O(n + m), merging the two in
     * order into new arrays. The choice goes by which allocates less: an insert copies about
     * log n nodes, a merge two arrays of n + m.
     */
    public PersistentSortedMap<K, V> plusAll(PersistentSortedMap<K, V> other, BinaryOperator<V> combine) {
        if (other.isEmpty()) return this;
        if (isEmpty()) return other;
        int n = size;
        int m = other.size;
        int pathLength = 32 - Integer.numberOfLeadingZeros(n); // about the depth of a new key
        if ((long) m * pathLength < (long) n + m) {
            PersistentSortedMap<K, V> result = this;
            for (Cursor c = other.cursor(null, false); c.advance(); ) result = result.plus(c.key, c.value, combine);
            return result;
        }
        return merge(this, other, combine);
    }

    /** Both maps merged by one walk over each, into arrays. */
    private static <K, V> PersistentSortedMap<K, V> merge(PersistentSortedMap<K, V> a, PersistentSortedMap<K, V> b,
                                                          BinaryOperator<V> combine) {
        Comparator<? super K> comparator = a.comparator;
        Object[] keys = new Object[a.size + b.size];
        Object[] values = new Object[keys.length];
        int count = 0;
        PersistentSortedMap<K, V>.Cursor x = a.cursor(null, false);
        PersistentSortedMap<K, V>.Cursor y = b.cursor(null, false);
        boolean moreX = x.advance();
        boolean moreY = y.advance();
        while (moreX && moreY) {
            int c = comparator.compare(x.key, y.key);
            if (c < 0) {
                keys[count] = x.key;
                values[count++] = x.value;
                moreX = x.advance();
            } else if (c > 0) {
                keys[count] = y.key;
                values[count++] = y.value;
                moreY = y.advance();
            } else {
                keys[count] = x.key;
                values[count++] = combine.apply(x.value, y.value);
                moreX = x.advance();
                moreY = y.advance();
            }
        }
        for (; moreX; moreX = x.advance()) {
            keys[count] = x.key;
            values[count++] = x.value;
        }
        for (; moreY; moreY = y.advance()) {
            keys[count] = y.key;
            values[count++] = y.value;
        }
        // Exactly sized: a merged row may live on in a memtable.
        if (count < keys.length) {
            keys = Arrays.copyOf(keys, count);
            values = Arrays.copyOf(values, count);
        }
        return new PersistentSortedMap<>(comparator, keys, values, count);
    }

    /** This map's entries as a tree: its own, or the one made of its arrays. */
    private Node<K, V> tree() {
        if (keys == null) return root;
        Node<K, V> t = tree;
        if (t == null) {
            t = build(keys, values, 0, size);
            tree = t;
        }
        return t;
    }

    /**
     * The subtree of entries {@code [from, to)} of arrays sorted by key, strictly ascending:
     * the middle entry over the two halves, so sibling subtrees differ in size by at most one
     * and in height by at most one, which is all the AVL invariant asks.
     */
    @SuppressWarnings("unchecked")
    private static <K, V> Node<K, V> build(Object[] keys, Object[] values, int from, int to) {
        if (from >= to) return null;
        int mid = (from + to) >>> 1;
        return new Node<>((K) keys[mid], (V) values[mid], build(keys, values, from, mid),
                build(keys, values, mid + 1, to));
    }

    /** Where {@code key} is in the arrays, or -(where it would go) - 1, as Arrays.binarySearch. */
    @SuppressWarnings("unchecked")
    private int indexOf(K key) {
        int low = 0;
        int high = size - 1;
        while (low <= high) {
            int mid = (low + high) >>> 1;
            int c = comparator.compare((K) keys[mid], key);
            if (c < 0) low = mid + 1;
            else if (c > 0) high = mid - 1;
            else return mid;
        }
        return -(low + 1);
    }

    /** The values in ascending key order. */
    @Override
    public Iterator<V> iterator() {
        return ascendingFrom(null);
    }

    /** Values with keys >= {@code from} in ascending order; null {@code from} = from the first. */
    public Iterator<V> ascendingFrom(K from) {
        return cursor(from, false);
    }

    /** Values with keys <= {@code from} in descending order; null {@code from} = from the last. */
    public Iterator<V> descendingFrom(K from) {
        return cursor(from, true);
    }

    private Cursor cursor(K from, boolean descending) {
        return keys != null ? new ArrayWalk(from, descending) : new Walk(from, descending);
    }

    private Node<K, V> insert(Node<K, V> n, K key, V value, BinaryOperator<V> combine) {
        if (n == null) return new Node<>(key, value, null, null);
        int c = comparator.compare(key, n.key);
        if (c == 0) return new Node<>(n.key, combine.apply(n.value, value), n.left, n.right);
        if (c < 0) return balance(n.key, n.value, insert(n.left, key, value, combine), n.right);
        return balance(n.key, n.value, n.left, insert(n.right, key, value, combine));
    }

    private static <K, V> Node<K, V> balance(K key, V value, Node<K, V> l, Node<K, V> r) {
        int hl = height(l);
        int hr = height(r);
        if (hl > hr + 1) {
            if (height(l.left) >= height(l.right)) {
                return new Node<>(l.key, l.value, l.left, new Node<>(key, value, l.right, r));
            }
            Node<K, V> lr = l.right;
            return new Node<>(lr.key, lr.value, new Node<>(l.key, l.value, l.left, lr.left),
                    new Node<>(key, value, lr.right, r));
        }
        if (hr > hl + 1) {
            if (height(r.right) >= height(r.left)) {
                return new Node<>(r.key, r.value, new Node<>(key, value, l, r.left), r.right);
            }
            Node<K, V> rl = r.left;
            return new Node<>(rl.key, rl.value, new Node<>(key, value, l, rl.left),
                    new Node<>(r.key, r.value, rl.right, r.right));
        }
        return new Node<>(key, value, l, r);
    }

    /**
     * Whether the map holds its invariants: keys strictly ascending in order; for a tree, every
     * node's height right and its subtrees' heights within one of each other; the size counted.
     * For tests.
     */
    @SuppressWarnings("unchecked")
    boolean isWellFormed() {
        if (keys != null) {
            if (keys.length < size || values.length < size) return false;
            for (int i = 1; i < size; i++) {
                if (comparator.compare((K) keys[i - 1], (K) keys[i]) >= 0) return false;
            }
            Node<K, V> t = tree;
            return t == null || checkedHeight(t, null, null) >= 0 && count(t) == size;
        }
        return checkedHeight(root, null, null) >= 0 && count(root) == size;
    }

    /** Whether the map is kept as arrays rather than a tree. For tests. */
    boolean isArrays() {
        return keys != null;
    }

    /** The height of a well-formed subtree with keys strictly between the bounds (null = none), else -1. */
    private int checkedHeight(Node<K, V> n, K above, K below) {
        if (n == null) return 0;
        if (above != null && comparator.compare(n.key, above) <= 0) return -1;
        if (below != null && comparator.compare(n.key, below) >= 0) return -1;
        int hl = checkedHeight(n.left, above, n.key);
        int hr = checkedHeight(n.right, n.key, below);
        if (hl < 0 || hr < 0 || Math.abs(hl - hr) > 1 || n.height != 1 + Math.max(hl, hr)) return -1;
        return n.height;
    }

    private static int count(Node<?, ?> n) {
        return n == null ? 0 : 1 + count(n.left) + count(n.right);
    }

    private static int height(Node<?, ?> n) {
        return n == null ? 0 : n.height;
    }

    /** Walks entries in order from a bound; {@link #advance} moves to the next and exposes it. */
    private abstract class Cursor implements Iterator<V> {
        /** The entry last advanced to. */
        K key;
        V value;

        /** Moves to the next entry; false when there is none. */
        abstract boolean advance();

        @Override
        public V next() {
            if (!advance()) throw new NoSuchElementException();
            return value;
        }
    }

    /** A walk over the arrays, from the bound found by bisection. */
    private final class ArrayWalk extends Cursor {
        private final boolean descending;
        private int next;

        ArrayWalk(K from, boolean descending) {
            this.descending = descending;
            if (from == null) {
                next = descending ? size - 1 : 0;
            } else {
                int i = indexOf(from);
                // Not there: -i - 1 is the first key above it, and the one before is the last below.
                next = i >= 0 ? i : descending ? -i - 2 : -i - 1;
            }
        }

        @Override
        public boolean hasNext() {
            return descending ? next >= 0 : next < size;
        }

        @Override
        @SuppressWarnings("unchecked")
        boolean advance() {
            if (!hasNext()) return false;
            key = (K) keys[next];
            value = (V) values[next];
            next += descending ? -1 : 1;
            return true;
        }
    }

    /**
     * In-order walk of the tree from a bound, keeping the path still to visit on a stack. The
     * stack never holds more nodes than the tree is high, so it is an array of that size: rows
     * are iterated on every write (to log and measure them), and most rows are small.
     */
    private final class Walk extends Cursor {
        private final Node<K, V>[] stack;
        private int depth;
        private final boolean descending;

        @SuppressWarnings("unchecked")
        Walk(K from, boolean descending) {
            this.descending = descending;
            this.stack = (Node<K, V>[]) new Node<?, ?>[height(root)];
            Node<K, V> n = root;
            while (n != null) {
                int c = from == null ? (descending ? 1 : -1) : comparator.compare(from, n.key);
                if (c == 0) {
                    push(n);
                    break;
                }
                // Ascending: n is to be visited when from < n.key; descending when from > n.key.
                if ((c < 0) != descending) {
                    push(n);
                    n = descending ? n.right : n.left;
                } else {
                    n = descending ? n.left : n.right;
                }
            }
        }

        private void push(Node<K, V> n) {
            stack[depth++] = n;
        }

        @Override
        public boolean hasNext() {
            return depth > 0;
        }

        @Override
        boolean advance() {
            if (depth == 0) return false;
            Node<K, V> n = stack[--depth];
            stack[depth] = null;
            Node<K, V> m = descending ? n.left : n.right;
            while (m != null) {
                push(m);
                m = descending ? m.right : m.left;
            }
            key = n.key;
            value = n.value;
            return true;
        }
    }

    /**
     * Collects entries in any order and builds the map at once: O(n) when they came in strictly
     * ascending key order (as a row read back from disk or a log does) or strictly descending
     * (a reversed slice), else O(n·log n) for one sort. Entries with equal keys are combined in the order they were put, as a sequence of
     * {@link #plus} calls would. Not thread-safe; {@link #build} may be called again after more
     * entries are put, and then builds from all of them.
     */
    public static final class Builder<K, V> {
        private final Comparator<? super K> comparator;
        private final BinaryOperator<V> combine;
        private Object[] keys;
        private Object[] values;
        private int count;
        /**
         * Where each run of strictly ascending keys starts, in put order: what the one comparison
         * of each key with the one before it finds, so that the sort merges these runs instead
         * of starting from single entries (a batch's names often come in ascending stretches).
         */
        private int[] runStarts = new int[4];
        private int runs;
        /** Every key below the one before it: the entries are the reverse of a sorted row. */
        private boolean descending = true;
        /** The arrays belong to a map built from them too: copy them before changing them. */
        private boolean shared;

        public Builder(Comparator<? super K> comparator, BinaryOperator<V> combine, int expectedSize) {
            this.comparator = comparator;
            this.combine = combine;
            int capacity = Math.max(4, expectedSize);
            this.keys = new Object[capacity];
            this.values = new Object[capacity];
        }

        @SuppressWarnings("unchecked")
        public Builder<K, V> put(K key, V value) {
            if (key == null || value == null) throw new NullPointerException("null key or value");
            if (count == keys.length || shared) {
                int capacity = count == keys.length ? count * 2 : keys.length;
                keys = Arrays.copyOf(keys, capacity);
                values = Arrays.copyOf(values, capacity);
                shared = false;
            }
            int c = count == 0 ? 1 : comparator.compare((K) keys[count - 1], key);
            if (c >= 0) {
                if (runs == runStarts.length) runStarts = Arrays.copyOf(runStarts, runs * 2);
                runStarts[runs++] = count;
            }
            if (c <= 0) descending = false;
            keys[count] = key;
            values[count++] = value;
            return this;
        }

        public int size() {
            return count;
        }

        public PersistentSortedMap<K, V> build() {
            if (runs > 1) {
                if (descending) reverse();
                else sortAndCombine();
                runs = 1;
                descending = count <= 1;
            }
            // One entry takes less room as a node than as two arrays.
            if (count <= 1) return new PersistentSortedMap<>(comparator, PersistentSortedMap.build(keys, values, 0, count), count);
            if (count < keys.length) { // exactly sized: the map may live on in a memtable
                keys = Arrays.copyOf(keys, count);
                values = Arrays.copyOf(values, count);
            }
            shared = true;
            return new PersistentSortedMap<>(comparator, keys, values, count);
        }

        private void reverse() {
            for (int i = 0, j = count - 1; i < j; i++, j--) {
                Object k = keys[i];
                keys[i] = keys[j];
                keys[j] = k;
                Object v = values[i];
                values[i] = values[j];
                values[j] = v;
            }
        }

        /**
         * Sorts the entries by key, stably, merging neighbouring runs of positions until one is
         * left (ties go to the earlier run); then, if any merge met equal keys, folds each stretch
         * of equal keys into one entry, earliest first.
         */
        @SuppressWarnings("unchecked")
        private void sortAndCombine() {
            int[] order = new int[count];
            for (int i = 0; i < count; i++) order[i] = i;
            int[] scratch = new int[count];
            int[] bounds = Arrays.copyOf(runStarts, runs + 1);
            bounds[runs] = count;
            int runCount = runs;
            boolean equalKeys = false;
            while (runCount > 1) {
                int merged = 0;
                for (int r = 0; r < runCount; r += 2) {
                    int from = bounds[r];
                    int mid = bounds[Math.min(r + 1, runCount)];
                    int to = bounds[Math.min(r + 2, runCount)];
                    int i = from;
                    int j = mid;
                    for (int k = from; k < to; k++) {
                        if (j >= to) {
                            scratch[k] = order[i++];
                        } else if (i >= mid) {
                            scratch[k] = order[j++];
                        } else {
                            int c = comparator.compare((K) keys[order[i]], (K) keys[order[j]]);
                            if (c == 0) equalKeys = true;
                            scratch[k] = c <= 0 ? order[i++] : order[j++];
                        }
                    }
                    bounds[merged++] = from;
                }
                bounds[merged] = count;
                runCount = merged;
                int[] t = order;
                order = scratch;
                scratch = t;
            }
            Object[] sortedKeys = new Object[count];
            Object[] sortedValues = new Object[count];
            int n = 0;
            for (int i : order) {
                K key = (K) keys[i];
                V value = (V) values[i];
                if (equalKeys && n > 0 && comparator.compare((K) sortedKeys[n - 1], key) == 0) {
                    sortedValues[n - 1] = combine.apply((V) sortedValues[n - 1], value);
                } else {
                    sortedKeys[n] = key;
                    sortedValues[n++] = value;
                }
            }
            keys = sortedKeys;
            values = sortedValues;
            count = n;
        }
    }
}
