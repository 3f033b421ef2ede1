package sibyl.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An expiring column's life and how it reconciles at equal timestamps (docs/semantics.md §Expiring columns): the
 * ties are those a real Cassandra 3.11 showed (Cassandra311DifferentialIT and TtlDifferentialIT compare them).
 */
class ExpiringColumnTest {
    private static final int WRITTEN = 1_800_000_000;

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static Column expiring(String value, long timestamp, int ttl) {
        return Column.expiring(b("c"), b(value), timestamp, ttl, WRITTEN + ttl);
    }

    @Test
    void liveBeforeItsExpirationAndNotFromIt() {
        Column c = expiring("v", 5, 100);
        assertTrue(c.isLive(Deletion.LIVE, WRITTEN));
        assertTrue(c.isLive(Deletion.LIVE, WRITTEN + 99));
        assertFalse(c.isLive(Deletion.LIVE, WRITTEN + 100));
        assertFalse(c.isLive(Deletion.of(5, WRITTEN), WRITTEN), "a row tombstone at its timestamp hides it");
        assertTrue(Column.live(b("c"), b("v"), 5).isLive(Deletion.LIVE, Integer.MAX_VALUE), "a plain column never expires");
    }

    @Test
    void onceExpiredCompactionKeepsATombstoneDatedWhenItWasWritten() {
        Column c = expiring("v", 5, 100);
        assertSame(c, c.expiredToTombstone(WRITTEN + 99));
        assertEquals(Column.tombstone(b("c"), 5, WRITTEN), c.expiredToTombstone(WRITTEN + 100));
        assertFalse(c.isPurgeable(WRITTEN + 100), "purgeable only once the grace period has passed since it expired");
        assertTrue(c.isPurgeable(WRITTEN + 101));
    }

    @Test
    void anExpiringColumnNeedsAPositiveTtl() {
        assertThrows(IllegalArgumentException.class, () -> Column.expiring(b("c"), b("v"), 1, 0, WRITTEN));
        assertThrows(IllegalArgumentException.class, () -> new Change.Write(null, b("c"), b("v"), 1, -1));
    }

    @Test
    void aWriteExpiresItsTtlAfterTheMutationsTime() {
        assertEquals(expiring("v", 5, 100), new Change.Write(null, b("c"), b("v"), 5, 100).column(WRITTEN));
        assertEquals(Column.live(b("c"), b("v"), 5), new Change.Write(null, b("c"), b("v"), 5).column(WRITTEN));
        assertEquals(Integer.MAX_VALUE,
                new Change.Write(null, b("c"), b("v"), 5, 100).column(Integer.MAX_VALUE - 10).localExpirationTime());
    }

    @Test
    void theHigherTimestampWinsWhateverExpires() {
        assertWins(expiring("a", 6, 100), Column.live(b("c"), b("z"), 5));
        assertWins(Column.live(b("c"), b("a"), 6), expiring("z", 5, 100));
        assertWins(expiring("a", 6, 100), Column.tombstone(b("c"), 5, WRITTEN));
    }

    @Test
    void atEqualTimestampsATombstoneBeatsAnExpiringColumn() {
        assertWins(Column.tombstone(b("c"), 5, WRITTEN - 1000), expiring("z", 5, 100));
    }

    @Test
    void atEqualTimestampsTheLargerValueWinsWhetherItExpiresOrNot() {
        assertWins(Column.live(b("c"), b("z"), 5), expiring("a", 5, 100));
        assertWins(expiring("z", 5, 100), Column.live(b("c"), b("a"), 5));
        assertWins(expiring("z", 5, 100), expiring("a", 5, 200));
    }

    @Test
    void atEqualTimestampsAndValuesTheColumnThatDoesNotExpireWinsThenTheLaterExpiration() {
        assertWins(Column.live(b("c"), b("v"), 5), expiring("v", 5, 100));
        assertWins(expiring("v", 5, 200), expiring("v", 5, 100));
    }

    /** {@code winner} wins against {@code loser}, whichever comes first. */
    private static void assertWins(Column winner, Column loser) {
        for (List<Column> order : List.of(List.of(winner, loser), List.of(loser, winner))) {
            assertSame(winner, Column.reconcile(order.get(0), order.get(1)), winner + " against " + loser);
        }
    }
}
