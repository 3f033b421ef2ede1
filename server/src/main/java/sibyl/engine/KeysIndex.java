package sibyl.engine;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.TreeSet;
import sibyl.dht.DecoratedKey;

/**
 * The KEYS index of one column: for each value, the keys of the rows whose live column has it, in ring order, and
 * for each key the value it is listed under, so that a new value moves the row rather than leaving an entry behind.
 * A key is listed under one value at most: the index never holds more entries than the column family has rows.
 * Thread-safe; every method holds the index's monitor for the time of one map operation.
 */
final class KeysIndex {
    private final Map<ByteBuffer, NavigableSet<DecoratedKey>> byValue = new HashMap<>();
    private final Map<DecoratedKey, ByteBuffer> valueOf = new HashMap<>();

    /** Lists {@code key} under {@code value}, or under none when {@code value} is null (no live column). */
    synchronized void set(DecoratedKey key, byte[] value) {
        ByteBuffer now = value == null ? null : ByteBuffer.wrap(value);
        ByteBuffer before = now == null ? valueOf.remove(key) : valueOf.put(key, now);
        if (before != null && !before.equals(now)) {
            NavigableSet<DecoratedKey> keys = byValue.get(before);
            keys.remove(key);
            if (keys.isEmpty()) byValue.remove(before);
        }
        if (now != null && !now.equals(before)) byValue.computeIfAbsent(now, v -> new TreeSet<>()).add(key);
    }

    /**
     * Up to {@code limit} keys listed under {@code value}, in ring order, from {@code from} on ({@code from} itself
     * included when {@code inclusive}); a copy, so that the caller reads the rows without holding the index.
     */
    synchronized List<DecoratedKey> keys(byte[] value, DecoratedKey from, boolean inclusive, int limit) {
        NavigableSet<DecoratedKey> keys = byValue.get(ByteBuffer.wrap(value));
        if (keys == null) return List.of();
        List<DecoratedKey> some = new ArrayList<>(Math.min(limit, keys.size()));
        for (DecoratedKey key : keys.tailSet(from, inclusive)) {
            if (some.size() == limit) break;
            some.add(key);
        }
        return some;
    }

    /** How many rows are listed (each under one value). */
    synchronized int size() {
        return valueOf.size();
    }

    /** How many keys are listed under {@code value}. */
    synchronized int count(byte[] value) {
        NavigableSet<DecoratedKey> keys = byValue.get(ByteBuffer.wrap(value));
        return keys == null ? 0 : keys.size();
    }
}
