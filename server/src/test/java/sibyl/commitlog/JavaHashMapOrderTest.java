package sibyl.commitlog;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import sibyl.db.SystemKeyspace;

/**
 * The iteration orders of the JVMs' HashMaps that 0.6's column family numbers follow. Keys of equal
 * hash share a bucket in every release, which shows each release's chaining: Java 6 and 7 put a new
 * key at the head of its bucket, Java 8 at the tail; Java 6 doubles the table after the insert that
 * reaches 12 keys, Java 7 before it, and doubling moves a chain over reversed.
 */
class JavaHashMapOrderTest {
    /** "Aa" and "BB" (and their concatenations) have the same String hash code. */
    private static List<String> equalHashes(int n) {
        List<String> keys = new ArrayList<>();
        for (int i = 0; keys.size() < n; i++) {
            StringBuilder s = new StringBuilder();
            for (int bit = 0; bit < 4; bit++) s.append((i >> bit & 1) == 0 ? "Aa" : "BB");
            keys.add(s.toString());
        }
        return keys;
    }

    @Test
    void keysOfOneBucketComeOutLastFirstBeforeJavaEightAndInOrderSince() {
        List<String> keys = equalHashes(3);
        assertEquals(List.of(keys.get(2), keys.get(1), keys.get(0)), JavaHashMapOrder.JAVA_6.iterationOrder(keys));
        assertEquals(List.of(keys.get(2), keys.get(1), keys.get(0)), JavaHashMapOrder.JAVA_7.iterationOrder(keys));
        assertEquals(keys, JavaHashMapOrder.JAVA_8.iterationOrder(keys));
    }

    @Test
    void theThirteenthKeyDoublesTheTableAfterItsInsertInJavaSixAndBeforeInJavaSeven() {
        List<String> keys = equalHashes(13);
        // Java 6: 13 keys at the head of one chain, last first; doubling reverses the chain: first first.
        assertEquals(keys, JavaHashMapOrder.JAVA_6.iterationOrder(keys));
        // Java 7: the 12 first reversed twice (inserted, then moved over), then the 13th at the head.
        List<String> java7 = new ArrayList<>(List.of(keys.get(12)));
        java7.addAll(keys.subList(0, 12));
        assertEquals(java7, JavaHashMapOrder.JAVA_7.iterationOrder(keys));
    }

    @Test
    void javaSixAndSevenAgreeUpToTwelveKeys() {
        Random random = new Random(31);
        for (int round = 0; round < 200; round++) {
            List<String> keys = new ArrayList<>();
            for (int i = 0; i < 1 + random.nextInt(12); i++) keys.add("CF" + random.nextInt(1_000_000));
            assertEquals(JavaHashMapOrder.JAVA_6.iterationOrder(keys), JavaHashMapOrder.JAVA_7.iterationOrder(keys),
                    "seed 31, round " + round + ": " + keys);
        }
    }

    @Test
    void javaEightIsTheRunningJvmsHashMap() {
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 40; i++) keys.add("ColumnFamily" + i * 7);
        Map<String, Boolean> map = new HashMap<>();
        keys.forEach(k -> map.put(k, true));
        assertEquals(new ArrayList<>(map.keySet()), JavaHashMapOrder.JAVA_8.iterationOrder(keys));
    }

    @Test
    void aKeyPutTwiceKeepsItsFirstPlace() {
        List<String> keys = equalHashes(3);
        List<String> twice = new ArrayList<>(keys);
        twice.add(keys.get(0));
        for (JavaHashMapOrder order : JavaHashMapOrder.values()) {
            assertEquals(order.iterationOrder(keys), order.iterationOrder(twice), order.name());
        }
    }

    /**
     * 0.6.5's sample configuration on Java 17, as the header of a segment a real node wrote shows it
     * (Super1 = 1, Standard1 = 3, LocationInfo = 6; see also RealCassandra06SegmentTest).
     */
    @Test
    void theSampleConfigurationNumbersAsARealNodeOnJavaSeventeenDid() {
        List<ColumnFamilyId> byId = LegacyColumnFamilyIds.number(List.of(C06Fixture.KEYSPACE1), JavaHashMapOrder.JAVA_8);
        assertEquals(7, byId.size());
        assertEquals(new ColumnFamilyId("Keyspace1", "Super1"), byId.get(1));
        assertEquals(new ColumnFamilyId("Keyspace1", "Standard1"), byId.get(3));
        assertEquals(new ColumnFamilyId(SystemKeyspace.NAME, SystemKeyspace.LOCATION_INFO), byId.get(6));
    }
}
