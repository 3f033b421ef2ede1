package sibyl.commitlog;

import java.io.IOException;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Function;
import sibyl.db.CFMetaData;
import sibyl.db.KSMetaData;

/**
 * Reads the 0.6 segments once before anything is replayed, for two things:
 * <ul>
 * <li>every delta of a configured column family must fit its configuration
 *     ({@link LegacySchemaCheck}); the first that does not refuses the start, before any replay;</li>
 * <li>which {@link LegacyColumnFamilyIds.Numbering} their headers use, judged from what they hold.</li>
 * </ul>
 *
 * <p>The evidence: all the segments were written by one 0.6 run (0.6 deleted the older ones at its
 * start), and 0.6 made a column family clean in a segment only when it was flushed while a newer
 * segment was being written, which left it dirty in that newer one (nothing makes it clean there
 * but yet another flush in a yet newer one, and the newest is never made clean). So each column
 * family with an entry in a segment is dirty in that segment or a newer one. A numbering under
 * which that fails for some entry is not the writer's. And the header must count exactly the
 * configured column families, or the configuration is not the one 0.6 ran with.
 *
 * <p>Of the numberings left, one is chosen when it is alone, or when all left replay exactly the
 * same deltas (then it does not matter which). Otherwise the verdict is undecided, and the caller
 * replays every delta from where 0.6 would have begun: never less than 0.6 would have replayed.
 */
final class LegacyNumberingJudge {
    /** Which numbering to use; empty with the reason when none can be told. */
    record Verdict(Optional<LegacyColumnFamilyIds.Numbering> numbering, String reason) {
    }

    private final Function<String, Optional<KSMetaData>> schema;
    private final List<LegacyColumnFamilyIds.Numbering> candidates;
    private final boolean[] ruledOut;
    private final boolean[][] replayDiffers;
    private String firstRuling;

    private LegacyNumberingJudge(Function<String, Optional<KSMetaData>> schema,
                                 List<LegacyColumnFamilyIds.Numbering> candidates) {
        this.schema = schema;
        this.candidates = candidates;
        this.ruledOut = new boolean[candidates.size()];
        this.replayDiffers = new boolean[candidates.size()][candidates.size()];
    }

    /**
     * @param segments   oldest first, all written by one 0.6 run
     * @param candidates the numberings the configuration allows; empty when its file order is unknown
     * @throws IOException when a delta does not fit its column family's configuration, or a segment cannot be read
     */
    static Verdict judge(List<LegacySegment> segments, List<LegacyColumnFamilyIds.Numbering> candidates,
                         Function<String, Optional<KSMetaData>> schema) throws IOException {
        LegacyNumberingJudge judge = new LegacyNumberingJudge(schema, candidates);
        BitSet[] dirtyFromHereOn = dirtyFromHereOn(segments);
        for (int k = 0; k < segments.size(); k++) judge.read(segments.get(k), dirtyFromHereOn[k]);
        return judge.verdict(segments);
    }

    /** Per segment, the column families dirty in it or in any newer one. */
    private static BitSet[] dirtyFromHereOn(List<LegacySegment> segments) {
        BitSet[] from = new BitSet[segments.size()];
        BitSet dirty = new BitSet();
        for (int k = segments.size() - 1; k >= 0; k--) {
            dirty.or(segments.get(k).header().dirty());
            from[k] = (BitSet) dirty.clone();
        }
        return from;
    }

    private void read(LegacySegment segment, BitSet dirtyFromHere) throws IOException {
        LegacySegmentHeader header = segment.header();
        long replayFrom = header.lowestPosition();
        LegacyEntryReader.read(segment.file(), header.entriesStart(), (start, end, bytes) -> {
            LegacyMutation mutation = LegacyMutation.decode(bytes);
            Optional<KSMetaData> ks = schema.apply(mutation.keyspace());
            for (LegacyMutation.Row row : mutation.rows()) {
                Optional<CFMetaData> cf = ks.flatMap(k -> k.columnFamily(row.columnFamily()));
                if (cf.isEmpty()) continue; // named when replayed
                LegacySchemaCheck.check(row, cf.get(), segment.file(), start);
                weigh(new ColumnFamilyId(mutation.keyspace(), row.columnFamily()), segment, dirtyFromHere,
                        replayFrom > 0 && start >= replayFrom ? end : -1, start);
            }
        });
    }

    /**
     * Rules out the numberings under which the column family's entry at {@code start} could not
     * be, and notes where numberings would replay it differently.
     *
     * @param replayedEnd the entry's end when 0.6 would read it for replay, else -1
     */
    private void weigh(ColumnFamilyId cf, LegacySegment segment, BitSet dirtyFromHere, long replayedEnd, long start) {
        boolean[] replays = new boolean[candidates.size()];
        for (int c = 0; c < candidates.size(); c++) {
            OptionalInt id = candidates.get(c).idOf(cf);
            if (id.isEmpty()) continue;
            if (!ruledOut[c] && !dirtyFromHere.get(id.getAsInt())) {
                ruledOut[c] = true;
                if (firstRuling == null) {
                    firstRuling = "under the order of " + candidates.get(c).jvms() + " " + cf + " would be id "
                            + id.getAsInt() + ", which neither " + segment.file().getFileName()
                            + " nor a newer segment marks as dirty though it holds an entry of it at offset " + start;
                }
            }
            replays[c] = replayedEnd >= 0 && segment.header().replays(id.getAsInt(), replayedEnd);
        }
        for (int a = 0; a < replays.length; a++) {
            for (int b = a + 1; b < replays.length; b++) {
                if (replays[a] != replays[b]) replayDiffers[a][b] = true;
            }
        }
    }

    private Verdict verdict(List<LegacySegment> segments) {
        if (candidates.isEmpty()) {
            return new Verdict(Optional.empty(), "the configuration's keyspaces were not given in file order");
        }
        int configured = candidates.get(0).count();
        for (LegacySegment s : segments) {
            if (s.header().columnFamilyCount() != configured) {
                return new Verdict(Optional.empty(), "the header of " + s.file().getFileName() + " numbers "
                        + s.header().columnFamilyCount() + " column families where " + configured
                        + " are configured now (system's included), so the configuration is not the one 0.6 ran with");
            }
        }
        List<Integer> left = new ArrayList<>();
        for (int c = 0; c < candidates.size(); c++) if (!ruledOut[c]) left.add(c);
        if (left.isEmpty()) {
            return new Verdict(Optional.empty(), "no JVM's order of the configured column families fits what the"
                    + " segments hold (" + firstRuling + ")");
        }
        LegacyColumnFamilyIds.Numbering first = candidates.get(left.get(0));
        if (left.size() == 1) {
            return new Verdict(Optional.of(first), candidates.size() == 1
                    ? "every JVM numbers the configured column families alike"
                    : "it is the only JVM order that fits what the segments hold"
                    + (firstRuling == null ? "" : " (" + firstRuling + ")"));
        }
        for (int a : left) {
            for (int b : left) {
                if (a < b && replayDiffers[a][b]) {
                    List<String> jvms = left.stream().map(c -> candidates.get(c).jvms()).toList();
                    return new Verdict(Optional.empty(), "the orders of " + String.join(" and of ", jvms)
                            + " both fit what the segments hold and would replay different column families");
                }
            }
        }
        return new Verdict(Optional.of(first), "the JVM orders that fit what the segments hold replay the same");
    }
}
