package sibyl.commitlog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static sibyl.commitlog.C06Fixture.KS;
import static sibyl.commitlog.C06Row.ofSuper;
import static sibyl.commitlog.C06Row.standard;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sibyl.db.KSMetaData;

/** Which numbering a 0.6 log was written with, told from what it holds. */
class LegacyNumberingJudgeTest {
    private static final Function<String, Optional<KSMetaData>> SCHEMA = schema();

    @TempDir
    Path dir;

    @Test
    void aColumnFamilyWrittenButCleanEverywhereRulesTheNumberingOut() throws IOException {
        List<ColumnFamilyId> truth = C06Fixture.numbering(JavaHashMapOrder.JAVA_8);
        C06LogWriter w = new C06LogWriter(truth, 1);
        w.write(KS, "a", standard("Standard1").column("c", "1", 1));
        List<ColumnFamilyId> swapped = swap(truth, "Standard1", "StandardByUUID1");
        LegacyNumberingJudge.Verdict v = judge(w, truth, swapped);
        assertEquals(truth, v.numbering().orElseThrow().byId());
        assertTrue(v.reason().contains("Keyspace1.Standard1 would be id"), v.reason());
    }

    @Test
    void twoNumberingsThatBothFitAndReplayDifferentlyAreUndecided() throws IOException {
        List<ColumnFamilyId> truth = C06Fixture.numbering(JavaHashMapOrder.JAVA_8);
        C06LogWriter w = new C06LogWriter(truth, 1);
        w.write(KS, "a", standard("Standard1").column("c", "1", 1));
        w.write(KS, "b", ofSuper("Super1").superColumn("s", 1, "x", "1"));
        w.write(KS, "x", standard("Standard1").column("c", "2", 2));
        w.flushed(KS, "Standard1", w.context());
        w.write(KS, "c", standard("Standard1").column("c", "3", 3));
        // Both are dirty, so swapping their numbers fits too; but it would read Super1's replay position as the
        // flush's, after b, and not replay b's Super1.
        LegacyNumberingJudge.Verdict v = judge(w, truth, swap(truth, "Standard1", "Super1"));
        assertTrue(v.numbering().isEmpty());
        assertTrue(v.reason().contains("both fit what the segments hold and would replay different column families"),
                v.reason());
    }

    @Test
    void numberingsThatReplayAlikeNeedNoDecision() throws IOException {
        List<ColumnFamilyId> truth = C06Fixture.numbering(JavaHashMapOrder.JAVA_8);
        C06LogWriter w = new C06LogWriter(truth, 1);
        w.write(KS, "a", standard("Standard1").column("c", "1", 1), ofSuper("Super1").superColumn("s", 1, "x", "1"));
        LegacyNumberingJudge.Verdict v = judge(w, truth, swap(truth, "Standard1", "Super1"));
        assertEquals(truth, v.numbering().orElseThrow().byId());
        assertTrue(v.reason().contains("replay the same"), v.reason());
    }

    @Test
    void aCleanColumnFamilyInAnOlderSegmentIsDirtyInTheNewerOneWhereItWasFlushed() throws IOException {
        List<ColumnFamilyId> truth = C06Fixture.numbering(JavaHashMapOrder.JAVA_8);
        C06LogWriter w = new C06LogWriter(truth, 1);
        w.write(KS, "a", standard("Standard1").column("c", "1", 1), ofSuper("Super1").superColumn("s", 1, "x", "1"));
        w.roll();
        w.write(KS, "b", standard("Standard2", C06Row.UTF8).column("c", "2", 2));
        w.flushed(KS, "Standard1", w.context()); // clean in the first segment, dirty in the second
        assertEquals(2, w.segments().size());
        LegacyNumberingJudge.Verdict v = judge(w, truth);
        assertEquals(truth, v.numbering().orElseThrow().byId(), v.reason());
    }

    @SafeVarargs
    private LegacyNumberingJudge.Verdict judge(C06LogWriter w, List<ColumnFamilyId>... numberings) throws IOException {
        w.writeTo(dir);
        List<LegacySegment> segments = CommitLogDirectoryScan.scan(dir).legacySegments();
        List<LegacyColumnFamilyIds.Numbering> candidates = new ArrayList<>();
        for (int i = 0; i < numberings.length; i++) candidates.add(new LegacyColumnFamilyIds.Numbering("order " + i, numberings[i]));
        return LegacyNumberingJudge.judge(segments, candidates, SCHEMA);
    }

    private static List<ColumnFamilyId> swap(List<ColumnFamilyId> byId, String a, String b) {
        List<ColumnFamilyId> swapped = new ArrayList<>(byId);
        Collections.swap(swapped, byId.indexOf(new ColumnFamilyId(KS, a)), byId.indexOf(new ColumnFamilyId(KS, b)));
        return swapped;
    }

    private static Function<String, Optional<KSMetaData>> schema() {
        Map<String, KSMetaData> byName = new HashMap<>();
        for (KSMetaData ks : C06Fixture.KEYSPACES) byName.put(ks.name(), ks);
        return name -> Optional.ofNullable(byName.get(name));
    }
}
