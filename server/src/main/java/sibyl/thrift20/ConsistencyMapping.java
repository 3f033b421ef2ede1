package sibyl.thrift20;

import sibyl.iface.v20.ConsistencyLevel;
import sibyl.iface.v20.InvalidRequestException;
import sibyl.service.Consistency;

/**
 * The 0.7+ dialect's consistency levels onto the storage seam's, which are 0.6's: each to the nearest level the
 * seam has, or refused where none is near enough (docs/thrift-api-0.7.md §Consistency levels). A node that is its
 * own ring meets every level it accepts with itself (within the replica check of reads); a cluster's store maps
 * the seam's level onto the cluster's.
 */
final class ConsistencyMapping {
    private ConsistencyMapping() {
    }

    /** The seam's level for a read at {@code cl}, or Cassandra 3.11's refusal, or Sibyl's where it has no level. */
    static Consistency forRead(ConsistencyLevel cl) throws InvalidRequestException {
        if (cl == ConsistencyLevel.ANY) {
            throw new InvalidRequestException("ANY ConsistencyLevel is only supported for writes");
        }
        if (cl == ConsistencyLevel.SERIAL || cl == ConsistencyLevel.LOCAL_SERIAL) {
            throw new InvalidRequestException("Sibyl does not serve reads at consistency level " + cl
                    + " yet (issue #33)");
        }
        return common(cl);
    }

    /** The seam's level for a write at {@code cl}, or Cassandra 3.11's refusal, or Sibyl's where it has no level. */
    static Consistency forWrite(ConsistencyLevel cl) throws InvalidRequestException {
        if (cl == ConsistencyLevel.SERIAL || cl == ConsistencyLevel.LOCAL_SERIAL) {
            throw new InvalidRequestException("You must use conditional updates for serializable writes");
        }
        if (cl == ConsistencyLevel.ANY) return Consistency.ANY;
        return common(cl);
    }

    private static Consistency common(ConsistencyLevel cl) throws InvalidRequestException {
        if (cl == null) throw new InvalidRequestException("unknown consistency level");
        return switch (cl) {
            // This node, and a cluster behind it, are one datacenter: its local levels are the plain ones.
            case ONE, LOCAL_ONE -> Consistency.ONE;
            case QUORUM -> Consistency.QUORUM;
            case LOCAL_QUORUM -> Consistency.DCQUORUM;
            case EACH_QUORUM -> Consistency.DCQUORUMSYNC;
            case ALL -> Consistency.ALL;
            // Counting replicas to two or three is not a level the seam can ask a store for.
            case TWO, THREE, ANY, SERIAL, LOCAL_SERIAL -> throw new InvalidRequestException(
                    "Sibyl does not serve consistency level " + cl + " yet (issue #33)");
        };
    }
}
