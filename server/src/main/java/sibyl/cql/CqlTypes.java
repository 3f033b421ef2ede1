package sibyl.cql;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import sibyl.db.InvalidQueryException;
import sibyl.db.marshal.AbstractType;
import sibyl.db.marshal.AsciiType;
import sibyl.db.marshal.BooleanType;
import sibyl.db.marshal.ByteType;
import sibyl.db.marshal.BytesType;
import sibyl.db.marshal.CounterColumnType;
import sibyl.db.marshal.DateType;
import sibyl.db.marshal.DecimalType;
import sibyl.db.marshal.DoubleType;
import sibyl.db.marshal.FloatType;
import sibyl.db.marshal.InetAddressType;
import sibyl.db.marshal.Int32Type;
import sibyl.db.marshal.IntegerType;
import sibyl.db.marshal.LexicalUUIDType;
import sibyl.db.marshal.LongType;
import sibyl.db.marshal.MarshalException;
import sibyl.db.marshal.ReversedType;
import sibyl.db.marshal.ShortType;
import sibyl.db.marshal.SimpleDateType;
import sibyl.db.marshal.TimeType;
import sibyl.db.marshal.TimeUUIDType;
import sibyl.db.marshal.TimestampType;
import sibyl.db.marshal.UTF8Type;
import sibyl.db.marshal.UUIDType;

/**
 * The CQL side of the marshal types: the name CQL gives a type in its errors ({@code bigint}), and the bytes of a
 * literal for a column of that type, refused with 3.11's texts ({@code Invalid STRING constant (x) for "column1" of
 * type bigint}). Literals the embedded engine serves: 0x blobs for blob, strings for text and ascii, integers for
 * the integer, floating and decimal types, floats for the floating and decimal types, UUIDs for the UUID types,
 * true and false for boolean; a value of any other type is bound to a marker (docs/thrift-api-0.7.md §CQL).
 */
final class CqlTypes {
    private static final Map<Class<?>, String> NAMES = Map.ofEntries(
            Map.entry(BytesType.class, "blob"), Map.entry(AsciiType.class, "ascii"), Map.entry(UTF8Type.class, "text"),
            Map.entry(LongType.class, "bigint"), Map.entry(Int32Type.class, "int"), Map.entry(IntegerType.class, "varint"),
            Map.entry(BooleanType.class, "boolean"), Map.entry(DoubleType.class, "double"),
            Map.entry(FloatType.class, "float"), Map.entry(UUIDType.class, "uuid"),
            Map.entry(TimeUUIDType.class, "timeuuid"), Map.entry(TimestampType.class, "timestamp"),
            Map.entry(DateType.class, "timestamp"), Map.entry(DecimalType.class, "decimal"),
            Map.entry(InetAddressType.class, "inet"), Map.entry(CounterColumnType.class, "counter"),
            Map.entry(ShortType.class, "smallint"), Map.entry(ByteType.class, "tinyint"),
            Map.entry(SimpleDateType.class, "date"), Map.entry(TimeType.class, "time"));

    private CqlTypes() {
    }

    /** A type as a column of the view has it: a reversed comparator's column is of the type it reverses. */
    static AbstractType unreversed(AbstractType type) {
        return type instanceof ReversedType r ? unreversed(r.base()) : type;
    }

    static String cqlName(AbstractType type) {
        String name = NAMES.get(type.getClass());
        return name != null ? name : "'" + type.className() + "'";
    }

    /** The bytes of {@code literal} (not null) for column {@code column} of {@code type}. */
    static ByteBuffer bytes(Term.Literal literal, AbstractType type, String column) {
        Class<?> t = type.getClass();
        String text = literal.text();
        try {
            switch (literal.kind()) {
                case HEX:
                    if (t != BytesType.class) break;
                    if (text.length() % 2 != 0) throw new InvalidQueryException("cannot parse '" + text + "' as hex bytes");
                    return ByteBuffer.wrap(hex(text));
                case STRING:
                    if (t == UTF8Type.class) return ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
                    if (t == AsciiType.class) {
                        for (int i = 0; i < text.length(); i++) {
                            if (text.charAt(i) > 127) throw new InvalidQueryException("Invalid ASCII character in string literal");
                        }
                        return ByteBuffer.wrap(text.getBytes(StandardCharsets.US_ASCII));
                    }
                    if (t == BytesType.class || !NAMES.containsKey(t) || isNumeric(t) || t == BooleanType.class) break;
                    throw Parser.notServed("a string literal for a " + cqlName(type) + " column (bind it to a marker)");
                case INTEGER:
                    if (t == LongType.class || t == CounterColumnType.class) return ByteBuffer.allocate(8).putLong(0, asLong(text, "long"));
                    if (t == Int32Type.class) return ByteBuffer.allocate(4).putInt(0, (int) ranged(text, "int", Integer.MIN_VALUE, Integer.MAX_VALUE));
                    if (t == ShortType.class) return ByteBuffer.allocate(2).putShort(0, (short) ranged(text, "short", Short.MIN_VALUE, Short.MAX_VALUE));
                    if (t == ByteType.class) return ByteBuffer.allocate(1).put(0, (byte) ranged(text, "byte", Byte.MIN_VALUE, Byte.MAX_VALUE));
                    if (t == IntegerType.class) return ByteBuffer.wrap(new BigInteger(text).toByteArray());
                    if (t == DoubleType.class || t == FloatType.class || t == DecimalType.class) return floating(text, t);
                    break;
                case FLOAT:
                    if (t == DoubleType.class || t == FloatType.class || t == DecimalType.class) return floating(text, t);
                    break;
                case UUID:
                    if (t == UUIDType.class || t == TimeUUIDType.class || t == LexicalUUIDType.class) {
                        java.util.UUID u = java.util.UUID.fromString(text);
                        ByteBuffer b = ByteBuffer.allocate(16).putLong(0, u.getMostSignificantBits()).putLong(8, u.getLeastSignificantBits());
                        type.validate(b.duplicate());
                        return b;
                    }
                    break;
                case IDENTIFIER:
                    if (t == BooleanType.class) return ByteBuffer.wrap(new byte[] {(byte) (text.equals("true") ? 1 : 0)});
                    break;
                default:
                    break;
            }
        } catch (NumberFormatException e) {
            throw new InvalidQueryException("Unable to make " + cqlName(type) + " from '" + text + "'");
        } catch (MarshalException e) {
            throw new InvalidQueryException(e.getMessage());
        }
        String kind = literal.kind() == Token.Kind.IDENTIFIER ? "BOOLEAN" : literal.kind().name();
        String shown = literal.kind() == Token.Kind.HEX ? "0x" + text : text;
        throw new InvalidQueryException("Invalid " + kind + " constant (" + shown + ") for \"" + column + "\" of type "
                + cqlName(type));
    }

    private static boolean isNumeric(Class<?> t) {
        return t == LongType.class || t == Int32Type.class || t == IntegerType.class || t == ShortType.class
                || t == ByteType.class || t == DoubleType.class || t == FloatType.class || t == DecimalType.class
                || t == CounterColumnType.class;
    }

    private static long asLong(String text, String what) {
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new InvalidQueryException("Unable to make " + what + " from '" + text + "'");
        }
    }

    private static long ranged(String text, String what, long min, long max) {
        long v;
        try {
            v = Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new InvalidQueryException("Unable to make " + what + " from '" + text + "'");
        }
        if (v < min || v > max) throw new InvalidQueryException("Unable to make " + what + " from '" + text + "'");
        return v;
    }

    private static ByteBuffer floating(String text, Class<?> t) {
        if (t == DoubleType.class) return ByteBuffer.allocate(8).putDouble(0, Double.parseDouble(text));
        if (t == FloatType.class) return ByteBuffer.allocate(4).putFloat(0, Float.parseFloat(text));
        BigDecimal d = new BigDecimal(text);
        byte[] unscaled = d.unscaledValue().toByteArray();
        return ByteBuffer.allocate(4 + unscaled.length).putInt(0, d.scale()).put(4, unscaled);
    }

    private static byte[] hex(String text) {
        byte[] b = new byte[text.length() / 2];
        for (int i = 0; i < b.length; i++) b[i] = (byte) Integer.parseInt(text, 2 * i, 2 * i + 2, 16);
        return b;
    }
}
