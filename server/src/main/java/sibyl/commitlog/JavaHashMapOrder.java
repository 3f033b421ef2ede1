package sibyl.commitlog;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * The order in which a {@code java.util.HashMap} with default settings (16 buckets, load factor
 * 0.75) hands back String keys put into it one after the other, as the JVMs Cassandra 0.6 ran on
 * did it. 0.6 numbered its column families by walking such maps, so reading its commit log headers
 * means knowing this order for the JVM that wrote them.
 *
 * <p>The releases differ in three ways: how a key's hash is spread before its low bits pick a
 * bucket, whether a new key goes to the head or the tail of its bucket's chain, and when the table
 * doubles (and how chains are moved over when it does). Iteration walks the buckets from the first
 * to the last and each chain from its head.
 */
enum JavaHashMapOrder {
    /** Java 6, and Java 7 before update 6: head insertion, doubling after the insert that reaches the threshold. */
    JAVA_6("Java 6 (or Java 7 before update 6)"),
    /** Java 7 update 6 and later: head insertion, doubling before an insert at the threshold into a used bucket. */
    JAVA_7("Java 7 update 6 or later"),
    /**
     * Java 8 and later: tail insertion, chains split in order on doubling, long chains made trees.
     * The running JVM's own HashMap does exactly this, so it is asked (Sibyl runs on Java 17).
     */
    JAVA_8("Java 8 or later");

    private static final int INITIAL_BUCKETS = 16;
    private static final float LOAD_FACTOR = 0.75f;

    private final String jvms;

    JavaHashMapOrder(String jvms) {
        this.jvms = jvms;
    }

    /** The JVM releases that iterate in this order, for log lines. */
    String jvms() {
        return jvms;
    }

    /** The keys in the order the map iterates them after {@code inserted} were put in that order. */
    List<String> iterationOrder(List<String> inserted) {
        // A key put twice keeps its first place in every release: the value is replaced in its entry.
        List<String> keys = new ArrayList<>(new LinkedHashSet<>(inserted));
        if (this == JAVA_8) {
            Map<String, Boolean> map = new HashMap<>();
            for (String k : keys) map.put(k, Boolean.TRUE);
            return new ArrayList<>(map.keySet());
        }
        return new HeadInsertingTable(this == JAVA_7).iterationOrder(keys);
    }

    /** The hash table of Java 6 and 7, as far as the order of its keys goes. */
    private static final class HeadInsertingTable {
        private record Entry(int hash, String key, Entry next) {
        }

        private final boolean resizeBeforeInsert;
        private Entry[] buckets = new Entry[INITIAL_BUCKETS];
        private int size;
        private int threshold = (int) (INITIAL_BUCKETS * LOAD_FACTOR);

        HeadInsertingTable(boolean resizeBeforeInsert) {
            this.resizeBeforeInsert = resizeBeforeInsert;
        }

        List<String> iterationOrder(List<String> distinctKeys) {
            for (String k : distinctKeys) put(k);
            List<String> order = new ArrayList<>(size);
            for (Entry head : buckets) {
                for (Entry e = head; e != null; e = e.next()) order.add(e.key());
            }
            return order;
        }

        private void put(String key) {
            int hash = spread(key.hashCode());
            if (resizeBeforeInsert && size >= threshold && buckets[index(hash)] != null) resize();
            int i = index(hash);
            buckets[i] = new Entry(hash, key, buckets[i]);
            if (resizeBeforeInsert) {
                size++;
            } else if (size++ >= threshold) {
                resize();
            }
        }

        /** Doubles the table, moving each chain from its head, so each lands reversed at the head of its new bucket. */
        private void resize() {
            Entry[] old = buckets;
            buckets = new Entry[old.length * 2];
            for (Entry head : old) {
                for (Entry e = head; e != null; e = e.next()) {
                    int i = index(e.hash());
                    buckets[i] = new Entry(e.hash(), e.key(), buckets[i]);
                }
            }
            threshold = (int) (buckets.length * LOAD_FACTOR);
        }

        private int index(int hash) {
            return hash & (buckets.length - 1);
        }

        /** Java 6 and 7's supplemental hash, which mixes high bits into the low ones that pick the bucket. */
        private static int spread(int h) {
            h ^= (h >>> 20) ^ (h >>> 12);
            return h ^ (h >>> 7) ^ (h >>> 4);
        }
    }
}
