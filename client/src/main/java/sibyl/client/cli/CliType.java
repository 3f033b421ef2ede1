package sibyl.client.cli;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import sibyl.client.Bytes;
import sibyl.client.NameType;

/**
 * A type of Cassandra 0.7–3.11 (a comparator, key or value validator named by its class) as the 0.7+ cli
 * writes it in statements and prints it: {@link #parse} turns text into the bytes the server stores,
 * {@link #format} turns them back into text that parses to the same bytes. BytesType (and unknown custom
 * types) are hex digits, as that era's cli wrote and printed them.
 */
final class CliType {

    private enum Kind {
        BYTES, ASCII, UTF8, LONG, INT32, INTEGER, LEXICAL_UUID, TIME_UUID, UUID, BOOLEAN, DOUBLE, FLOAT, DATE,
        DECIMAL, INET, COMPOSITE
    }

    private static final DateTimeFormatter DATE_OUT = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ssZ")
            .withZone(ZoneOffset.UTC);

    static final CliType BYTES = new CliType(Kind.BYTES, "BytesType", List.of());
    static final CliType UTF8 = new CliType(Kind.UTF8, "UTF8Type", List.of());

    private final Kind kind;
    private final String name;
    private final List<CliType> components;

    private CliType(Kind kind, String name, List<CliType> components) {
        this.kind = kind;
        this.name = name;
        this.components = components;
    }

    /**
     * The type a class name stands for, fully qualified or simple, with parameters for ReversedType and
     * CompositeType; null or empty is BytesType, as the server's default. Unknown names are BytesType too: their
     * bytes can still be written and read as hex.
     */
    static CliType of(String className) {
        if (className == null || className.isBlank()) {
            return BYTES;
        }
        String s = className.strip();
        int open = s.indexOf('(');
        String simple = open < 0 ? s : s.substring(0, open);
        simple = simple.substring(simple.lastIndexOf('.') + 1).strip();
        if (open >= 0 && s.endsWith(")")) {
            List<String> args = splitArguments(s.substring(open + 1, s.length() - 1));
            if (simple.equals("ReversedType") && args.size() == 1) {
                return of(args.get(0));
            }
            if (simple.equals("CompositeType")) {
                List<CliType> parts = new ArrayList<>();
                for (String a : args) {
                    parts.add(of(a));
                }
                return new CliType(Kind.COMPOSITE, s, List.copyOf(parts));
            }
        }
        Kind kind = switch (simple) {
            case "AsciiType" -> Kind.ASCII;
            case "UTF8Type" -> Kind.UTF8;
            case "LongType", "CounterColumnType" -> Kind.LONG;
            case "Int32Type" -> Kind.INT32;
            case "IntegerType" -> Kind.INTEGER;
            case "LexicalUUIDType" -> Kind.LEXICAL_UUID;
            case "TimeUUIDType" -> Kind.TIME_UUID;
            case "UUIDType" -> Kind.UUID;
            case "BooleanType" -> Kind.BOOLEAN;
            case "DoubleType" -> Kind.DOUBLE;
            case "FloatType" -> Kind.FLOAT;
            case "DateType", "TimestampType" -> Kind.DATE;
            case "DecimalType" -> Kind.DECIMAL;
            case "InetAddressType" -> Kind.INET;
            default -> Kind.BYTES;
        };
        return new CliType(kind, simple, List.of());
    }

    /** The type of a conversion function ({@code utf8('x')}, {@code long(5)}...), or null if there is none. */
    static CliType ofFunction(String function) {
        return switch (function.toLowerCase(Locale.ROOT)) {
            case "bytes" -> BYTES;
            case "utf8" -> UTF8;
            case "ascii" -> of("AsciiType");
            case "long" -> of("LongType");
            case "int" -> of("Int32Type");
            case "integer" -> of("IntegerType");
            case "double" -> of("DoubleType");
            case "lexicaluuid" -> of("LexicalUUIDType");
            case "timeuuid" -> of("TimeUUIDType");
            case "uuid" -> of("UUIDType");
            default -> null;
        };
    }

    /** A type named by a function name (utf8, long...) or a class name (UTF8Type, LongType...), in statements. */
    static CliType named(String name) {
        CliType t = ofFunction(name);
        if (t != null) {
            return t;
        }
        if (name.endsWith("Type") || name.contains(".") || name.contains("(")) {
            return of(name);
        }
        throw new CliError("type '" + name + "' was not found; the types are " + FUNCTIONS
                + " or a class name such as UTF8Type");
    }

    static final String FUNCTIONS = "bytes, utf8, ascii, long, int, integer, double, lexicaluuid, timeuuid, uuid";

    /** The simple class name (or the whole CompositeType(...) text). */
    String name() {
        return name;
    }

    /**
     * What a conversion function with no argument gives: a new time-based UUID for timeuuid(), a random one for
     * lexicaluuid() and uuid(), no bytes for bytes(); null where an argument is needed.
     */
    byte[] noArgument() {
        return switch (kind) {
            case TIME_UUID -> uuidBytes(TimeUuids.next());
            case LEXICAL_UUID, UUID -> uuidBytes(java.util.UUID.randomUUID());
            case BYTES -> new byte[0];
            default -> null;
        };
    }

    /** Text to bytes; IllegalArgumentException naming what is wrong. */
    byte[] parse(String text) {
        switch (kind) {
            case BYTES:
                return hex(text);
            case ASCII:
                return NameType.ASCII.parse(text);
            case UTF8:
                return Bytes.utf8(text);
            case LONG:
                return NameType.LONG.parse(text);
            case INT32:
                try {
                    return ByteBuffer.allocate(4).putInt(Integer.parseInt(text.strip())).array();
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("'" + text + "' is not a 32-bit integer (Int32Type)");
                }
            case INTEGER:
                try {
                    return new BigInteger(text.strip()).toByteArray();
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("'" + text + "' is not an integer (IntegerType)");
                }
            case LEXICAL_UUID:
            case UUID:
                return NameType.LEXICAL_UUID.parse(text);
            case TIME_UUID:
                return NameType.TIME_UUID.parse(text);
            case BOOLEAN:
                if (text.equalsIgnoreCase("true") || text.equalsIgnoreCase("false")) {
                    return new byte[] {(byte) (text.equalsIgnoreCase("true") ? 1 : 0)};
                }
                throw new IllegalArgumentException("'" + text + "' is not true or false (BooleanType)");
            case DOUBLE:
                return ByteBuffer.allocate(8).putDouble(decimal(text).doubleValue()).array();
            case FLOAT:
                return ByteBuffer.allocate(4).putFloat(decimal(text).floatValue()).array();
            case DECIMAL: {
                BigDecimal d = decimal(text);
                byte[] unscaled = d.unscaledValue().toByteArray();
                return ByteBuffer.allocate(4 + unscaled.length).putInt(d.scale()).put(unscaled).array();
            }
            case DATE:
                return ByteBuffer.allocate(8).putLong(millis(text)).array();
            case INET:
                return inet(text);
            case COMPOSITE:
                return composite(text);
            default:
                throw new AssertionError(kind);
        }
    }

    /** Bytes to text, the inverse of {@link #parse}; bytes that do not fit the type are printed as hex. */
    String format(byte[] b) {
        ByteBuffer buf = ByteBuffer.wrap(b);
        return switch (kind) {
            case ASCII, UTF8 -> {
                String s = Bytes.decodeUtf8OrNull(b);
                yield s != null ? s : Bytes.toHex(b);
            }
            case LONG -> b.length == 8 ? Long.toString(buf.getLong()) : Bytes.toHex(b);
            case INT32 -> b.length == 4 ? Integer.toString(buf.getInt()) : Bytes.toHex(b);
            case INTEGER -> b.length == 0 ? "" : new BigInteger(b).toString();
            case LEXICAL_UUID, TIME_UUID, UUID ->
                    b.length == 16 ? new java.util.UUID(buf.getLong(), buf.getLong()).toString() : Bytes.toHex(b);
            case BOOLEAN -> b.length == 1 ? Boolean.toString(b[0] != 0) : Bytes.toHex(b);
            case DOUBLE -> b.length == 8 ? Double.toString(buf.getDouble()) : Bytes.toHex(b);
            case FLOAT -> b.length == 4 ? Float.toString(buf.getFloat()) : Bytes.toHex(b);
            case DECIMAL -> {
                if (b.length < 5) {
                    yield Bytes.toHex(b);
                }
                int scale = buf.getInt();
                byte[] unscaled = new byte[b.length - 4];
                buf.get(unscaled);
                yield new BigDecimal(new BigInteger(unscaled), scale).toPlainString();
            }
            case DATE -> b.length == 8 ? DATE_OUT.format(Instant.ofEpochMilli(buf.getLong())) : Bytes.toHex(b);
            case INET -> {
                try {
                    yield b.length == 4 || b.length == 16 ? InetAddress.getByAddress(b).getHostAddress()
                            : Bytes.toHex(b);
                } catch (UnknownHostException e) {
                    yield Bytes.toHex(b);
                }
            }
            case COMPOSITE -> formatComposite(b);
            case BYTES -> Bytes.toHex(b);
        };
    }

    // ---- the forms ----

    private static byte[] hex(String text) {
        String digits = text.startsWith("0x") || text.startsWith("0X") ? text.substring(2) : text;
        if (digits.length() % 2 != 0 || !digits.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
            throw new IllegalArgumentException("cannot parse '" + text + "' as hex bytes (BytesType; write text as "
                    + "utf8('" + text + "'))");
        }
        return Bytes.fromHex(digits);
    }

    private static byte[] uuidBytes(java.util.UUID u) {
        return ByteBuffer.allocate(16).putLong(u.getMostSignificantBits()).putLong(u.getLeastSignificantBits())
                .array();
    }

    private BigDecimal decimal(String text) {
        try {
            return new BigDecimal(text.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' is not a number (" + name + ")");
        }
    }

    /**
     * Milliseconds since the epoch, or a date as yyyy-MM-dd, with HH:mm[:ss] after a space or T, in UTC unless
     * an offset (+hhmm) follows, as printed.
     */
    private static long millis(String text) {
        String s = text.strip();
        if (s.matches("-?\\d+")) {
            return Long.parseLong(s);
        }
        try {
            if (s.matches(".*[+-]\\d{4}")) {
                return java.time.OffsetDateTime.parse(s, DATE_OUT.withZone(null)).toInstant().toEpochMilli();
            }
            if (s.length() == 10) {
                return LocalDate.parse(s).atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli();
            }
            return LocalDateTime.parse(s.replace(' ', 'T')).toInstant(ZoneOffset.UTC).toEpochMilli();
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("'" + text + "' is neither milliseconds since the epoch nor a date "
                    + "yyyy-MM-dd[ HH:mm[:ss]] (DateType)");
        }
    }

    private static byte[] inet(String text) {
        String s = text.strip();
        // Literal addresses only: a host name would be a DNS lookup.
        if (!s.matches("[0-9.]+") && !s.matches("[0-9a-fA-F:.]+")) {
            throw new IllegalArgumentException("'" + text + "' is not an IPv4 or IPv6 address (InetAddressType)");
        }
        try {
            return InetAddress.getByName(s).getAddress();
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("'" + text + "' is not an IPv4 or IPv6 address (InetAddressType)");
        }
    }

    /** Components separated by ':' ({@code \:} is a colon inside one), each by its own type. */
    private byte[] composite(String text) {
        List<String> parts = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\\' && i + 1 < text.length() && text.charAt(i + 1) == ':') {
                cur.append(':');
                i++;
            } else if (c == ':') {
                parts.add(cur.toString());
                cur.setLength(0);
            } else {
                cur.append(c);
            }
        }
        parts.add(cur.toString());
        if (parts.size() > components.size()) {
            throw new IllegalArgumentException("'" + text + "' has " + parts.size() + " components; " + name
                    + " has " + components.size());
        }
        List<byte[]> encoded = new ArrayList<>();
        int size = 0;
        for (int i = 0; i < parts.size(); i++) {
            byte[] c = components.get(i).parse(parts.get(i));
            encoded.add(c);
            size += 3 + c.length;
        }
        ByteBuffer out = ByteBuffer.allocate(size);
        for (byte[] c : encoded) {
            out.putShort((short) c.length).put(c).put((byte) 0);
        }
        return out.array();
    }

    private String formatComposite(byte[] b) {
        ByteBuffer buf = ByteBuffer.wrap(b);
        List<String> parts = new ArrayList<>();
        int i = 0;
        while (buf.remaining() >= 3) {
            int len = buf.getShort() & 0xffff;
            if (len + 1 > buf.remaining()) {
                return Bytes.toHex(b);
            }
            byte[] c = new byte[len];
            buf.get(c);
            buf.get(); // end-of-component
            CliType t = i < components.size() ? components.get(i) : BYTES;
            parts.add(t.format(c).replace(":", "\\:"));
            i++;
        }
        return buf.hasRemaining() ? Bytes.toHex(b) : String.join(":", parts);
    }

    private static List<String> splitArguments(String inner) {
        List<String> args = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < inner.length(); i++) {
            char c = inner.charAt(i);
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (c == ',' && depth == 0) {
                args.add(inner.substring(start, i).strip());
                start = i + 1;
            }
        }
        if (!inner.isBlank()) {
            args.add(inner.substring(start).strip());
        }
        return args;
    }
}
