package sibyl.thrift20;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.EnumMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import sibyl.iface.v20.ConsistencyLevel;
import sibyl.iface.v20.InvalidRequestException;
import sibyl.service.Consistency;

/** The 0.7+ levels onto the storage seam's, for reads and for writes. */
class ConsistencyMappingTest {
    @Test
    void eachLevelReadsAtItsNearestOrIsRefused() throws Exception {
        Map<ConsistencyLevel, Consistency> expected = new EnumMap<>(ConsistencyLevel.class);
        expected.put(ConsistencyLevel.ONE, Consistency.ONE);
        expected.put(ConsistencyLevel.LOCAL_ONE, Consistency.ONE);
        expected.put(ConsistencyLevel.QUORUM, Consistency.QUORUM);
        expected.put(ConsistencyLevel.LOCAL_QUORUM, Consistency.DCQUORUM);
        expected.put(ConsistencyLevel.EACH_QUORUM, Consistency.DCQUORUMSYNC);
        expected.put(ConsistencyLevel.ALL, Consistency.ALL);
        for (Map.Entry<ConsistencyLevel, Consistency> e : expected.entrySet()) {
            assertEquals(e.getValue(), ConsistencyMapping.forRead(e.getKey()), e.getKey().name());
            assertEquals(e.getValue(), ConsistencyMapping.forWrite(e.getKey()), e.getKey().name());
        }
        assertEquals("ANY ConsistencyLevel is only supported for writes", readRefusal(ConsistencyLevel.ANY));
        assertEquals("Sibyl does not serve reads at consistency level SERIAL yet (issue #33)",
                readRefusal(ConsistencyLevel.SERIAL));
        assertEquals("Sibyl does not serve reads at consistency level LOCAL_SERIAL yet (issue #33)",
                readRefusal(ConsistencyLevel.LOCAL_SERIAL));
        assertEquals("Sibyl does not serve consistency level TWO yet (issue #33)", readRefusal(ConsistencyLevel.TWO));
        assertEquals("Sibyl does not serve consistency level THREE yet (issue #33)",
                readRefusal(ConsistencyLevel.THREE));
        assertEquals("unknown consistency level", readRefusal(null));
    }

    @Test
    void writesTakeAnyAndRefuseSerialAs311Does() throws Exception {
        assertEquals(Consistency.ANY, ConsistencyMapping.forWrite(ConsistencyLevel.ANY));
        for (ConsistencyLevel serial : new ConsistencyLevel[] {ConsistencyLevel.SERIAL, ConsistencyLevel.LOCAL_SERIAL}) {
            assertEquals("You must use conditional updates for serializable writes",
                    assertThrows(InvalidRequestException.class, () -> ConsistencyMapping.forWrite(serial)).getWhy());
        }
        assertEquals("Sibyl does not serve consistency level TWO yet (issue #33)",
                assertThrows(InvalidRequestException.class,
                        () -> ConsistencyMapping.forWrite(ConsistencyLevel.TWO)).getWhy());
    }

    @Test
    void theWireValuesAreThoseOfTheIdl() {
        int[] values = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
        String[] names = {"ONE", "QUORUM", "LOCAL_QUORUM", "EACH_QUORUM", "ALL", "ANY", "TWO", "THREE", "SERIAL",
                "LOCAL_SERIAL", "LOCAL_ONE"};
        for (int i = 0; i < values.length; i++) {
            assertEquals(names[i], ConsistencyLevel.findByValue(values[i]).name());
        }
    }

    private static String readRefusal(ConsistencyLevel cl) {
        return assertThrows(InvalidRequestException.class, () -> ConsistencyMapping.forRead(cl)).getWhy();
    }
}
