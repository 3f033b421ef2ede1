package sibyl.client.it;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;

/**
 * The six comparators of Cassandra 0.6 as a random test needs them: valid names of each, drawn to sit at the
 * edges of its order (signed bytes, surrogate pairs, negative longs, UUIDs that differ only past their
 * timestamp), and names each must refuse.
 */
enum ColumnNameType {
    BYTES("BytesType"),
    ASCII("AsciiType"),
    UTF8("UTF8Type"),
    LONG("LongType"),
    LEXICAL_UUID("LexicalUUIDType"),
    TIME_UUID("TimeUUIDType");

    /** The comparator's name in a storage-conf.xml. */
    final String comparator;

    ColumnNameType(String comparator) {
        this.comparator = comparator;
    }

    private static final byte[] EDGE_BYTES = {0x00, 0x01, 0x41, 0x61, 0x7f, (byte) 0x80, (byte) 0xc3, (byte) 0xfe, (byte) 0xff};
    private static final String ASCII_CHARS = "aAbBzZ09 _~";
    private static final String[] UTF8_PIECES = {"a", "b", "A", "é", "e", "ß", "中", "\uFF21", "\uD83D\uDE00", "\u00FF", "~", "0"};
    private static final long[] EDGE_LONGS = {Long.MIN_VALUE, -256, -1, 0, 1, 255, 256, 1L << 31, Long.MAX_VALUE};

    /** A valid name of this type. */
    byte[] name(Random random) {
        return switch (this) {
            case BYTES -> {
                byte[] b = new byte[1 + random.nextInt(4)];
                for (int i = 0; i < b.length; i++) {
                    b[i] = random.nextInt(3) == 0 ? (byte) random.nextInt(256) : EDGE_BYTES[random.nextInt(EDGE_BYTES.length)];
                }
                yield b;
            }
            case ASCII -> {
                StringBuilder s = new StringBuilder();
                for (int i = 1 + random.nextInt(5); i > 0; i--) s.append(ASCII_CHARS.charAt(random.nextInt(ASCII_CHARS.length())));
                yield s.toString().getBytes(StandardCharsets.US_ASCII);
            }
            case UTF8 -> {
                StringBuilder s = new StringBuilder();
                for (int i = 1 + random.nextInt(3); i > 0; i--) s.append(UTF8_PIECES[random.nextInt(UTF8_PIECES.length)]);
                yield s.toString().getBytes(StandardCharsets.UTF_8);
            }
            case LONG -> {
                long v = switch (random.nextInt(3)) {
                    case 0 -> EDGE_LONGS[random.nextInt(EDGE_LONGS.length)];
                    case 1 -> random.nextInt(2001) - 1000;
                    default -> random.nextLong();
                };
                yield ByteBuffer.allocate(8).putLong(v).array();
            }
            case LEXICAL_UUID -> {
                byte[] b = new byte[16];
                random.nextBytes(b);
                if (random.nextBoolean()) b[0] = (byte) (random.nextBoolean() ? 0x7f : 0x80); // both signs of the high long
                if (random.nextInt(4) == 0) Arrays.fill(b, 1, 8, (byte) 0); // equal high bytes, the low long decides
                yield b;
            }
            case TIME_UUID -> timeUuid(random);
        };
    }

    /**
     * A version 1 UUID. Its 60-bit time comes from a few values, so that names often share a time and only the
     * clock sequence and node bytes order them.
     */
    private static byte[] timeUuid(Random random) {
        long[] times = {0x1DF_0000_0000_0000L, 0x1DF_0000_0000_0001L, 0x1DF_0000_FFFF_0000L, 0x0FF_FFFF_FFFF_FFFFL,
                0x1E0_1234_5678_9ABCL};
        long time = random.nextInt(3) == 0 ? random.nextLong() & 0x0FFF_FFFF_FFFF_FFFFL : times[random.nextInt(times.length)];
        ByteBuffer b = ByteBuffer.allocate(16);
        b.putInt((int) time);                                   // time_low
        b.putShort((short) (time >>> 32));                      // time_mid
        b.putShort((short) (((time >>> 48) & 0x0FFF) | 0x1000)); // time_hi and version 1
        byte[] rest = new byte[8];
        random.nextBytes(rest);
        rest[0] = (byte) ((rest[0] & 0x3F) | 0x80);             // the IETF variant
        b.put(rest);
        return b.array();
    }

    /** A name this type refuses, or null when it accepts every non-empty byte string. */
    byte[] invalidName(Random random) {
        return switch (this) {
            case BYTES, ASCII -> null;
            case UTF8 -> new byte[] {0x61, (byte) 0xc3, 0x28};
            case LONG -> new byte[] {0, 0, 0, (byte) (1 + random.nextInt(9))};
            case LEXICAL_UUID -> new byte[15];
            case TIME_UUID -> {
                byte[] b = timeUuid(random);
                b[6] = (byte) ((b[6] & 0x0F) | 0x40); // version 4
                yield b;
            }
        };
    }
}
