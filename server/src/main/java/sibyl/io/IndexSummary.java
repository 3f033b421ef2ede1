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
    /** Where each sample's row starts in the data file, or null: only a format without row lengths needs them. */
    private final long[] dataPositions;
    private final long dataLength;

    IndexSummary(List<DecoratedKey> keys, long[] positions, long indexLength, int interval) {
        this(keys, positions, indexLength, interval, null, -1);
    }

    /**
     * A sample that also knows where each sampled row starts in the data file of {@code dataLength} bytes, so a
     * lookup in a Cassandra 0.6 index knows where the rows of a stretch end ({@link #stretchDataEnd}).
     */
    IndexSummary(List<DecoratedKey> keys, long[] positions, long indexLength, int interval, long[] dataPositions,
                 long dataLength) {
        if (keys.size() != positions.length) throw new IllegalArgumentException("keys and positions differ in number");
        if (dataPositions != null && dataPositions.length != positions.length) {
            throw new IllegalArgumentException("index and data positions differ in number");
        }
        this.keys = keys.toArray(new DecoratedKey[0]);
        this.positions = positions.clone();
        this.indexLength = indexLength;
        this.interval = interval;
        this.dataPositions = dataPositions == null ? null : dataPositions.clone();
        this.dataLength = dataLength;
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

    /** Where the rows of that stretch end in the data file: the next sample's row, or the end; -1 when not known. */
    long stretchDataEnd(int i) {
        if (dataPositions == null) return -1;
        return i + 1 < dataPositions.length ? dataPositions[i + 1] : dataLength;
    }
}
