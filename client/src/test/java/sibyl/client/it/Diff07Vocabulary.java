package sibyl.client.it;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import sibyl.client.it.Diff07Schema.Family;

/**
 * The row keys, column names and timestamps the random operations of one run against Cassandra 3.11 draw from: few
 * enough that writes, deletions and reads keep landing on the same rows and columns. Keys are binary, several of
 * them not UTF-8; names include a long one; timestamps come from a narrow window, so that writes often meet others
 * of the same timestamp.
 */
final class Diff07Vocabulary {
    private static final byte[][] KEYS = {
            utf8("k0"), utf8("k1"), utf8("k2"), utf8("k3"), utf8("é"), {(byte) 0xff, (byte) 0xfe, 0x00}, {(byte) 0x80},
            {(byte) 0xc3, 0x28}, {0x00}, {0x00, 0x00, 0x01}, {(byte) 0xed, (byte) 0xa0, (byte) 0x80}, longKey()};
    private static final long BASE_TIMESTAMP = 1_700_000_000_000_000L;

    private final Random random;
    /** Per column family: its column names (standard) or super column names (super). */
    private final Map<String, List<byte[]>> names = new HashMap<>();
    /** Per super column family: its subcolumn names. */
    private final Map<String, List<byte[]>> subnames = new HashMap<>();

    Diff07Vocabulary(Random random) {
        this.random = random;
        for (Family f : Diff07Schema.FAMILIES) {
            names.put(f.name(), pool(f.names(), f.isSuper() ? 5 : 10));
            if (f.isSuper()) subnames.put(f.name(), pool(f.subnames(), 8));
        }
    }

    private List<byte[]> pool(ColumnNameType type, int size) {
        List<byte[]> pool = new ArrayList<>();
        while (pool.size() < size) {
            byte[] name = type.name(random);
            if (pool.stream().noneMatch(n -> Arrays.equals(n, name))) pool.add(name);
        }
        if (type == ColumnNameType.BYTES) {
            byte[] longName = new byte[1000]; // long, yet within 3.11's limit of 65535 bytes
            random.nextBytes(longName);
            pool.add(longName);
        }
        return List.copyOf(pool);
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** A key of 300 bytes. */
    private static byte[] longKey() {
        byte[] k = new byte[300];
        for (int i = 0; i < k.length; i++) k[i] = (byte) (i * 7);
        return k;
    }

    ByteBuffer key() {
        return ByteBuffer.wrap(KEYS[random.nextInt(KEYS.length)]);
    }

    /** 1 to {@code max} distinct keys. */
    List<ByteBuffer> keys(int max) {
        List<ByteBuffer> keys = new ArrayList<>();
        for (int n = 1 + random.nextInt(max); keys.size() < n; ) {
            ByteBuffer k = key();
            if (!keys.contains(k)) keys.add(k);
        }
        return keys;
    }

    Family family() {
        return Diff07Schema.FAMILIES.get(random.nextInt(Diff07Schema.FAMILIES.size()));
    }

    Family superFamily() {
        return Diff07Schema.FAMILIES.stream().filter(Family::isSuper).findFirst().orElseThrow();
    }

    /** A column name of a standard family, or a super column name of a super one. */
    ByteBuffer name(Family f) {
        List<byte[]> pool = names.get(f.name());
        return ByteBuffer.wrap(pool.get(random.nextInt(pool.size())));
    }

    /** A subcolumn name of a super family. */
    ByteBuffer subname(Family f) {
        List<byte[]> pool = subnames.get(f.name());
        return ByteBuffer.wrap(pool.get(random.nextInt(pool.size())));
    }

    /** A value, now and then empty or long. */
    ByteBuffer value() {
        int length = switch (random.nextInt(10)) {
            case 0 -> 0;
            case 1 -> 2000;
            default -> 1 + random.nextInt(12);
        };
        byte[] v = new byte[length];
        random.nextBytes(v);
        return ByteBuffer.wrap(v);
    }

    /** A timestamp later than every one {@link #timestamp} gives. */
    static long pastEveryTimestamp() {
        return BASE_TIMESTAMP + 100;
    }

    /** A timestamp in a window of 60 microseconds. */
    long timestamp() {
        return BASE_TIMESTAMP + random.nextInt(60);
    }

    /** The order a family's comparator puts names of {@code type} in. */
    static Comparator<ByteBuffer> order(ColumnNameType type) {
        if (type == ColumnNameType.LONG) return Comparator.comparingLong(b -> b.getLong(b.position()));
        return (a, b) -> {
            int n = Math.min(a.remaining(), b.remaining());
            for (int i = 0; i < n; i++) {
                int c = Integer.compare(a.get(a.position() + i) & 0xff, b.get(b.position() + i) & 0xff);
                if (c != 0) return c;
            }
            return Integer.compare(a.remaining(), b.remaining());
        };
    }
}
