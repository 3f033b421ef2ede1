package sibyl.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.BinaryOperator;
import org.junit.jupiter.api.Test;

class PersistentSortedMapTest {
    @Test
    void behavesLikeTreeMapAndOldVersionsStayIntact() {
        Random r = new Random(5);
        PersistentSortedMap<Integer, Integer> map = PersistentSortedMap.empty(Integer::compare);
        TreeMap<Integer, Integer> ref = new TreeMap<>();
        List<PersistentSortedMap<Integer, Integer>> versions = new ArrayList<>();
        List<TreeMap<Integer, Integer>> refVersions = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            int k = r.nextInt(500);
            int v = r.nextInt(1000);
            map = map.plus(k, v, Integer::sum);
            ref.merge(k, v, Integer::sum);
            if (i % 300 == 0) {
                versions.add(map);
                refVersions.add(new TreeMap<>(ref));
            }
        }
        versions.add(map);
        refVersions.add(ref);
        for (int i = 0; i < versions.size(); i++) check(versions.get(i), refVersions.get(i), r);
    }

    /** Not commutative, so a combine applied in the wrong order or to the wrong pair shows. */
    private static final BinaryOperator<Integer> ORDERED = (older, newer) -> older * 7 + newer;

    @Test
    void builderMatchesTreeMapInAnyOrderWithDuplicates() {
        long seed = System.nanoTime();
        System.out.println("PersistentSortedMapTest.builderMatchesTreeMapInAnyOrderWithDuplicates seed " + seed);
        Random r = new Random(seed);
        for (int round = 0; round < 400; round++) {
            int n = round < 10 ? round : r.nextInt(round < 200 ? 40 : 2000);
            int keyRange = 1 + r.nextInt(Math.max(1, n * 2));
            boolean ascending = r.nextBoolean();
            PersistentSortedMap.Builder<Integer, Integer> builder =
                    new PersistentSortedMap.Builder<>(Integer::compare, ORDERED, r.nextInt(8));
            TreeMap<Integer, Integer> ref = new TreeMap<>();
            int next = r.nextInt(100) - 50;
            for (int i = 0; i < n; i++) {
                int k = ascending ? (next += 1 + r.nextInt(3)) : r.nextInt(keyRange);
                int v = r.nextInt(1000);
                builder.put(k, v);
                ref.merge(k, v, ORDERED);
            }
            PersistentSortedMap<Integer, Integer> map = builder.build();
            assertTrue(map.isWellFormed(), "seed " + seed + " round " + round);
            check(map, ref, r);
            // A built map takes single inserts like any other.
            for (int i = 0; i < 20; i++) {
                int k = r.nextInt(keyRange + 20) - 10;
                map = map.plus(k, i, ORDERED);
                ref.merge(k, i, ORDERED);
            }
            assertTrue(map.isWellFormed(), "seed " + seed + " round " + round);
            check(map, ref, r);
        }
    }

    @Test
    void plusAllMatchesTreeMapAndLeavesBothInputsIntact() {
        long seed = System.nanoTime();
        System.out.println("PersistentSortedMapTest.plusAllMatchesTreeMapAndLeavesBothInputsIntact seed " + seed);
        Random r = new Random(seed);
        for (int round = 0; round < 200; round++) {
            // Sizes from empty to thousands on either side, so both the insert and the merge path run.
            int na = sizeFor(r, round);
            int nb = sizeFor(r, round / 3);
            int keyRange = 1 + r.nextInt(Math.max(1, 2 * (na + nb)));
            // Either side a tree (single inserts) or arrays (built whole).
            TreeMap<Integer, Integer> refA = new TreeMap<>();
            TreeMap<Integer, Integer> refB = new TreeMap<>();
            PersistentSortedMap<Integer, Integer> a = randomMap(r, na, keyRange, 1, refA);
            PersistentSortedMap<Integer, Integer> b = randomMap(r, nb, keyRange, -1, refB);
            TreeMap<Integer, Integer> refAB = new TreeMap<>(refA);
            refB.forEach((k, v) -> refAB.merge(k, v, ORDERED));
            TreeMap<Integer, Integer> refBA = new TreeMap<>(refB);
            refA.forEach((k, v) -> refBA.merge(k, v, ORDERED));

            PersistentSortedMap<Integer, Integer> ab = a.plusAll(b, ORDERED);
            PersistentSortedMap<Integer, Integer> ba = b.plusAll(a, ORDERED);
            String where = "seed " + seed + " round " + round + " sizes " + a.size() + ", " + b.size();
            assertTrue(ab.isWellFormed(), where);
            assertTrue(ba.isWellFormed(), where);
            check(ab, refAB, r);
            check(ba, refBA, r);
            check(a, refA, r);
            check(b, refB, r);
        }
    }

    @Test
    void plusAllOfAnEmptyMapIsTheOtherMap() {
        PersistentSortedMap<Integer, Integer> empty = PersistentSortedMap.empty(Integer::compare);
        PersistentSortedMap<Integer, Integer> one = empty.plus(1, 1, ORDERED);
        assertSame(one, one.plusAll(empty, ORDERED));
        assertSame(one, empty.plusAll(one, ORDERED));
    }

    @Test
    void aMapOfArraysTakesInsertsAndStaysAsItWas() {
        long seed = System.nanoTime();
        System.out.println("PersistentSortedMapTest.aMapOfArraysTakesInsertsAndStaysAsItWas seed " + seed);
        Random r = new Random(seed);
        for (int round = 0; round < 100; round++) {
            TreeMap<Integer, Integer> ref = new TreeMap<>();
            PersistentSortedMap.Builder<Integer, Integer> builder =
                    new PersistentSortedMap.Builder<>(Integer::compare, ORDERED, 0);
            int n = 2 + r.nextInt(300);
            for (int i = 0; i < n; i++) {
                int k = r.nextInt(2 * n);
                builder.put(k, i);
                ref.merge(k, i, ORDERED);
            }
            PersistentSortedMap<Integer, Integer> arrays = builder.build();
            assertTrue(arrays.size() < 2 || arrays.isArrays());
            // Several inserts into the same version (the second reuses the tree made for the first).
            for (int i = 0; i < 3; i++) {
                int k = r.nextInt(2 * n + 10) - 5;
                TreeMap<Integer, Integer> plusRef = new TreeMap<>(ref);
                plusRef.merge(k, -1, ORDERED);
                PersistentSortedMap<Integer, Integer> plus = arrays.plus(k, -1, ORDERED);
                assertTrue(plus.isWellFormed(), "seed " + seed);
                check(plus, plusRef, r);
            }
            assertTrue(arrays.isWellFormed(), "seed " + seed);
            check(arrays, ref, r);

            // The builder goes on after a build without changing the map it built.
            TreeMap<Integer, Integer> more = new TreeMap<>(ref);
            for (int i = 0; i < 20; i++) {
                int k = r.nextInt(2 * n);
                builder.put(k, 1000 + i);
                more.merge(k, 1000 + i, ORDERED);
            }
            PersistentSortedMap<Integer, Integer> rebuilt = builder.build();
            assertTrue(rebuilt.isWellFormed(), "seed " + seed);
            check(rebuilt, more, r);
            check(arrays, ref, r);
        }
    }

    /** A map of n random entries, as a tree (single inserts) or as arrays (built whole), at random. */
    private static PersistentSortedMap<Integer, Integer> randomMap(Random r, int n, int keyRange, int sign,
                                                                   TreeMap<Integer, Integer> ref) {
        boolean whole = r.nextBoolean();
        PersistentSortedMap<Integer, Integer> map = PersistentSortedMap.empty(Integer::compare);
        PersistentSortedMap.Builder<Integer, Integer> builder = new PersistentSortedMap.Builder<>(Integer::compare, ORDERED, n);
        for (int i = 0; i < n; i++) {
            int k = r.nextInt(keyRange);
            if (whole) builder.put(k, sign * i);
            else map = map.plus(k, sign * i, ORDERED);
            ref.merge(k, sign * i, ORDERED);
        }
        return whole ? builder.build() : map;
    }

    private static int sizeFor(Random r, int round) {
        return switch (round % 4) {
            case 0 -> r.nextInt(3);
            case 1 -> r.nextInt(20);
            case 2 -> r.nextInt(200);
            default -> r.nextInt(1500);
        };
    }

    private static void check(PersistentSortedMap<Integer, Integer> map, TreeMap<Integer, Integer> ref, Random r) {
        assertEquals(ref.size(), map.size());
        assertEquals(new ArrayList<>(ref.values()), drain(map.iterator()));
        // Bounds from a little below the smallest key to a little above the largest.
        int low = ref.isEmpty() ? 0 : ref.firstKey() - 10;
        int span = ref.isEmpty() ? 20 : ref.lastKey() + 10 - low;
        for (int i = 0; i < 8; i++) {
            int from = low + r.nextInt(span + 1);
            assertEquals(new ArrayList<>(ref.tailMap(from, true).values()), drain(map.ascendingFrom(from)));
            assertEquals(new ArrayList<>(ref.headMap(from, true).descendingMap().values()), drain(map.descendingFrom(from)));
            assertEquals(ref.get(from), map.get(from));
        }
        assertEquals(new ArrayList<>(ref.descendingMap().values()), drain(map.descendingFrom(null)));
    }

    private static List<Integer> drain(Iterator<Integer> it) {
        List<Integer> r = new ArrayList<>();
        it.forEachRemaining(r::add);
        return r;
    }
}
