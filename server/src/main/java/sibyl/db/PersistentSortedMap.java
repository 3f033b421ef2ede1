package sibyl.db;

import java.util.Comparator;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.function.BinaryOperator;

/**
 * An immutable sorted map: {@link #plus} returns a new map sharing all but O(log n) nodes with
 * the old one (an AVL tree with path copying). This is what lets a row change by one column in
 * O(log n) while every reader keeps iterating the exact version it started with, without locks.
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
    private final Node<K, V> root;
    private final int size;

    private PersistentSortedMap(Comparator<? super K> comparator, Node<K, V> root, int size) {
        this.comparator = comparator;
        this.root = root;
        this.size = size;
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
    public V get(K key) {
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
        return new PersistentSortedMap<>(comparator, insert(root, key, value, combine), present ? size : size + 1);
    }

    /** The values in ascending key order. */
    @Override
    public Iterator<V> iterator() {
        return ascendingFrom(null);
    }

    /** Values with keys >= {@code from} in ascending order; null {@code from} = from the first. */
    public Iterator<V> ascendingFrom(K from) {
        return new Walk(from, false);
    }

    /** Values with keys <= {@code from} in descending order; null {@code from} = from the last. */
    public Iterator<V> descendingFrom(K from) {
        return new Walk(from, true);
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

    private static int height(Node<?, ?> n) {
        return n == null ? 0 : n.height;
    }

    /**
     * In-order walk from a bound, keeping the path still to visit on a stack. The stack never
     * holds more nodes than the tree is high, so it is an array of that size: rows are iterated
     * on every write (to log and measure them), and most rows are small.
     */
    private final class Walk implements Iterator<V> {
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
        public V next() {
            if (depth == 0) throw new NoSuchElementException();
            Node<K, V> n = stack[--depth];
            stack[depth] = null;
            Node<K, V> m = descending ? n.left : n.right;
            while (m != null) {
                push(m);
                m = descending ? m.right : m.left;
            }
            return n.value;
        }
    }
}
