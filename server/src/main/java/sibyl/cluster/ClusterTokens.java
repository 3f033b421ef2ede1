package sibyl.cluster;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.metadata.TokenMap;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import sibyl.config.ClusterConf;
import sibyl.config.ConfigurationException;
import sibyl.dht.BigIntegerToken;
import sibyl.dht.Partitioner;
import sibyl.dht.RandomPartitioner;
import sibyl.dht.StringToken;
import sibyl.dht.Token;

/**
 * The cluster's tokens as Sibyl's partitioner sees them. The cluster must order rows as the
 * configured partitioner does: RandomPartitioner on both sides (the same MD5 tokens), or 0.6's
 * OrderPreservingPartitioner over a cluster with ByteOrderedPartitioner or
 * OrderPreservingPartitioner (keys in their own order; UTF-8 byte order and 0.6's UTF-16 order
 * agree but for characters beyond U+FFFF against U+E000..U+FFFF).
 */
final class ClusterTokens {
    private static final String PACKAGE = "org.apache.cassandra.dht.";

    private final boolean numeric;
    private final String clusterPartitioner;

    private ClusterTokens(boolean numeric, String clusterPartitioner) {
        this.numeric = numeric;
        this.clusterPartitioner = clusterPartitioner;
    }

    /** @throws ConfigurationException naming Storage/Partitioner when the cluster orders rows otherwise */
    static ClusterTokens check(CqlSession session, ClusterConf conf, Partitioner partitioner)
            throws ConfigurationException {
        Optional<TokenMap> tokenMap = session.getMetadata().getTokenMap();
        String theirs = tokenMap.map(TokenMap::getPartitionerName).orElse("");
        String shortName = theirs.startsWith(PACKAGE) ? theirs.substring(PACKAGE.length()) : theirs;
        boolean random = partitioner.className().equals(RandomPartitioner.CLASS_NAME);
        boolean fits = random ? shortName.equals("RandomPartitioner")
                : !partitioner.className().endsWith("CollatingOrderPreservingPartitioner")
                && (shortName.equals("ByteOrderedPartitioner") || shortName.equals("OrderPreservingPartitioner"));
        if (!fits) {
            throw new ConfigurationException(conf.file(), "Storage/Partitioner", "the cluster at "
                    + conf.contactPoints() + " partitions with " + (theirs.isEmpty() ? "an unknown partitioner" : theirs)
                    + ", which does not order rows as " + partitioner.className() + " does; "
                    + (random ? "the cluster needs RandomPartitioner"
                    : "OrderPreservingPartitioner needs a cluster with ByteOrderedPartitioner;"
                    + " CollatingOrderPreservingPartitioner has no counterpart in a cluster"));
        }
        return new ClusterTokens(random, theirs);
    }

    String clusterPartitioner() {
        return clusterPartitioner;
    }

    /** A Sibyl token as the value of {@code token(key)} in CQL: a varint, or the key's bytes. */
    ByteBuffer bind(Token token) {
        if (numeric) return ByteBuffer.wrap(((BigIntegerToken) token).value().toByteArray());
        return ByteBuffer.wrap(((StringToken) token).value().getBytes(StandardCharsets.UTF_8));
    }
}
