package sibyl.engine;

import java.util.Map;
import java.util.Set;

/**
 * What a start-up replay of the log did, as far as the engine reports and acts on it.
 *
 * @param segments             segment files read, the node's own and Cassandra 0.6's
 * @param entries              entries applied, from both
 * @param legacySegments       Cassandra 0.6 segments read (part of {@code segments})
 * @param legacyEntries        entries applied from those (part of {@code entries})
 * @param legacyColumnFamilies per keyspace, the column families that received writes from 0.6 segments: what
 *                             must be flushed before {@link RecoverableLog#confirmLegacyReplay}
 */
public record LogReplay(int segments, long entries, int legacySegments, long legacyEntries,
                        Map<String, Set<String>> legacyColumnFamilies) {
    public LogReplay {
        legacyColumnFamilies = Map.copyOf(legacyColumnFamilies);
    }
}
