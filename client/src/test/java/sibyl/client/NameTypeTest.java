package sibyl.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class NameTypeTest {

    @Test
    void comparatorNamesMapToTypesAndUnknownOnesToBytes() {
        assertEquals(NameType.UTF8, NameType.forComparator("org.apache.cassandra.db.marshal.UTF8Type"));
        assertEquals(NameType.LONG, NameType.forComparator("LongType"));
        assertEquals(NameType.TIME_UUID, NameType.forComparator("org.apache.cassandra.db.marshal.TimeUUIDType"));
        assertEquals(NameType.BYTES, NameType.forComparator("com.example.MyComparator"));
    }

    @Test
    void longsAreEightBytesBigEndian() {
        assertArrayEquals(new byte[] {0, 0, 0, 0, 0, 0, 1, 0}, NameType.LONG.parse("256"));
        assertEquals("-2", NameType.LONG.format(NameType.LONG.parse("-2")));
        assertEquals("0x0102", NameType.LONG.format(new byte[] {1, 2}));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> NameType.LONG.parse("ten"));
        assertTrue(e.getMessage().contains("LongType"));
    }

    @Test
    void uuidsRoundTripAndTimeUuidsMustBeVersionOne() {
        String v1 = "a4a70900-24e1-11df-8924-001ff3591711";
        assertEquals(16, NameType.TIME_UUID.parse(v1).length);
        assertEquals(v1, NameType.TIME_UUID.format(NameType.TIME_UUID.parse(v1.toUpperCase())));
        String v4 = "123e4567-e89b-42d3-a456-426614174000";
        assertEquals(v4, NameType.LEXICAL_UUID.format(NameType.LEXICAL_UUID.parse(v4)));
        assertThrows(IllegalArgumentException.class, () -> NameType.TIME_UUID.parse(v4));
        assertThrows(IllegalArgumentException.class, () -> NameType.LEXICAL_UUID.parse("1-2-3-4-5"));
    }

    @Test
    void bytesTakeHexWithPrefixOrTextAndPrintAsHex() {
        assertArrayEquals(new byte[] {(byte) 0xca, (byte) 0xfe}, NameType.BYTES.parse("0xCAFE"));
        assertArrayEquals(Bytes.utf8("abc"), NameType.BYTES.parse("abc"));
        assertArrayEquals(Bytes.utf8("0xz1"), NameType.BYTES.parse("0xz1"));
        assertEquals("0x616263", NameType.BYTES.format(Bytes.utf8("abc")));
        assertEquals("616263", NameType.BYTES.format06(Bytes.utf8("abc")));
        assertEquals("abc", NameType.UTF8.format06(Bytes.utf8("abc")));
    }

    @Test
    void asciiRefusesOtherCharacters() {
        assertThrows(IllegalArgumentException.class, () -> NameType.ASCII.parse("caf\u00e9"));
        assertEquals("abc", NameType.ASCII.format(NameType.ASCII.parse("abc")));
    }

    @Test
    void valuesReadAsTextWhenPrintable() {
        assertEquals("hello", Bytes.readable(Bytes.utf8("hello")));
        assertEquals("0x00ff", Bytes.readable(new byte[] {0, (byte) 0xff}));
    }
}
