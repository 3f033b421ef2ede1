package sibyl.commitlog;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sibyl.db.ColumnFamily;
import sibyl.db.KSMetaData;
import sibyl.db.LogPosition;
import sibyl.db.ResolvedMutation;

/**
 * Reads the segments found at start-up, oldest first, and hands each sound entry on. A segment
 * with a torn or corrupt entry is read up to it, and the damage is logged in one line naming the
 * file and offset; later segments are still read. Deltas of column families that are no longer
 * configured are skipped, and named once at the end.
 */
final class CommitLogReplayer {
    private static final Logger log = LoggerFactory.getLogger(CommitLogReplayer.class);

    /** A segment as found on disk at start-up. */
    record SegmentFile(long id, Path file) {
    }

    /** What replay found in one segment: the column families it held entries for. */
    record Replayed(SegmentFile segment, long end, Set<ColumnFamilyId> dirty) {
    }

    record Result(List<Replayed> segments, ReplaySummary summary) {
    }

    private CommitLogReplayer() {
    }

    /**
     * @param segments oldest first
     * @param schema   the keyspaces configured now, by name
     * @param flushed  per column family, the log position up to which its SSTables hold everything:
     *                 its deltas in entries ending at or before it are skipped
     * @param sink     applies one mutation (to the memtables)
     */
    static Result replay(List<SegmentFile> segments, Function<String, Optional<KSMetaData>> schema,
                         FlushedPositions flushed, Consumer<ResolvedMutation> sink) throws IOException {
        long started = System.nanoTime();
        List<Replayed> replayed = new ArrayList<>();
        Set<String> unknown = new TreeSet<>();
        ReplayPoints points = new ReplayPoints(schema, flushed);
        long entries = 0;
        long[] skipped = {0};
        long[] stepped = {0};
        int damaged = 0;
        int unread = 0;
        for (SegmentFile segment : segments) {
            Optional<Long> flushedLength = whollyFlushed(segment, points, unknown);
            if (flushedLength.isPresent()) {
                unread++;
                replayed.add(new Replayed(segment, flushedLength.get(), Set.of()));
                continue;
            }
            Set<ColumnFamilyId> dirty = new HashSet<>();
            SegmentReader.Outcome outcome = SegmentReader.read(segment.file(), segment.id(), entry -> {
                LogPosition at = new LogPosition(segment.id(), entry.end());
                if (!points.anyAfter(entry.uncheckedPayload(), at, unknown)) {
                    // Every delta in it is in SSTables already (or of a column family gone): no
                    // need to check or decode it. See SegmentReader on why damage here is harmless.
                    stepped[0]++;
                    return;
                }
                ResolvedMutation read = ResolvedMutationSerializer.deserialize(entry.checkedPayload(), schema, unknown::add);
                List<ColumnFamily> unflushed = new ArrayList<>(read.columnFamilies().size());
                for (ColumnFamily cf : read.columnFamilies()) {
                    if (at.compareTo(points.upTo(read.keyspace(), cf.metadata().name())) > 0) unflushed.add(cf);
                    else skipped[0]++;
                }
                for (ColumnFamily cf : unflushed) dirty.add(new ColumnFamilyId(read.keyspace(), cf.metadata().name()));
                if (!unflushed.isEmpty()) {
                    sink.accept(unflushed.size() == read.columnFamilies().size() ? read
                            : new ResolvedMutation(read.keyspace(), read.key(), unflushed));
                }
            });
            if (outcome.damaged()) {
                damaged++;
                log.warn("Commit log segment {} is damaged at offset {} ({}); replayed the {} entries before it"
                                + " and skipped the rest of that segment", segment.file(), outcome.damageOffset(),
                        outcome.damage(), outcome.entries());
            }
            entries += outcome.entries();
            replayed.add(new Replayed(segment, outcome.end(), dirty));
        }
        if (unread > 0) {
            log.info("Commit log replay skipped {} segments unread: their summaries show every entry in sstables", unread);
        }
        if (skipped[0] > 0 || stepped[0] > 0) {
            log.info("Commit log replay stepped over {} entries and skipped {} more column family deltas already"
                    + " in sstables", stepped[0], skipped[0]);
        }
        if (!unknown.isEmpty()) {
            log.warn("Commit log replay skipped entries of column families no longer configured: {}", unknown);
        }
        Duration elapsed = Duration.ofNanos(System.nanoTime() - started);
        ReplaySummary summary = new ReplaySummary(segments.size(), entries, damaged, elapsed);
        if (!segments.isEmpty()) {
            log.info("Replayed {} commit log entries from {} segments in {} ms", entries, segments.size(),
                    elapsed.toMillis());
        }
        return new Result(replayed, summary);
    }

    /**
     * The segment's length when its {@link SegmentSummary} shows SSTables hold all of it: every
     * column family it names flushed up to the segment's end or no longer configured (those
     * are named to {@code unknown}, as reading the entries would). Empty when it must be read.
     */
    private static Optional<Long> whollyFlushed(SegmentFile segment, ReplayPoints points, Set<String> unknown)
            throws IOException {
        Optional<SegmentSummary.Contents> summary = SegmentSummary.read(segment.file(), segment.id());
        if (summary.isEmpty() || Files.size(segment.file()) != summary.get().length()) return Optional.empty();
        LogPosition end = new LogPosition(segment.id(), summary.get().length());
        Set<String> gone = new TreeSet<>();
        for (ColumnFamilyId cf : summary.get().columnFamilies()) {
            Optional<LogPosition> upTo = points.ifConfigured(cf.keyspace(), cf.name());
            if (upTo.isEmpty()) gone.add(cf.toString());
            else if (end.compareTo(upTo.get()) > 0) return Optional.empty();
        }
        unknown.addAll(gone);
        return Optional.of(summary.get().length());
    }
}
