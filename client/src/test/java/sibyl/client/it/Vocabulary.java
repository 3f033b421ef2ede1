package sibyl.client.it;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import sibyl.client.it.DifferentialSchema.Family;

/**
 * The row keys and column names the random operations of one run draw from: few enough that writes, deletions
 * and reads keep landing on the same rows and columns. Keys sit at the edges of each partitioner's order (case,
 * accents, a character outside the Basic Multilingual Plane, digits that sort as text).
 */
final class Vocabulary {
    private static final List<String> KEYS = List.of("k0", "k1", "k2", "k3", "k4", "k5", "k6", "k7", "a", "A", "b", "B",
            "e", "é", "ß", "Zürich", "中文", "\uD83D\uDE00", "\uFF21", "key 10", "key9", "0", "~", "k1\u0000x");

    private final Random random;
    private final List<String> keys;
    /** Per column family: its column names (standard) or super column names (super). */
    private final Map<String, List<byte[]>> names = new LinkedHashMap<>();
    /** Per super column family: its subcolumn names. */
    private final Map<String, List<byte[]>> subnames = new HashMap<>();

    Vocabulary(Random random) {
        this.random = random;
        List<String> shuffled = new ArrayList<>(KEYS);
        Collections.shuffle(shuffled, random);
        this.keys = List.copyOf(shuffled.subList(0, 16 + random.nextInt(KEYS.size() - 15)));
        for (Family f : DifferentialSchema.FAMILIES) {
            names.put(f.id(), pool(f.names(), f.isSuper() ? 6 : 14));
            if (f.isSuper()) subnames.put(f.id(), pool(f.subnames(), 10));
        }
    }

    private List<byte[]> pool(ColumnNameType type, int size) {
        Map<String, byte[]> distinct = new LinkedHashMap<>();
        while (distinct.size() < size) {
            byte[] n = type.name(random);
            distinct.put(HexFormat.of().formatHex(n), n);
        }
        return List.copyOf(distinct.values());
    }

    /** Every key of this run. */
    List<String> keys() {
        return keys;
    }

    String key() {
        return keys.get(random.nextInt(keys.size()));
    }

    /** A key of this run, now and then one no operation writes. */
    String keyOrStranger() {
        return random.nextInt(12) == 0 ? "never-" + random.nextInt(3) : key();
    }

    /** A column name (standard family) or super column name (super family) of the pool. */
    byte[] name(Family f) {
        List<byte[]> pool = names.get(f.id());
        return pool.get(random.nextInt(pool.size()));
    }

    /** A subcolumn name of the pool of a super family. */
    byte[] subname(Family f) {
        List<byte[]> pool = subnames.get(f.id());
        return pool.get(random.nextInt(pool.size()));
    }

    /** A name of the pool, now and then a new one of the same type (which no write uses). */
    byte[] nameOrStranger(Family f) {
        return random.nextInt(8) == 0 ? f.names().name(random) : name(f);
    }

    byte[] subnameOrStranger(Family f) {
        return random.nextInt(8) == 0 ? f.subnames().name(random) : subname(f);
    }

    /** The names of the level a slice of {@code parent} reads: subcolumns inside a super column, else the family's. */
    byte[] nameAt(Family f, boolean insideSuperColumn) {
        return insideSuperColumn ? subnameOrStranger(f) : nameOrStranger(f);
    }

    ColumnNameType typeAt(Family f, boolean insideSuperColumn) {
        return insideSuperColumn ? f.subnames() : f.names();
    }
}
