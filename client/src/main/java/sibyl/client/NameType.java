package sibyl.client;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * How column and super column names of a column family are written as text, following its
 * 0.6 comparator ({@code CompareWith} / {@code CompareSubcolumnsWith} from describe_keyspace).
 *
 * <p>{@link #parse} turns text into the bytes the server expects and {@link #format} turns bytes back
 * into the same text, so whatever is printed can be typed back in:
 * <ul>
 * <li>UTF8Type, AsciiType: the text itself (AsciiType refuses non-ASCII characters);</li>
 * <li>LongType: a decimal number, sent as 8 bytes big-endian;</li>
 * <li>LexicalUUIDType, TimeUUIDType: a UUID in its canonical 8-4-4-4-12 form, sent as 16 bytes
 *     (TimeUUIDType wants version 1);</li>
 * <li>BytesType (and unknown custom comparators): {@code 0x} followed by hex digits is those bytes;
 *     any other text is sent as its UTF-8 bytes. Names are printed as {@code 0x} hex.</li>
 * </ul>
 * Names that do not fit their type (a long that is not 8 bytes, say) are printed as {@code 0x} hex.
 */
public enum NameType {
    BYTES("BytesType"),
    ASCII("AsciiType"),
    UTF8("UTF8Type"),
    LONG("LongType"),
    LEXICAL_UUID("LexicalUUIDType"),
    TIME_UUID("TimeUUIDType");

    private static final Pattern CANONICAL_UUID =
            Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

    private final String comparatorName;

    NameType(String comparatorName) {
        this.comparatorName = comparatorName;
    }

    /** The comparator's simple class name, e.g. {@code UTF8Type}. */
    public String comparatorName() {
        return comparatorName;
    }

    /**
     * The type for a comparator class name as describe_keyspace reports it (fully qualified or simple).
     * Unknown (custom) comparators are treated as BytesType.
     */
    public static NameType forComparator(String className) {
        if (className == null) {
            return BYTES;
        }
        String simple = className.substring(className.lastIndexOf('.') + 1);
        for (NameType t : values()) {
            if (t.comparatorName.equals(simple)) {
                return t;
            }
        }
        return BYTES;
    }

    /** Text to name bytes; IllegalArgumentException with a message naming the problem. */
    public byte[] parse(String text) {
        switch (this) {
            case BYTES:
                if (isHexLiteral(text)) {
                    return Bytes.fromHex(text.substring(2));
                }
                return Bytes.utf8(text);
            case ASCII:
                for (int i = 0; i < text.length(); i++) {
                    if (text.charAt(i) > 127) {
                        throw new IllegalArgumentException("'" + text + "' is not ASCII (AsciiType)");
                    }
                }
                return text.getBytes(StandardCharsets.US_ASCII);
            case UTF8:
                return Bytes.utf8(text);
            case LONG:
                try {
                    return ByteBuffer.allocate(8).putLong(Long.parseLong(text.trim())).array();
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("'" + text + "' is not a decimal 64-bit number (LongType)");
                }
            case LEXICAL_UUID:
            case TIME_UUID:
                return uuidBytes(text);
            default:
                throw new AssertionError(this);
        }
    }

    /**
     * Name bytes as 0.6's cassandra-cli printed them: as {@link #format}, except that BytesType names are
     * bare hex digits (typed back in, those would be text; {@link #format} prints what parses back).
     */
    public String format06(byte[] name) {
        return this == BYTES ? Bytes.toHex(name) : format(name);
    }

    /** Name bytes to text, the inverse of {@link #parse}. */
    public String format(byte[] name) {
        switch (this) {
            case ASCII:
            case UTF8: {
                String s = Bytes.decodeUtf8OrNull(name);
                return s != null ? s : "0x" + Bytes.toHex(name);
            }
            case LONG:
                return name.length == 8 ? Long.toString(ByteBuffer.wrap(name).getLong()) : "0x" + Bytes.toHex(name);
            case LEXICAL_UUID:
            case TIME_UUID:
                if (name.length == 16) {
                    ByteBuffer b = ByteBuffer.wrap(name);
                    return new UUID(b.getLong(), b.getLong()).toString();
                }
                return "0x" + Bytes.toHex(name);
            default:
                return "0x" + Bytes.toHex(name);
        }
    }

    /** {@code 0x} followed by an even, non-zero number of hex digits. */
    public static boolean isHexLiteral(String text) {
        if (text.length() < 4 || text.length() % 2 != 0 || !(text.startsWith("0x") || text.startsWith("0X"))) {
            return false;
        }
        for (int i = 2; i < text.length(); i++) {
            if (Character.digit(text.charAt(i), 16) < 0) {
                return false;
            }
        }
        return true;
    }

    private byte[] uuidBytes(String text) {
        String s = text.trim();
        if (!CANONICAL_UUID.matcher(s).matches()) {
            throw new IllegalArgumentException("'" + text + "' is not a UUID of the form "
                    + "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx (" + comparatorName + ")");
        }
        UUID uuid = UUID.fromString(s.toLowerCase(Locale.ROOT));
        if (this == TIME_UUID && uuid.version() != 1) {
            throw new IllegalArgumentException("'" + text + "' is a version " + uuid.version()
                    + " UUID; TimeUUIDType names must be version 1 (time-based) UUIDs");
        }
        return ByteBuffer.allocate(16).putLong(uuid.getMostSignificantBits())
                .putLong(uuid.getLeastSignificantBits()).array();
    }
}
