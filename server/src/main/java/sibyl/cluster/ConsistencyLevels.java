package sibyl.cluster;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import sibyl.service.Consistency;
import sibyl.service.SerialConsistency;

/**
 * 0.6's consistency levels as the cluster's. DCQUORUM is a quorum of the local datacenter
 * (LOCAL_QUORUM), DCQUORUMSYNC a quorum in each (EACH_QUORUM). A ZERO write is applied in the
 * background after it was acknowledged, as ANY: any node may take it, as a hint if need be.
 */
final class ConsistencyLevels {
    private ConsistencyLevels() {
    }

    static ConsistencyLevel write(Consistency c) {
        return switch (c) {
            case ZERO, ANY -> DefaultConsistencyLevel.ANY;
            case ONE -> DefaultConsistencyLevel.ONE;
            case QUORUM -> DefaultConsistencyLevel.QUORUM;
            case DCQUORUM -> DefaultConsistencyLevel.LOCAL_QUORUM;
            case DCQUORUMSYNC -> DefaultConsistencyLevel.EACH_QUORUM;
            case ALL -> DefaultConsistencyLevel.ALL;
        };
    }

    static ConsistencyLevel serial(SerialConsistency c) {
        return c == SerialConsistency.LOCAL_SERIAL ? DefaultConsistencyLevel.LOCAL_SERIAL : DefaultConsistencyLevel.SERIAL;
    }

    /** Reads at ZERO or ANY are refused before they get here; were one to arrive, it reads at ONE. */
    static ConsistencyLevel read(Consistency c) {
        return switch (c) {
            case ZERO, ANY, ONE -> DefaultConsistencyLevel.ONE;
            case QUORUM -> DefaultConsistencyLevel.QUORUM;
            case DCQUORUM -> DefaultConsistencyLevel.LOCAL_QUORUM;
            case DCQUORUMSYNC -> DefaultConsistencyLevel.EACH_QUORUM;
            case ALL -> DefaultConsistencyLevel.ALL;
        };
    }
}
