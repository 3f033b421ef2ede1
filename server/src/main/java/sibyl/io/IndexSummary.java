package sibyl.io;

import java.util.Arrays;
import java.util.List;
import sibyl.dht.DecoratedKey;

/**
 * The in-memory sample of an index file: every IndexInterval-th key with the position of its
 * entry. A lookup binary-searches the sample and scans only the stretch of index entries between
 * two samples. Immutable.
 */
final class IndexSummary {
    private final DecoratedKey[] keys;
    private final long[] positions;
    private final long indexLength;
    private final int interval;

    IndexSummary(List<DecoratedKey> keys, long[] positions, long indexLength, int interval) {
        if (keys.size() != positions.length) throw new IllegalArgumentException("keys and positions differ in number");
        this.keys = keys.toArray(new DecoratedKey[0]);
        this.positions = positions.clone();
        this.indexLength = indexLength;
        this.interval = interval;
    }

    int interval() {
        return interval;
    }

    List<DecoratedKey> keys() {
        return Arrays.asList(keys.clone());
    }

    /** The sample at or before {@code key}, or -1 when {@code key} sorts before every sampled key. */
    int floor(DecoratedKey key) {
        int i = Arrays.binarySearch(keys, key);
        return i >= 0 ? i : -i - 2;
    }

    /** Where the stretch of entries starting at sample {@code i} begins in the index file. */
    long stretchStart(int i) {
        return i < 0 ? 0 : positions[i];
    }

    /** Where that stretch ends: the next sample's entry, or the end of the index. */
    long stretchEnd(int i) {
        return i + 1 < positions.length ? positions[i + 1] : indexLength;
    }
}
