package sibyl.thrift20;

import sibyl.iface.v20.ConsistencyLevel;
import sibyl.iface.v20.InvalidRequestException;
import sibyl.service.Consistency;
import sibyl.service.SerialConsistency;

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

    /** cas's serial level: SERIAL or LOCAL_SERIAL, else 3.11's refusal. */
    static SerialConsistency forSerial(ConsistencyLevel cl) throws InvalidRequestException {
        if (cl == ConsistencyLevel.SERIAL) return SerialConsistency.SERIAL;
        if (cl == ConsistencyLevel.LOCAL_SERIAL) return SerialConsistency.LOCAL_SERIAL;
        throw new InvalidRequestException(
                "Invalid consistency for conditional update. Must be one of SERIAL or LOCAL_SERIAL");
    }

    /**
     * The level cas commits at: any level a write takes but the serial ones, which 3.11 refuses with this text, and
     * EACH_QUORUM, which it refuses for a keyspace of SimpleStrategy (every keyspace of Sibyl's). TWO and THREE,
     * which the seam has no level for, commit at ALL.
     */
    static Consistency forCommit(ConsistencyLevel cl) throws InvalidRequestException {
        if (cl == ConsistencyLevel.SERIAL || cl == ConsistencyLevel.LOCAL_SERIAL) {
            throw new InvalidRequestException(cl + " is not supported as conditional update commit consistency. Use"
                    + " ANY if you mean \"make sure it is accepted but I don't care how many replicas commit it for"
                    + " non-SERIAL reads\"");
        }
        if (cl == ConsistencyLevel.EACH_QUORUM) {
            throw new InvalidRequestException("consistency level EACH_QUORUM not compatible with replication strategy"
                    + " (org.apache.cassandra.locator.SimpleStrategy)");
        }
        if (cl == ConsistencyLevel.TWO || cl == ConsistencyLevel.THREE) return Consistency.ALL;
        return forWrite(cl);
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
