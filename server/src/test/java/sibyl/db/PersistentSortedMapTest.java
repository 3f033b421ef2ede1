package sibyl.db;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
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

    private static void check(PersistentSortedMap<Integer, Integer> map, TreeMap<Integer, Integer> ref, Random r) {
        assertEquals(ref.size(), map.size());
        assertEquals(new ArrayList<>(ref.values()), drain(map.iterator()));
        for (int i = 0; i < 50; i++) {
            int from = r.nextInt(520) - 10;
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
