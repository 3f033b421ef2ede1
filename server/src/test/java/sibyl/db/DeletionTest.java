package sibyl.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The rules of a tombstone: which of two is kept, what it hides, when compaction may drop it. */
class DeletionTest {
    @Test
    void theNeverDeletedPairIsTheSharedLiveValue() {
        assertSame(Deletion.LIVE, Deletion.of(Long.MIN_VALUE, Integer.MIN_VALUE));
        assertFalse(Deletion.LIVE.isMarkedForDelete());
        assertTrue(Deletion.of(Long.MIN_VALUE + 1, Integer.MIN_VALUE).isMarkedForDelete());
        assertEquals(new Deletion(7, 3), Deletion.of(7, 3));
    }

    @Test
    void theLaterTimestampIsKeptAndOfEqualTimestampsTheLaterDeletionTime() {
        Deletion early = Deletion.of(10, 500);
        Deletion late = Deletion.of(11, 100);
        Deletion lateDeletedLater = Deletion.of(11, 200);
        assertTrue(late.supersedes(early));
        assertFalse(early.supersedes(late));
        assertTrue(lateDeletedLater.supersedes(late));
        assertFalse(late.supersedes(lateDeletedLater));
        assertFalse(late.supersedes(Deletion.of(11, 100)), "an equal tombstone does not replace another");
        assertTrue(early.supersedes(Deletion.LIVE));
        assertFalse(Deletion.LIVE.supersedes(early));

        List<Deletion> all = List.of(Deletion.LIVE, early, late, lateDeletedLater);
        for (Deletion a : all) {
            for (Deletion b : all) {
                assertEquals(Deletion.reconcile(a, b), Deletion.reconcile(b, a), a + " and " + b);
            }
        }
        assertSame(lateDeletedLater, Deletion.reconcile(early, lateDeletedLater));
    }

    @Test
    void aTombstoneAtTHidesEverythingWrittenAtOrBeforeT() {
        Deletion d = Deletion.of(100, 1);
        assertTrue(d.shadows(99));
        assertTrue(d.shadows(100));
        assertFalse(d.shadows(101));
        assertFalse(Deletion.LIVE.shadows(Long.MIN_VALUE + 1));
        assertTrue(Deletion.LIVE.shadows(Long.MIN_VALUE), "as in 0.6, a write at Long.MIN_VALUE is never seen");

        assertTrue(Column.live(new byte[] {1}, new byte[0], 101).isLive(d, 0));
        assertFalse(Column.live(new byte[] {1}, new byte[0], 100).isLive(d, 0));
        assertFalse(Column.tombstone(new byte[] {1}, 101, 1).isLive(d, 0));
    }

    @Test
    void onlyATombstoneMadeBeforeGcBeforeMayBePurged() {
        assertTrue(Deletion.of(5, 999).isPurgeable(1000));
        assertFalse(Deletion.of(5, 1000).isPurgeable(1000));
        assertFalse(Deletion.LIVE.isPurgeable(Integer.MAX_VALUE), "nothing to purge where nothing was deleted");
        assertTrue(Column.tombstone(new byte[] {1}, 5, 999).isPurgeable(1000));
        assertFalse(Column.tombstone(new byte[] {1}, 5, 1000).isPurgeable(1000));
        assertFalse(Column.live(new byte[] {1}, new byte[0], 5).isPurgeable(Integer.MAX_VALUE));
    }
}
