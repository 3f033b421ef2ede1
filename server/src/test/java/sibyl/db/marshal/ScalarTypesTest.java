package sibyl.db.marshal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static sibyl.db.marshal.Names.EMPTY;
import static sibyl.db.marshal.Names.assertOrdered;
import static sibyl.db.marshal.Names.bytes;
import static sibyl.db.marshal.Names.ofDouble;
import static sibyl.db.marshal.Names.ofFloat;
import static sibyl.db.marshal.Names.ofInt;
import static sibyl.db.marshal.Names.ofLong;
import static sibyl.db.marshal.Names.refusal;
import static sibyl.db.marshal.Names.uuid;

import org.junit.jupiter.api.Test;

/**
 * The orders and refusals of the types 0.7 to 3.11 added, each as Cassandra 3.11.19's own classes give them (the
 * cases were checked against them).
 */
class ScalarTypesTest {
    @Test
    void integerTypeIsNumericWhateverTheLength() {
        assertOrdered(IntegerType.instance, EMPTY, bytes(0x80, 0x00), bytes(0xff, 0x00), bytes(0xff), bytes(0x00),
                bytes(0x01), bytes(0x00, 0xff), bytes(0x01, 0x00), bytes(0x7f, 0xff, 0xff));
        assertEquals(0, IntegerType.instance.compare(bytes(0x00, 0x01), bytes(0x01)), "a sign byte more is the same number");
        assertEquals("accepted", refusal(IntegerType.instance, bytes(1, 2, 3)));
        assertEquals("-256", IntegerType.instance.getString(bytes(0xff, 0x00)));
    }

    @Test
    void int32TypeIsSignedAndFourBytesOrNone() {
        assertOrdered(Int32Type.instance, EMPTY, ofInt(Integer.MIN_VALUE), ofInt(-1), ofInt(0), ofInt(1),
                ofInt(Integer.MAX_VALUE));
        assertEquals("Expected 4 or 0 byte int (3)", refusal(Int32Type.instance, bytes(1, 2, 3)));
        assertEquals("accepted", refusal(Int32Type.instance, EMPTY));
    }

    @Test
    void uuidTypeOrdersByVersionThenTimeForVersionOneThenBytes() {
        assertOrdered(UUIDType.instance, EMPTY,
                uuid(0, 0, 0),
                uuid(1, 5, 0x80L << 56),   // version 1 by time, then the second half as signed bytes: -128
                uuid(1, 5, 0x7fL << 56),   // before 127
                uuid(1, 6, 0),
                uuid(4, 0, 0),
                uuid(4, 0, 0x80L << 56));  // other versions by unsigned bytes
    }

    @Test
    void uuidRefusals() {
        assertEquals("UUID should be 16 or 0 bytes (15)", refusal(UUIDType.instance, new byte[15]));
        assertEquals("UUID should be 16 or 0 bytes (3)", refusal(LexicalUUIDType.instance, new byte[3]));
        assertEquals("Invalid version for TimeUUID type.", refusal(TimeUUIDType.instance, uuid(4, 0, 0)));
        assertEquals("accepted", refusal(UUIDType.instance, uuid(4, 0, 0)));
    }

    @Test
    void timestampTypeIsSignedButDateTypeUnsigned() {
        assertOrdered(TimestampType.instance, EMPTY, ofLong(-1000), ofLong(0), ofLong(1000));
        assertOrdered(DateType.instance, EMPTY, ofLong(0), ofLong(1000), ofLong(-1000));
        assertEquals("Expected 8 or 0 byte long for date (4)", refusal(DateType.instance, new byte[4]));
        assertEquals("Expected 8 or 0 byte long for date (9)", refusal(TimestampType.instance, new byte[9]));
        assertEquals("2009-02-13 23:31Z", TimestampType.instance.getString(ofLong(1234567890123L)));
    }

    @Test
    void booleanTypeHasFalseThenEveryTrueEqual() {
        assertOrdered(BooleanType.instance, EMPTY, bytes(0), bytes(1));
        assertEquals(0, BooleanType.instance.compare(bytes(1), bytes(0xff)));
        assertEquals("Expected 1 or 0 byte value (2)", refusal(BooleanType.instance, bytes(0, 1)));
        assertEquals("true", BooleanType.instance.getString(bytes(2)));
    }

    @Test
    void floatingPointTypesOrderAsTheirNumbers() {
        assertOrdered(DoubleType.instance, EMPTY, ofDouble(Double.NEGATIVE_INFINITY), ofDouble(-1.5), ofDouble(-0.0),
                ofDouble(0.0), ofDouble(2.25), ofDouble(Double.POSITIVE_INFINITY), ofDouble(Double.NaN));
        assertOrdered(FloatType.instance, EMPTY, ofFloat(-3f), ofFloat(-0f), ofFloat(0f), ofFloat(1e30f));
        assertEquals("Expected 8 or 0 byte value for a double (4)", refusal(DoubleType.instance, new byte[4]));
        assertEquals("Expected 4 or 0 byte value for a float (8)", refusal(FloatType.instance, new byte[8]));
    }

    @Test
    void decimalTypeIsNumericAcrossScales() {
        byte[] oneTenth = bytes(0, 0, 0, 1, 1);        // 1 scale 1
        byte[] oneTenthAgain = bytes(0, 0, 0, 2, 10);  // 10 scale 2
        byte[] minusTwo = bytes(0, 0, 0, 0, 0xfe);
        byte[] ten = bytes(0xff, 0xff, 0xff, 0xff, 1); // 1 scale -1
        assertOrdered(DecimalType.instance, EMPTY, minusTwo, oneTenth, ten);
        assertEquals(0, DecimalType.instance.compare(oneTenth, oneTenthAgain));
        assertEquals("Expected 0 or at least 4 bytes (3)", refusal(DecimalType.instance, bytes(0, 0, 1)));
        assertEquals("0.1", DecimalType.instance.getString(oneTenth));
    }

    @Test
    void inetAddressTypeIsByteOrderOfFourOrSixteenBytes() {
        assertOrdered(InetAddressType.instance, EMPTY, new byte[16], bytes(10, 0, 0, 1), bytes(127, 0, 0, 1));
        assertEquals("Expected 4 or 16 byte inetaddress; got 0a0001", refusal(InetAddressType.instance, bytes(10, 0, 1)));
        assertEquals("127.0.0.1", InetAddressType.instance.getString(bytes(127, 0, 0, 1)));
    }

    @Test
    void counterColumnTypeValidatesAsALong() {
        assertEquals("Expected 8 or 0 byte long (4)", refusal(CounterColumnType.instance, new byte[4]));
        assertEquals("accepted", refusal(CounterColumnType.instance, ofLong(3)));
    }

    @Test
    void theTypesOfCqlTakeNoEmptyValue() {
        assertEquals("Expected 2 bytes for a smallint (0)", refusal(ShortType.instance, EMPTY));
        assertEquals("Expected 1 byte for a tinyint (0)", refusal(ByteType.instance, EMPTY));
        assertEquals("Expected 4 byte long for date (0)", refusal(SimpleDateType.instance, EMPTY));
        assertEquals("Expected 8 byte long for time (0)", refusal(TimeType.instance, EMPTY));
        assertOrdered(ShortType.instance, bytes(0x80, 0), bytes(0xff, 0xff), bytes(0, 0), bytes(0x7f, 0xff));
        assertOrdered(ByteType.instance, bytes(0x80), bytes(0xff), bytes(0), bytes(0x7f));
        assertOrdered(SimpleDateType.instance, ofInt(0), ofInt(Integer.MAX_VALUE), ofInt(Integer.MIN_VALUE), ofInt(-1));
        assertEquals("1970-01-01", SimpleDateType.instance.getString(ofInt(Integer.MIN_VALUE)));
        assertEquals("00:00:01.000000000", TimeType.instance.getString(ofLong(1_000_000_000L)));
    }

    @Test
    void theOlderTypesSpeak311sWordsThroughConform() {
        assertEquals("Expected 8 or 0 byte long (3)", refusal(LongType.instance, new byte[3]));
        assertEquals("Invalid byte for ascii: -1", refusal(AsciiType.instance, bytes(0x41, 0xff)));
        assertEquals("String didn't validate.", refusal(UTF8Type.instance, bytes(0xc0, 0x80)));
        assertEquals("Expected 8 or 0 byte long (3)", refusal(ReversedType.of(LongType.instance), new byte[3]));
    }
}
