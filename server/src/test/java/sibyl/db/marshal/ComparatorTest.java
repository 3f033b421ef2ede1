package sibyl.db.marshal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class ComparatorTest {
    private static final byte[] EMPTY = {};

    private static byte[] bytes(int... b) {
        byte[] r = new byte[b.length];
        for (int i = 0; i < b.length; i++) r[i] = (byte) b[i];
        return r;
    }

    private static byte[] longName(long v) {
        return ByteBuffer.allocate(8).putLong(v).array();
    }

    private static byte[] uuid(long msb, long lsb) {
        return ByteBuffer.allocate(16).putLong(msb).putLong(lsb).array();
    }

    /** A version 1 UUID with the given 60-bit timestamp and clock sequence / node half. */
    private static byte[] timeUuid(long timestamp, long lsb) {
        long timeLow = timestamp & 0xffffffffL;
        long timeMid = (timestamp >>> 32) & 0xffff;
        long timeHi = (timestamp >>> 48) & 0x0fff;
        long msb = (timeLow << 32) | (timeMid << 16) | 0x1000 | timeHi;
        return uuid(msb, lsb);
    }

    private static void assertOrdered(AbstractType t, byte[]... names) {
        for (int i = 0; i < names.length; i++) {
            for (int j = 0; j < names.length; j++) {
                int c = t.compare(names[i], names[j]);
                assertEquals(Integer.signum(Integer.compare(i, j)), Integer.signum(c),
                        t + ": " + t.getString(names[i]) + " vs " + t.getString(names[j]));
            }
        }
    }

    @Test
    void emptyNameIsValidForEveryComparatorAndSortsFirst() {
        List<AbstractType> all = List.of(BytesType.instance, AsciiType.instance, UTF8Type.instance,
                LongType.instance, LexicalUUIDType.instance, TimeUUIDType.instance);
        byte[][] samples = {bytes(0x00), longName(Long.MIN_VALUE), uuid(Long.MIN_VALUE, 0), timeUuid(0, 0)};
        for (AbstractType t : all) {
            t.validate(EMPTY);
            assertEquals(0, t.compare(EMPTY, EMPTY));
            for (byte[] s : samples) {
                if (t instanceof LongType && s.length != 8) continue;
                if ((t instanceof LexicalUUIDType || t instanceof TimeUUIDType) && s.length != 16) continue;
                assertTrue(t.compare(EMPTY, s) < 0, t.toString());
                assertTrue(t.compare(s, EMPTY) > 0, t.toString());
                assertTrue(t.reversed().compare(EMPTY, s) < 0, "reversed " + t);
            }
        }
    }

    @Test
    void validatingANameInsideABufferJudgesAsTheArrayAndLeavesTheBufferAlone() {
        List<AbstractType> all = List.of(BytesType.instance, AsciiType.instance, UTF8Type.instance,
                LongType.instance, LexicalUUIDType.instance, TimeUUIDType.instance);
        byte[][] names = {EMPTY, bytes(0xc3, 0x28), bytes(1, 2, 3), longName(7), uuid(1, 2), timeUuid(1000, 3)};
        for (AbstractType type : all) {
            for (byte[] name : names) {
                // The name sits between other bytes, as a name read from a request does.
                byte[] request = new byte[name.length + 5];
                System.arraycopy(name, 0, request, 3, name.length);
                ByteBuffer view = ByteBuffer.wrap(request, 3, name.length);
                String expected = failure(() -> type.validate(name));
                assertEquals(expected, failure(() -> type.validate(view)), type + " " + Arrays.toString(name));
                assertEquals(3, view.position());
                assertEquals(3 + name.length, view.limit());
            }
        }
    }

    /** The message of the MarshalException {@code check} throws, or null when it accepts. */
    private static String failure(Runnable check) {
        try {
            check.run();
            return null;
        } catch (MarshalException e) {
            return e.getMessage();
        }
    }

    @Test
    void bytesTypeIsUnsignedLexicographicWithPrefixesFirst() {
        assertOrdered(BytesType.instance, EMPTY, bytes(0x00), bytes(0x00, 0x00), bytes(0x01), bytes(0x7f),
                bytes(0x80), bytes(0xff), bytes(0xff, 0x00));
        assertEquals("00ff7f", BytesType.instance.getString(bytes(0x00, 0xff, 0x7f)));
        assertEquals("org.apache.cassandra.db.marshal.BytesType", BytesType.instance.className());
    }

    @Test
    void asciiTypeAcceptsAnyBytes() {
        AsciiType.instance.validate(bytes(0xff, 0x80));
        assertOrdered(AsciiType.instance, bytes('a'), bytes('b'), bytes(0xc3));
        assertEquals("abc", AsciiType.instance.getString("abc".getBytes(StandardCharsets.US_ASCII)));
    }

    @Test
    void utf8TypeOrdersByBytesWhichIsCodePointOrder() {
        byte[] bmpHigh = "\uffee".getBytes(StandardCharsets.UTF_8);
        byte[] supplementary = "\ud83d\ude00".getBytes(StandardCharsets.UTF_8); // U+1F600
        // UTF-16 order would put the supplementary character (0xD83D...) first; code point order puts it last.
        assertOrdered(UTF8Type.instance, EMPTY, bytes('a'), bytes('a', 'b'), "é".getBytes(StandardCharsets.UTF_8),
                bmpHigh, supplementary);
        assertEquals("\ud83d\ude00", UTF8Type.instance.getString(supplementary));
    }

    @Test
    void utf8TypeRejectsMalformedInputWithSignedByteList() {
        byte[][] invalid = {
            bytes(0xc0, 0xaf),             // overlong '/'
            bytes(0xe0, 0x80, 0xaf),       // overlong, three bytes
            bytes(0xed, 0xa0, 0x80),       // encoded surrogate U+D800
            bytes(0xe2, 0x82),             // truncated
            bytes('a', 0x80),              // stray continuation byte
            bytes(0xff),                   // never valid
            bytes(0xf4, 0x90, 0x80, 0x80), // past U+10FFFF
        };
        for (byte[] b : invalid) {
            MarshalException e = assertThrows(MarshalException.class, () -> UTF8Type.instance.validate(b));
            assertEquals("invalid UTF8 bytes " + java.util.Arrays.toString(b), e.getMessage());
        }
        MarshalException e = assertThrows(MarshalException.class, () -> UTF8Type.instance.validate(bytes(0xc0, 0xaf)));
        assertEquals("invalid UTF8 bytes [-64, -81]", e.getMessage());
    }

    @Test
    void longTypeIsSignedOrder() {
        assertOrdered(LongType.instance, EMPTY, longName(Long.MIN_VALUE), longName(-256), longName(-1),
                longName(0), longName(1), longName(255), longName(256), longName(Long.MAX_VALUE));
        Random r = new Random(7);
        for (int i = 0; i < 1000; i++) {
            long a = r.nextLong();
            long b = r.nextInt(3) == 0 ? a ^ (1L << r.nextInt(64)) : r.nextLong();
            assertEquals(Long.signum(Long.compare(a, b)),
                    Integer.signum(LongType.instance.compare(longName(a), longName(b))), a + " vs " + b);
        }
        assertEquals("-2", LongType.instance.getString(longName(-2)));
        assertEquals("", LongType.instance.getString(EMPTY));
    }

    @Test
    void longTypeNeedsEightBytes() {
        for (byte[] b : new byte[][] {bytes(1), new byte[7], new byte[9]}) {
            assertEquals("A long is exactly 8 bytes",
                    assertThrows(MarshalException.class, () -> LongType.instance.validate(b)).getMessage());
        }
    }

    @Test
    void lexicalUuidComparesHalvesAsSignedLongs() {
        byte[] negativeMsb = uuid(0x8000000000000000L, 0);
        byte[] positiveMsb = uuid(0x7fffffffffffffffL, 0);
        assertTrue(BytesType.instance.compare(negativeMsb, positiveMsb) > 0);
        assertTrue(LexicalUUIDType.instance.compare(negativeMsb, positiveMsb) < 0);
        assertOrdered(LexicalUUIDType.instance, EMPTY, uuid(-1, 5), uuid(0, Long.MIN_VALUE), uuid(0, -1),
                uuid(0, 0), uuid(0, 1), uuid(1, Long.MIN_VALUE));
        Random r = new Random(11);
        for (int i = 0; i < 1000; i++) {
            UUID a = new UUID(r.nextLong(), r.nextLong());
            UUID b = r.nextBoolean() ? new UUID(a.getMostSignificantBits(), r.nextLong()) : new UUID(r.nextLong(), r.nextLong());
            int expected = Integer.signum(Long.compare(a.getMostSignificantBits(), b.getMostSignificantBits()) != 0
                    ? Long.compare(a.getMostSignificantBits(), b.getMostSignificantBits())
                    : Long.compare(a.getLeastSignificantBits(), b.getLeastSignificantBits()));
            assertEquals(expected, Integer.signum(LexicalUUIDType.instance.compare(
                    uuid(a.getMostSignificantBits(), a.getLeastSignificantBits()),
                    uuid(b.getMostSignificantBits(), b.getLeastSignificantBits()))));
        }
        UUID u = UUID.randomUUID();
        assertEquals(u.toString(), LexicalUUIDType.instance.getString(uuid(u.getMostSignificantBits(),
                u.getLeastSignificantBits())));
        assertEquals("UUIDs must be exactly 16 bytes",
                assertThrows(MarshalException.class, () -> LexicalUUIDType.instance.validate(new byte[15])).getMessage());
    }

    @Test
    void timeUuidOrdersByTimestampThenBytes() {
        // Timestamps chosen so that byte order of the UUIDs (time_low first) disagrees with time order.
        byte[] t1 = timeUuid(0x0000_0001_ffff_ffffL, 0);
        byte[] t2 = timeUuid(0x0000_0002_0000_0000L, 0);
        byte[] t3 = timeUuid(0x0fff_0000_0000_0000L, 0);
        assertTrue(BytesType.instance.compare(t1, t2) > 0);
        assertOrdered(TimeUUIDType.instance, EMPTY, timeUuid(0, -1), t1, t2, t3);
        // Same instant: all 16 bytes unsigned, so the node bits decide.
        byte[] nodeLow = timeUuid(42, 0x8000_0000_0000_0001L);
        byte[] nodeHigh = timeUuid(42, 0x8000_0000_0000_00ffL);
        byte[] clockHigh = timeUuid(42, 0xc000_0000_0000_0000L);
        assertOrdered(TimeUUIDType.instance, nodeLow, nodeHigh, clockHigh);
        // Against java.util.UUID.timestamp() for random instants.
        Random r = new Random(3);
        List<byte[]> names = new ArrayList<>();
        for (int i = 0; i < 200; i++) names.add(timeUuid(r.nextLong() & 0x0fffffffffffffffL, r.nextLong()));
        for (byte[] a : names) {
            for (byte[] b : names) {
                long ta = toUuid(a).timestamp();
                long tb = toUuid(b).timestamp();
                if (ta != tb) {
                    assertEquals(Long.signum(Long.compare(ta, tb)), Integer.signum(TimeUUIDType.instance.compare(a, b)));
                }
            }
        }
    }

    private static UUID toUuid(byte[] b) {
        ByteBuffer bb = ByteBuffer.wrap(b);
        return new UUID(bb.getLong(), bb.getLong());
    }

    @Test
    void timeUuidValidation() {
        assertEquals("UUIDs must be exactly 16 bytes",
                assertThrows(MarshalException.class, () -> TimeUUIDType.instance.validate(new byte[8])).getMessage());
        byte[] v4 = uuid(0x0000_0000_0000_4000L, 0);
        assertEquals("TimeUUID only makes sense with version 1 UUIDs",
                assertThrows(MarshalException.class, () -> TimeUUIDType.instance.validate(v4)).getMessage());
        byte[] v1 = timeUuid(123456789L, 0x8000_0000_0000_0000L);
        TimeUUIDType.instance.validate(v1);
        assertEquals(toUuid(v1).toString(), TimeUUIDType.instance.getString(v1));
    }

    @Test
    void reversedNegatesButKeepsEmptyFirst() {
        AbstractType r = LongType.instance.reversed();
        assertTrue(r.compare(longName(2), longName(1)) < 0);
        assertTrue(r.compare(EMPTY, longName(1)) < 0);
        assertTrue(r.compare(longName(1), EMPTY) > 0);
        assertEquals(0, r.compare(EMPTY, EMPTY));
        assertSame(LongType.instance, r.reversed());
        assertEquals("A long is exactly 8 bytes", assertThrows(MarshalException.class, () -> r.validate(bytes(1))).getMessage());
    }

    @Test
    void forNameAcceptsShortAndFullNames() {
        assertSame(UTF8Type.instance, MarshalTypes.forName("UTF8Type"));
        assertSame(TimeUUIDType.instance, MarshalTypes.forName("org.apache.cassandra.db.marshal.TimeUUIDType"));
        for (String n : List.of("BytesType", "AsciiType", "UTF8Type", "LongType", "LexicalUUIDType", "TimeUUIDType")) {
            assertEquals("org.apache.cassandra.db.marshal." + n, MarshalTypes.forName(n).className());
        }
        assertThrows(IllegalArgumentException.class, () -> MarshalTypes.forName("NoSuchType"));
        assertThrows(IllegalArgumentException.class, () -> MarshalTypes.forName("org.apache.cassandra.db.marshal.Nope"));
        assertThrows(IllegalArgumentException.class, () -> MarshalTypes.forName("java.lang.String"));
    }
}
