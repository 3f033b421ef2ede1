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
    private final Partitioner partitioner;

    private ClusterTokens(boolean numeric, String clusterPartitioner, Partitioner partitioner) {
        this.numeric = numeric;
        this.clusterPartitioner = clusterPartitioner;
        this.partitioner = partitioner;
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
        return new ClusterTokens(random, theirs, partitioner);
    }

    String clusterPartitioner() {
        return clusterPartitioner;
    }

    /** Whether the cluster's tokens are numbers (RandomPartitioner) rather than keys' bytes. */
    boolean numeric() {
        return numeric;
    }

    /**
     * A token of the cluster, as its driver writes it ({@code TokenMap.format}), as a token of Sibyl's
     * partitioner: RandomPartitioner's decimal number is the same token on both sides. A
     * ByteOrderedPartitioner token is bytes ({@code 0x6b6579}); OrderPreservingPartitioner's is a key,
     * so its UTF-8 text stands for it, up to the first byte that is not UTF-8 (a token the cluster drew at
     * random may have one). That prefix sorts at or before the bytes, and keys (always UTF-8) fall on the
     * same side of both but for those that begin with it: such a boundary moves, to a place where it
     * still cuts the ring in order.
     */
    Token fromCluster(String formatted) {
        if (numeric) return partitioner.fromString(formatted);
        String hex = formatted.startsWith("0x") ? formatted.substring(2) : formatted;
        return new StringToken(utf8Prefix(java.util.HexFormat.of().parseHex(hex)));
    }

    /** The longest prefix of {@code bytes} that is well-formed UTF-8, decoded. */
    static String utf8Prefix(byte[] bytes) {
        java.nio.charset.CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
                .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT);
        java.nio.CharBuffer out = java.nio.CharBuffer.allocate(bytes.length);
        decoder.decode(ByteBuffer.wrap(bytes), out, true); // stops at the first malformed sequence
        return out.flip().toString();
    }

    /** A Sibyl token as the value of {@code token(key)} in CQL: a varint, or the key's bytes. */
    ByteBuffer bind(Token token) {
        if (numeric) return ByteBuffer.wrap(((BigIntegerToken) token).value().toByteArray());
        return ByteBuffer.wrap(((StringToken) token).value().getBytes(StandardCharsets.UTF_8));
    }
}
