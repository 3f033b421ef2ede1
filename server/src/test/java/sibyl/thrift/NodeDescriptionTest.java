package sibyl.thrift;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.apache.cassandra.thrift.TokenRange;
import org.junit.jupiter.api.Test;

/** describe_ring and the token map: a node's own ring, and a cluster's named by the deployment's Sibyl nodes. */
class NodeDescriptionTest {
    private static final NodeDescription OWN = new NodeDescription("Test Cluster",
            "org.apache.cassandra.dht.RandomPartitioner", "42", "10.0.0.1", null);
    private static final NodeDescription FRONT = new NodeDescription("Test Cluster",
            "org.apache.cassandra.dht.RandomPartitioner", "0", "10.0.0.1", null, List.of("10.0.0.1", "10.0.0.2"));

    @Test
    void aNodeOfItsOwnIsTheWholeRing() {
        assertEquals(List.of(new TokenRange("42", "42", List.of("10.0.0.1"))), OWN.ring(List.of()));
        assertEquals("{\"42\":\"10.0.0.1\"}", OWN.tokenMapJson(List.of()));
    }

    @Test
    void aClustersRingInRingOrderEachRangeOnEveryEndpointTurnedByOne() {
        assertEquals(List.of(new TokenRange("10", "20", List.of("10.0.0.1", "10.0.0.2")),
                new TokenRange("20", "30", List.of("10.0.0.2", "10.0.0.1")),
                new TokenRange("30", "10", List.of("10.0.0.1", "10.0.0.2"))), FRONT.ring(List.of("10", "20", "30")));
    }

    @Test
    void aRingOfOneTokenIsOneRangeAroundIt() {
        assertEquals(List.of(new TokenRange("10", "10", List.of("10.0.0.1", "10.0.0.2"))), FRONT.ring(List.of("10")));
    }

    @Test
    void theTokenMapNamesEachRangeEndAndEveryEndpoint() {
        assertEquals("{\"20\":\"10.0.0.1\",\"30\":\"10.0.0.2\",\"10\":\"10.0.0.1\"}",
                FRONT.tokenMapJson(List.of("10", "20", "30")));
    }

    @Test
    void aRingNeedsAnEndpoint() {
        assertThrows(IllegalArgumentException.class, () -> new NodeDescription("c", "p", "0", "10.0.0.1", null,
                List.of()));
    }
}
