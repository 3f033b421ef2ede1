package sibyl.storage;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import sibyl.db.KSMetaData;
import sibyl.db.LogPosition;
import sibyl.db.ResolvedMutationSerializer;

/**
 * Per column family, where replay must begin: the position its SSTables hold everything up to.
 * Looked up once per column family (asking the stores walks their SSTables), then remembered for
 * the rest of the replay, during which no flush runs.
 */
final class ReplayPoints {
    private final Function<String, Optional<KSMetaData>> schema;
    private final FlushedPositions flushed;
    /** Keyspace, then column family, to its point; {@link #GONE} for those no longer configured. */
    private final Map<String, Map<String, LogPosition>> known = new HashMap<>();

    ReplayPoints(Function<String, Optional<KSMetaData>> schema, FlushedPositions flushed) {
        this.schema = schema;
        this.flushed = flushed;
    }

    /** Stands for column families no longer configured (compared by identity). */
    private static final LogPosition GONE = new LogPosition(Long.MAX_VALUE, Long.MAX_VALUE);

    /** The flushed position of a configured column family. */
    LogPosition upTo(String keyspace, String columnFamily) {
        LogPosition p = lookUp(keyspace, columnFamily);
        if (p == GONE) throw new IllegalArgumentException(keyspace + "." + columnFamily + " is not configured");
        return p;
    }

    /** Looked up once per column family: the stores' answer walks their SSTables. */
    private LogPosition lookUp(String keyspace, String columnFamily) {
        Map<String, LogPosition> ofKeyspace = known.computeIfAbsent(keyspace, k -> new HashMap<>());
        LogPosition p = ofKeyspace.get(columnFamily);
        if (p == null) {
            boolean configured = schema.apply(keyspace).flatMap(ks -> ks.columnFamily(columnFamily)).isPresent();
            p = configured ? flushed.upTo(keyspace, columnFamily) : GONE;
            ofKeyspace.put(columnFamily, p);
        }
        return p;
    }

    /**
     * Whether an entry ending at {@code at} holds a delta of a configured column family that its
     * SSTables do not hold yet, judged from the payload's outline alone. A payload whose outline
     * does not read answers true, so it goes on to be checked (and reported) in full. Deltas of
     * column families no longer configured are named to {@code unknown}.
     */
    boolean anyAfter(ByteBuffer payload, LogPosition at, Set<String> unknown) {
        ResolvedMutationSerializer.Outline outline;
        try {
            outline = ResolvedMutationSerializer.outline(payload);
        } catch (IOException e) {
            return true;
        }
        boolean any = false;
        for (String cf : outline.columnFamilies()) {
            LogPosition p = lookUp(outline.keyspace(), cf);
            if (p == GONE) {
                unknown.add(outline.keyspace() + "." + cf);
            } else if (at.compareTo(p) > 0) {
                any = true;
            }
        }
        return any;
    }
}
