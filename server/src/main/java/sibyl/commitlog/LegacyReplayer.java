package sibyl.commitlog;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sibyl.db.CFMetaData;
import sibyl.db.ColumnFamily;
import sibyl.db.KSMetaData;
import sibyl.db.ResolvedMutation;

/**
 * Replays Cassandra 0.6 commit log segments as 0.6 itself would have at its next start: each
 * segment from the lowest replay position in its header (not at all when there is none), and of
 * each entry only the deltas of column families its header marks dirty with a replay position at
 * or before the entry's end. Deltas go to the same sink as Sibyl's own entries.
 *
 * <p>The header names column families by 0.6's numbers, which depend on the JVM 0.6 ran on; when
 * {@link LegacyNumberingJudge} cannot tell which numbering the segments use, every delta from the
 * lowest replay position on is replayed, which is never less than 0.6 would have replayed. Writes
 * 0.6 had flushed already may so be applied again: harmless, as the same columns with the same
 * timestamps, unless a tombstone that shadowed one has since been purged by compaction.
 *
 * <p>Segments are only read; whether they are replayed again at the next start is up to the
 * {@link LegacyReplayManifest}.
 */
final class LegacyReplayer {
    private static final Logger log = LoggerFactory.getLogger(LegacyReplayer.class);

    /**
     * What replay did.
     *
     * @param segments       segments read
     * @param entries        entries of which at least one delta was applied
     * @param damaged        segments with a torn, corrupt or undecodable entry
     * @param columnFamilies per keyspace, the column families that received deltas
     */
    record Result(int segments, long entries, int damaged, Map<String, Set<String>> columnFamilies) {
    }

    private final Function<String, Optional<KSMetaData>> schema;
    private final Consumer<ResolvedMutation> sink;
    private final Set<String> unknown = new TreeSet<>();
    private final Map<String, Set<String>> applied = new TreeMap<>();
    private long entries;
    private long passedOver;
    private int damaged;

    private LegacyReplayer(Function<String, Optional<KSMetaData>> schema, Consumer<ResolvedMutation> sink) {
        this.schema = schema;
        this.sink = sink;
    }

    /**
     * @param segments          oldest first
     * @param keyspacesInOrder  the configured keyspaces in file order, for 0.6's numbers; empty when unknown
     * @param schema            the keyspaces configured now, by name
     * @throws IOException when a segment cannot be read, or holds a delta that does not fit the configuration
     *                     (then nothing was replayed)
     */
    static Result replay(List<LegacySegment> segments, Optional<List<KSMetaData>> keyspacesInOrder,
                         Function<String, Optional<KSMetaData>> schema, Consumer<ResolvedMutation> sink)
            throws IOException {
        if (segments.isEmpty()) return new Result(0, 0, 0, Map.of());
        List<LegacyColumnFamilyIds.Numbering> candidates =
                keyspacesInOrder.map(LegacyColumnFamilyIds::candidates).orElse(List.of());
        LegacyNumberingJudge.Verdict verdict = LegacyNumberingJudge.judge(segments, candidates, schema);
        List<String> names = segments.stream().map(s -> s.file().getFileName().toString()).toList();
        if (verdict.numbering().isPresent()) {
            log.info("Cassandra 0.6 commit log segments {}: reading the column family numbers in their headers in the"
                    + " order of {}, as {}", names, verdict.numbering().get().jvms(), verdict.reason());
        } else {
            log.warn("Cassandra 0.6 commit log segments {}: cannot tell which column family each number in their"
                    + " headers stands for, as {}. Replaying every column family's entries from where 0.6 would"
                    + " have begun, which may apply again writes 0.6 had flushed (harmless, unless a tombstone"
                    + " shadowing one has been purged since)", names, verdict.reason());
        }
        LegacyReplayer replayer = new LegacyReplayer(schema, sink);
        for (LegacySegment segment : segments) replayer.replay(segment, verdict.numbering());
        if (replayer.passedOver > 0) {
            log.info("Cassandra 0.6 commit log replay passed over {} column family deltas its headers show flushed",
                    replayer.passedOver);
        }
        if (!replayer.unknown.isEmpty()) {
            log.warn("Cassandra 0.6 commit log replay skipped entries of column families not configured: {}",
                    replayer.unknown);
        }
        return new Result(segments.size(), replayer.entries, replayer.damaged, replayer.appliedColumnFamilies());
    }

    private void replay(LegacySegment segment, Optional<LegacyColumnFamilyIds.Numbering> numbering) throws IOException {
        long from = segment.header().lowestPosition();
        if (from == 0) {
            log.info("Cassandra 0.6 commit log segment {} holds nothing to replay: its header marks no column family"
                    + " with unflushed entries", segment.file());
            return;
        }
        long before = entries;
        LegacyEntryReader.Outcome outcome = LegacyEntryReader.read(segment.file(), from, (start, end, bytes) -> {
            LegacyMutation mutation = LegacyMutation.decode(bytes);
            List<ColumnFamily> rows = new ArrayList<>(mutation.rows().size());
            Optional<KSMetaData> ks = schema.apply(mutation.keyspace());
            for (LegacyMutation.Row row : mutation.rows()) {
                String name = mutation.keyspace() + "." + row.columnFamily();
                Optional<CFMetaData> cf = ks.flatMap(k -> k.columnFamily(row.columnFamily()));
                if (cf.isEmpty()) {
                    unknown.add(name);
                } else if (!replays(segment, numbering, new ColumnFamilyId(mutation.keyspace(), row.columnFamily()), end)) {
                    passedOver++;
                } else if (!row.isEmpty()) {
                    try {
                        rows.add(row.toColumnFamily(cf.get()));
                    } catch (RuntimeException e) {
                        unknown.add(name + " (its names do not fit the configured comparator)");
                    }
                }
            }
            if (!rows.isEmpty()) {
                sink.accept(new ResolvedMutation(mutation.keyspace(), mutation.key(), rows));
                entries++;
                for (ColumnFamily row : rows) {
                    applied.computeIfAbsent(mutation.keyspace(), k -> new TreeSet<>()).add(row.metadata().name());
                }
            }
        });
        if (outcome.damaged()) {
            damaged++;
            log.warn("Cassandra 0.6 commit log segment {} is damaged: {}; the sound entries were replayed",
                    segment.file(), outcome.describeDamage());
        }
        log.info("Replayed Cassandra 0.6 commit log segment {} from offset {}: {} entries applied", segment.file(), from,
                entries - before);
    }

    /** Whether 0.6 would replay the column family's delta in an entry ending at {@code end}. */
    private static boolean replays(LegacySegment segment, Optional<LegacyColumnFamilyIds.Numbering> numbering,
                                   ColumnFamilyId cf, long end) {
        OptionalInt id = numbering.isEmpty() ? OptionalInt.empty() : numbering.get().idOf(cf);
        return id.isEmpty() || segment.header().replays(id.getAsInt(), end);
    }

    private Map<String, Set<String>> appliedColumnFamilies() {
        Map<String, Set<String>> copy = new TreeMap<>();
        applied.forEach((ks, cfs) -> copy.put(ks, Collections.unmodifiableSet(new TreeSet<>(cfs))));
        return Collections.unmodifiableMap(copy);
    }
}
