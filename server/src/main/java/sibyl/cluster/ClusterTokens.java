package sibyl.cluster;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.metadata.TokenMap;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Optional;
import sibyl.config.ClusterConf;
import sibyl.config.ConfigurationException;
import sibyl.dht.BigIntegerToken;
import sibyl.dht.BytesToken;
import sibyl.dht.LongToken;
import sibyl.dht.Partitioner;
import sibyl.dht.StringToken;
import sibyl.dht.Token;

/**
 * The cluster's tokens as Sibyl's partitioner sees them. The cluster must order rows as the
 * configured partitioner does (docs/configuration.md §Cluster mode): RandomPartitioner or
 * Murmur3Partitioner on both sides (the same tokens, numbers, which Sibyl shows as the cluster has
 * them), ByteOrderedPartitioner on both sides (the keys' bytes), or 0.6's OrderPreservingPartitioner
 * over a cluster with ByteOrderedPartitioner or OrderPreservingPartitioner (keys in their own order;
 * UTF-8 byte order and 0.6's UTF-16 order agree but for characters beyond U+FFFF against
 * U+E000..U+FFFF).
 */
final class ClusterTokens {
    private static final String PACKAGE = "org.apache.cassandra.dht.";

    /** How a token of the cluster stands for one of Sibyl's. */
    enum Kind {
        /** RandomPartitioner's number, a varint in CQL, on a ring from -1 (its minimum) to 2^127. */
        RANDOM(BigInteger.ONE.negate(), BigInteger.ONE.shiftLeft(127)),
        /** Murmur3Partitioner's signed long, a bigint in CQL, on a ring from Long.MIN_VALUE to Long.MAX_VALUE. */
        MURMUR3(BigInteger.valueOf(Long.MIN_VALUE), BigInteger.valueOf(Long.MAX_VALUE)),
        /** ByteOrderedPartitioner's bytes, the same on both sides. */
        BYTES(null, null),
        /** A key of 0.6's OrderPreservingPartitioner for the cluster's bytes. */
        KEYS(null, null);

        final BigInteger ringStart;
        final BigInteger ringEnd;

        Kind(BigInteger ringStart, BigInteger ringEnd) {
            this.ringStart = ringStart;
            this.ringEnd = ringEnd;
        }
    }

    private final Kind kind;
    private final String clusterPartitioner;
    private final Partitioner partitioner;

    private ClusterTokens(Kind kind, String clusterPartitioner, Partitioner partitioner) {
        this.kind = kind;
        this.clusterPartitioner = clusterPartitioner;
        this.partitioner = partitioner;
    }

    /** @throws ConfigurationException naming Storage/Partitioner and both partitioners when the cluster orders rows otherwise */
    static ClusterTokens check(CqlSession session, ClusterConf conf, Partitioner partitioner)
            throws ConfigurationException {
        Optional<TokenMap> tokenMap = session.getMetadata().getTokenMap();
        String theirs = tokenMap.map(TokenMap::getPartitionerName).orElse("");
        Optional<Kind> kind = kind(partitioner.className(), theirs);
        if (kind.isEmpty()) {
            throw new ConfigurationException(conf.file(), "Storage/Partitioner", "the cluster at "
                    + conf.contactPoints() + " partitions with " + (theirs.isEmpty() ? "an unknown partitioner" : theirs)
                    + ", which does not order rows as " + partitioner.className() + " does; " + counterpart(partitioner));
        }
        return new ClusterTokens(kind.get(), theirs, partitioner);
    }

    /** How Sibyl's partitioner {@code ours} maps onto the cluster's {@code theirs}; empty when it cannot. */
    static Optional<Kind> kind(String ours, String theirs) {
        String mine = ours.substring(PACKAGE.length());
        String shortName = theirs.startsWith(PACKAGE) ? theirs.substring(PACKAGE.length()) : theirs;
        boolean orderedByKey = shortName.equals("ByteOrderedPartitioner") || shortName.equals("OrderPreservingPartitioner");
        return Optional.ofNullable(switch (mine) {
            case "RandomPartitioner" -> shortName.equals(mine) ? Kind.RANDOM : null;
            case "Murmur3Partitioner" -> shortName.equals(mine) ? Kind.MURMUR3 : null;
            case "ByteOrderedPartitioner" -> shortName.equals(mine) ? Kind.BYTES : null;
            case "OrderPreservingPartitioner" -> orderedByKey ? Kind.KEYS : null;
            default -> null;
        });
    }

    private static String counterpart(Partitioner partitioner) {
        return switch (partitioner.className().substring(PACKAGE.length())) {
            case "OrderPreservingPartitioner" -> "OrderPreservingPartitioner needs a cluster with ByteOrderedPartitioner";
            case "CollatingOrderPreservingPartitioner" -> "CollatingOrderPreservingPartitioner has no counterpart in a cluster";
            default -> "the cluster needs " + partitioner.className();
        };
    }

    String clusterPartitioner() {
        return clusterPartitioner;
    }

    /** Whether the cluster's tokens are numbers (RandomPartitioner, Murmur3Partitioner) rather than keys' bytes. */
    boolean numeric() {
        return kind.ringStart != null;
    }

    /** The cluster's minimum token, where a numeric ring starts (exclusive). */
    BigInteger ringStart() {
        return kind.ringStart;
    }

    /** The largest token of a numeric ring. */
    BigInteger ringEnd() {
        return kind.ringEnd;
    }

    /**
     * A token of the cluster, as its driver writes it ({@code TokenMap.format}), as a token of Sibyl's
     * partitioner: RandomPartitioner's and Murmur3Partitioner's decimal numbers are the same token on
     * both sides, and ByteOrderedPartitioner's bytes ({@code 0x6b6579}) too. OrderPreservingPartitioner's
     * is a key, so its UTF-8 text stands for the bytes, up to the first byte that is not UTF-8 (a token the
     * cluster drew at random may have one). That prefix sorts at or before the bytes, and keys (always
     * UTF-8) fall on the same side of both but for those that begin with it: such a boundary moves, to a
     * place where it still cuts the ring in order.
     */
    Token fromCluster(String formatted) {
        if (numeric()) return partitioner.fromString(formatted);
        byte[] bytes = HexFormat.of().parseHex(formatted.startsWith("0x") ? formatted.substring(2) : formatted);
        return kind == Kind.BYTES ? new BytesToken(bytes) : new StringToken(utf8Prefix(bytes));
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

    /** A Sibyl token as the value of {@code token(key)} in CQL: a varint, a bigint, or the key's bytes. */
    ByteBuffer bind(Token token) {
        return switch (kind) {
            case RANDOM -> ByteBuffer.wrap(((BigIntegerToken) token).value().toByteArray());
            case MURMUR3 -> ByteBuffer.allocate(Long.BYTES).putLong(0, ((LongToken) token).value());
            case BYTES -> ByteBuffer.wrap(((BytesToken) token).bytes());
            case KEYS -> ByteBuffer.wrap(((StringToken) token).value().getBytes(StandardCharsets.UTF_8));
        };
    }
}
