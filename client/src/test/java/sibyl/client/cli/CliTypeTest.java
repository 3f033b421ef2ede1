package sibyl.client.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The 0.7+ cli's conversions between text and the bytes of each type. */
class CliTypeTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "BytesType|cafe|cafe",
        "org.apache.cassandra.db.marshal.BytesType|0xCAFE|cafe",
        "UTF8Type|héllo|68c3a96c6c6f",
        "AsciiType|abc|616263",
        "LongType|-2|fffffffffffffffe",
        "CounterColumnType|5|0000000000000005",
        "Int32Type|258|00000102",
        "IntegerType|128|0080",
        "IntegerType|-1|ff",
        "BooleanType|true|01",
        "DoubleType|1.5|3ff8000000000000",
        "FloatType|1.5|3fc00000",
        "DecimalType|1.25|000000027d",
        "DateType|1000|00000000000003e8",
        "InetAddressType|127.0.0.1|7f000001",
        "LexicalUUIDType|123e4567-e89b-42d3-a456-426614174000|123e4567e89b42d3a456426614174000",
        "TimeUUIDType|e1a7d4e0-1dd2-11b2-8080-808080808080|e1a7d4e01dd211b28080808080808080",
        "ReversedType(LongType)|7|0000000000000007",
        "CompositeType(UTF8Type,LongType)|ab:3|00026162000008000000000000000300",
    })
    void parsesAndPrintsBack(String type, String text, String hex) {
        CliType t = CliType.of(type);
        byte[] bytes = t.parse(text);
        assertEquals(hex, sibyl.client.Bytes.toHex(bytes));
        byte[] again = t.parse(t.format(bytes));
        assertArrayEquals(bytes, again, "what is printed reads back as the same bytes");
    }

    @Test
    void datesPrintInUtcAndReadBackFromThatForm() {
        CliType date = CliType.of("DateType");
        assertEquals("2011-04-26 12:30:00+0000", date.format(date.parse("2011-04-26 12:30")));
        assertEquals(date.format(date.parse("2011-04-26T12:30:00")), date.format(date.parse("2011-04-26 12:30:00")));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "BytesType|hello|cannot parse 'hello' as hex bytes",
        "BytesType|abc|cannot parse 'abc' as hex bytes",
        "LongType|ten|'ten' is not a decimal 64-bit number (LongType)",
        "Int32Type|3000000000|'3000000000' is not a 32-bit integer",
        "AsciiType|é|is not ASCII",
        "TimeUUIDType|123e4567-e89b-42d3-a456-426614174000|version 4 UUID; TimeUUIDType names must be version 1",
        "UUIDType|not-a-uuid|is not a UUID",
        "BooleanType|yes|is not true or false",
        "DateType|tomorrow|neither milliseconds since the epoch nor a date",
        "InetAddressType|example.com|is not an IPv4 or IPv6 address",
        "CompositeType(UTF8Type)|a:b|has 2 components",
    })
    void refusesWhatDoesNotFitTheType(String type, String text, String message) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CliType.of(type).parse(text));
        assertTrue(e.getMessage().contains(message), e.getMessage());
    }

    @Test
    void bytesThatDoNotFitTheirTypeArePrintedAsHex() {
        assertEquals("0102", CliType.of("LongType").format(new byte[] {1, 2}));
        assertEquals("ff", CliType.of("UTF8Type").format(new byte[] {(byte) 0xff}));
    }

    @Test
    void functionsWithoutArgument() {
        UUID a = uuid(CliType.ofFunction("timeuuid").noArgument());
        UUID b = uuid(CliType.ofFunction("timeuuid").noArgument());
        assertEquals(1, a.version());
        assertTrue(b.timestamp() > a.timestamp(), "each timeuuid() is later than the one before");
        assertEquals(4, uuid(CliType.ofFunction("lexicaluuid").noArgument()).version());
        assertEquals(0, CliType.ofFunction("bytes").noArgument().length);
        assertEquals(null, CliType.ofFunction("long").noArgument());
        assertEquals(null, CliType.ofFunction("nosuch"));
    }

    private static UUID uuid(byte[] b) {
        ByteBuffer buf = ByteBuffer.wrap(b);
        return new UUID(buf.getLong(), buf.getLong());
    }
}
