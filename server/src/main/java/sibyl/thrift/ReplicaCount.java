package sibyl.thrift;

import org.apache.cassandra.thrift.ConsistencyLevel;
import org.apache.cassandra.thrift.UnavailableException;
import sibyl.service.Consistency;

/**
 * How many replicas a consistency level waits for, on this one-node ring (docs/semantics.md
 * §Consistency). Strong reads count from the keyspace's ReplicationFactor, so QUORUM or ALL
 * with a factor above one cannot be met by a single node. Writes count from the endpoints
 * actually in the ring, which is always this node, so every level is met.
 */
public final class ReplicaCount {
    private static final int LIVE_ENDPOINTS = 1;

    private ReplicaCount() {
    }

    /** Throws when {@code cl} needs more replicas than this node can offer for a read. */
    static void checkRead(ConsistencyLevel cl, int replicationFactor) throws UnavailableException {
        if (!readable(Consistency.valueOf(cl.name()), replicationFactor)) throw new UnavailableException();
    }

    /** Whether this node alone can meet {@code level} for a read of a keyspace of {@code replicationFactor}. */
    public static boolean readable(Consistency level, int replicationFactor) {
        int blockFor = switch (level) {
            case ONE, ANY, ZERO -> 1;
            case QUORUM -> replicationFactor / 2 + 1;
            case ALL, DCQUORUM, DCQUORUMSYNC -> replicationFactor;
        };
        return blockFor <= LIVE_ENDPOINTS;
    }
}
