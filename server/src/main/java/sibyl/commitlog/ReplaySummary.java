package sibyl.commitlog;

import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What a start-up replay of the commit log did, Cassandra 0.6's segments included.
 *
 * @param segments               segment files read, Sibyl's and 0.6's
 * @param entries                entries applied, from both
 * @param damagedSegments        segments whose reading met a torn or corrupt entry or header
 * @param elapsed                how long reading and applying took
 * @param legacySegments         Cassandra 0.6 segments read (part of {@code segments}): once what they gave is
 *                               flushed, {@link CommitLog#confirmLegacyReplay} keeps them from being replayed again
 * @param legacyEntries          entries applied from those (part of {@code entries})
 * @param legacySegmentsReplayedBefore Cassandra 0.6 segments passed over, as replayed and confirmed at an earlier start
 * @param legacyColumnFamilies   per keyspace, the column families that received deltas from 0.6 segments: what
 *                               must be flushed before {@link CommitLog#confirmLegacyReplay}
 */
public record ReplaySummary(int segments, long entries, int damagedSegments, Duration elapsed, int legacySegments,
                            long legacyEntries, int legacySegmentsReplayedBefore,
                            Map<String, Set<String>> legacyColumnFamilies) {
    public ReplaySummary {
        Map<String, Set<String>> copy = new TreeMap<>();
        legacyColumnFamilies.forEach((ks, cfs) -> copy.put(ks, Collections.unmodifiableSet(new TreeSet<>(cfs))));
        legacyColumnFamilies = Collections.unmodifiableMap(copy);
    }

    /** A replay of Sibyl's own segments only. */
    public ReplaySummary(int segments, long entries, int damagedSegments, Duration elapsed) {
        this(segments, entries, damagedSegments, elapsed, 0, 0, 0, Map.of());
    }
}
