package sibyl.commitlog;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import sibyl.db.KSMetaData;
import sibyl.db.LogPosition;

/**
 * Per column family, where replay must begin: the position its SSTables hold everything up to.
 * Looked up once per column family (asking the stores walks their SSTables), then remembered for
 * the rest of the replay, during which no flush runs. Not thread-safe: one replay uses it.
 */
final class ReplayPoints {
    /** Stands for column families no longer configured (compared by identity). */
    private static final LogPosition GONE = new LogPosition(Long.MAX_VALUE, Long.MAX_VALUE);

    /** A column family met in an outline, by its UTF-8 name. */
    private record Point(String name, LogPosition flushed) {
    }

    private final Function<String, Optional<KSMetaData>> schema;
    private final FlushedPositions flushed;
    /** Keyspace, then column family, to its point; {@link #GONE} for those no longer configured. */
    private final Map<String, Map<String, LogPosition>> known = new HashMap<>();
    /** The same by UTF-8 bytes, so that an outline's names need no decoding after their first time. */
    private final Map<ByteBuffer, String> keyspaceNames = new HashMap<>();
    private final Map<String, Map<ByteBuffer, Point>> byBytes = new HashMap<>();
    private final OutlineReader outlineReader = new OutlineReader();

    ReplayPoints(Function<String, Optional<KSMetaData>> schema, FlushedPositions flushed) {
        this.schema = schema;
        this.flushed = flushed;
    }

    /** The flushed position of a configured column family. */
    LogPosition upTo(String keyspace, String columnFamily) {
        LogPosition p = lookUp(keyspace, columnFamily);
        if (p == GONE) throw new IllegalArgumentException(keyspace + "." + columnFamily + " is not configured");
        return p;
    }

    /** The flushed position of a column family; empty when it is no longer configured. */
    Optional<LogPosition> ifConfigured(String keyspace, String columnFamily) {
        LogPosition p = lookUp(keyspace, columnFamily);
        return p == GONE ? Optional.empty() : Optional.of(p);
    }

    /**
     * Whether an entry ending at {@code at} holds a delta of a configured column family that its
     * SSTables do not hold yet, judged from the payload's outline alone. A payload whose outline
     * does not read answers true, so it goes on to be checked (and reported) in full. Deltas of
     * column families no longer configured are named to {@code unknown}.
     */
    boolean anyAfter(ByteBuffer payload, LogPosition at, Set<String> unknown) {
        outlineReader.begin(at, unknown);
        try {
            ResolvedMutationSerializer.outline(payload, outlineReader);
        } catch (IOException e) {
            return true;
        }
        return outlineReader.any;
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

    private static ByteBuffer copy(ByteBuffer bytes) {
        ByteBuffer copy = ByteBuffer.allocate(bytes.remaining());
        copy.put(bytes.duplicate()).flip();
        return copy;
    }

    private static String decode(ByteBuffer utf8) {
        return StandardCharsets.UTF_8.decode(utf8.duplicate()).toString();
    }

    /** Judges one entry's names as the outline hands them over. */
    private final class OutlineReader implements ResolvedMutationSerializer.OutlineVisitor {
        private LogPosition at;
        private Set<String> unknown;
        private String keyspace;
        private Map<ByteBuffer, Point> points;
        private boolean any;

        void begin(LogPosition at, Set<String> unknown) {
            this.at = at;
            this.unknown = unknown;
            this.any = false;
        }

        @Override
        public void keyspace(ByteBuffer utf8) {
            keyspace = keyspaceNames.get(utf8);
            if (keyspace == null) {
                keyspace = decode(utf8);
                keyspaceNames.put(copy(utf8), keyspace);
            }
            points = byBytes.computeIfAbsent(keyspace, k -> new HashMap<>());
        }

        @Override
        public void columnFamily(ByteBuffer utf8) {
            Point p = points.get(utf8);
            if (p == null) {
                String name = decode(utf8);
                p = new Point(name, lookUp(keyspace, name));
                points.put(copy(utf8), p);
            }
            if (p.flushed() == GONE) {
                unknown.add(keyspace + "." + p.name());
            } else if (at.compareTo(p.flushed()) > 0) {
                any = true;
            }
        }
    }
}
