package sibyl.client.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The differential test sets a difference apart only where it is exactly a documented one: the ledger must show the
 * range deletion, the tie, or the request 3.11 fails on; a difference that merely looks alike stays one.
 */
class Diff07KnownDifferencesTest {
    private static final ByteBuffer KEY = bytes(0x6b, 0x31);
    private static final String ROW = "0x6b31";

    private final Diff07Ledger ledger = new Diff07Ledger();
    private final Diff07KnownDifferences known = new Diff07KnownDifferences(ledger);

    private static ByteBuffer bytes(int... b) {
        byte[] out = new byte[b.length];
        for (int i = 0; i < b.length; i++) out[i] = (byte) b[i];
        return ByteBuffer.wrap(out);
    }

    private static V20Call read(String family, ByteBuffer key) {
        return new V20Call("a read", s -> "", Diff07Shape.read(family, null, key));
    }

    private void write(String family, ByteBuffer name, ByteBuffer value, long timestamp) {
        ledger.took(List.of(new Diff07Ledger.Written(family, KEY, null, name, value, timestamp)));
    }

    private void deleteRange(String family, ByteBuffer start, ByteBuffer finish, long timestamp) {
        ledger.took(List.of(new Diff07Ledger.RangeDeleted(family, KEY, start, finish, timestamp)));
    }

    @Test
    void aColumnWrittenUnderAnOlderRangeDeletionIsSetApartOnlyWhereTheRangeCoversIt() {
        deleteRange("StdBytes", bytes(0x10), bytes(0x20), 50);
        write("StdBytes", bytes(0x15), bytes(1), 40);
        write("StdBytes", bytes(0x30), bytes(2), 40);
        write("StdBytes", bytes(0x18), bytes(3), 60);
        String hiddenOne = "[C(0x15=0x01 @40)]";
        assertTrue(known.explain(read("StdBytes", KEY), "[]", hiddenOne).isPresent());
        // Outside the range, or newer than the deletion: 3.11 would answer it, so a difference stays one.
        assertEquals(Optional.empty(), known.explain(read("StdBytes", KEY), "[]", "[C(0x30=0x02 @40)]"));
        assertEquals(Optional.empty(), known.explain(read("StdBytes", KEY), "[]", "[C(0x18=0x03 @60)]"));
        // 3.11 answers a column past the hidden one within the count: only at the end of its slice.
        assertTrue(known.explain(read("StdBytes", KEY), "[C(0x30=0x02 @40)]", "[C(0x15=0x01 @40)]").isPresent());
        assertEquals(Optional.empty(),
                known.explain(read("StdBytes", KEY), "[C(0x30=0x02 @40), C(0x18=0x03 @60)]", "[C(0x15=0x01 @40), C(0x18=0x03 @60)]"));
        // A count higher by more than the columns the range hides is not explained.
        assertTrue(known.explain(read("StdBytes", KEY), "1", "2").isPresent());
        assertEquals(Optional.empty(), known.explain(read("StdBytes", KEY), "1", "3"));
    }

    @Test
    void aNewerColumn311LeavesOutIsSetApartOnlyUnderOverlappingRanges() {
        write("StdBytes", bytes(0x50), bytes(1), 59);
        deleteRange("StdBytes", bytes(0x10), bytes(0x90), 55);
        assertEquals(Optional.empty(), known.explain(read("StdBytes", KEY), "[]", "[C(0x50=0x01 @59)]"));
        deleteRange("StdBytes", bytes(0x50), bytes(0x50), 48);
        assertTrue(known.explain(read("StdBytes", KEY), "[]", "[C(0x50=0x01 @59)]").isPresent());
    }

    @Test
    void columnsInAnotherOrderAreNeverSetApart() {
        deleteRange("StdBytes", bytes(), bytes(), 50);
        write("StdBytes", bytes(0x15), bytes(1), 40);
        assertEquals(Optional.empty(),
                known.explain(read("StdBytes", KEY), "[C(0x01=0x01 @70), C(0x02=0x01 @70)]", "[C(0x02=0x01 @70), C(0x01=0x01 @70)]"));
    }

    @Test
    void aTieIsSetApartWhen311HasTheSignedGreatestAndSibylTheUnsigned() {
        write("StdBytes", bytes(0x01), bytes(0x7f), 40);
        write("StdBytes", bytes(0x01), bytes(0x80), 40);
        assertTrue(known.explain(read("StdBytes", KEY), "[C(0x01=0x7f @40)]", "[C(0x01=0x80 @40)]").isPresent());
        assertEquals(Optional.empty(), known.explain(read("StdBytes", KEY), "[C(0x01=0x80 @40)]", "[C(0x01=0x7f @40)]"));
        // A value the ledger does not have at that timestamp is not a tie.
        assertEquals(Optional.empty(), known.explain(read("StdBytes", KEY), "[C(0x01=0x7f @40)]", "[C(0x01=0x81 @40)]"));
    }

    @Test
    void aRowOnlyARangeTombstoneIsLeftInIsSetApartInAKeyRange() {
        V20Call scan = new V20Call("a scan", s -> "", Diff07Shape.read("StdBytes", null, null));
        String withGhost = ROW + " []\n0x6b32 [C(0x01=0x01 @1)]\n2 rows";
        String sibyl = "0x6b32 [C(0x01=0x01 @1)]\n0x6b33 [C(0x01=0x01 @1)]\n2 rows";
        assertEquals(Optional.empty(), known.explain(scan, withGhost, sibyl));
        deleteRange("StdBytes", bytes(0x10), bytes(0x20), 50);
        assertTrue(known.explain(scan, withGhost, sibyl).isPresent());
    }

    @Test
    void where311FailsIsSetApartOnlyWithBothAnswersAsDocumented() {
        V20Call noKeys = new V20Call("multiget_slice([])", s -> "", Diff07Shape.failing311(Diff07KnownDifferences.Where311Fails.NO_KEYS));
        assertTrue(known.explain(noKeys, "!closed: the server closed the connection", "0 keys").isPresent());
        assertEquals(Optional.empty(), known.explain(noKeys, "!closed: the server closed the connection", "!InvalidRequestException: x"));
        assertEquals(Optional.empty(), known.explain(new V20Call("multiget_slice([])", s -> ""), "!closed: x", "0 keys"));
        V20Call count = new V20Call("get_count", s -> "", Diff07Shape.read("Super1", bytes(7), KEY)
                .failing311Too(Diff07KnownDifferences.Where311Fails.subcolumnsPastCount(2)));
        assertTrue(known.explain(count, "!TimedOutException: ", "2").isPresent());
        assertEquals(Optional.empty(), known.explain(count, "!TimedOutException: ", "1"));
    }
}
