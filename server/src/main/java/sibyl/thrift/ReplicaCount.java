package sibyl.thrift;

import org.apache.cassandra.thrift.ConsistencyLevel;
import org.apache.cassandra.thrift.UnavailableException;

/**
 * How many replicas a consistency level waits for, on this one-node ring (docs/semantics.md
 * §Consistency). Strong reads count from the keyspace's ReplicationFactor, so QUORUM or ALL
 * with a factor above one cannot be met by a single node. Writes count from the endpoints
 * actually in the ring, which is always this node, so every level is met.
 */
final class ReplicaCount {
    private static final int LIVE_ENDPOINTS = 1;

    private ReplicaCount() {
    }

    /** Throws when {@code cl} needs more replicas than this node can offer for a read. */
    static void checkRead(ConsistencyLevel cl, int replicationFactor) throws UnavailableException {
        int blockFor = switch (cl) {
            case ONE, ANY, ZERO -> 1;
            case QUORUM -> replicationFactor / 2 + 1;
            case ALL, DCQUORUM, DCQUORUMSYNC -> replicationFactor;
        };
        if (blockFor > LIVE_ENDPOINTS) throw new UnavailableException();
    }
}
