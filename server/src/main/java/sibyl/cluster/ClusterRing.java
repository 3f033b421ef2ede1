package sibyl.cluster;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.api.core.metadata.NodeState;
import com.datastax.oss.driver.api.core.metadata.TokenMap;
import com.datastax.oss.driver.api.core.metadata.token.Token;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The cluster's ring as its driver knows it now: every token in ring order, with the node that
 * holds it, as the cluster writes them. What nodetool ring shows of a node in cluster mode; the
 * Thrift describe calls take the tokens from here ({@link ClusterStorageService#ringTokens}).
 *
 * @param partitioner the cluster's partitioner, e.g. {@code org.apache.cassandra.dht.RandomPartitioner}
 * @param tokens      in ring order; empty when the driver has no token map (it has one as long as the
 *                    cluster's partitioner is one it knows, which start-up checked)
 */
public record ClusterRing(String partitioner, List<Entry> tokens) {
    /**
     * @param token   as the cluster writes it (RandomPartitioner: decimal; ByteOrderedPartitioner: 0x and hex)
     * @param address the node's CQL address
     * @param up      whether the driver has it up now
     */
    public record Entry(String token, String address, String datacenter, boolean up) {
    }

    public ClusterRing {
        tokens = List.copyOf(tokens);
    }

    static ClusterRing of(CqlSession session) {
        Optional<TokenMap> found = session.getMetadata().getTokenMap();
        if (found.isEmpty()) return new ClusterRing("", List.of());
        TokenMap map = found.get();
        record Held(Token token, Node node) {
        }
        List<Held> held = new ArrayList<>();
        for (Node node : session.getMetadata().getNodes().values()) {
            for (Token t : map.getTokens(node)) held.add(new Held(t, node));
        }
        held.sort(Comparator.comparing(Held::token));
        List<Entry> entries = new ArrayList<>(held.size());
        for (Held h : held) {
            entries.add(new Entry(map.format(h.token()), address(h.node()), h.node().getDatacenter(),
                    h.node().getState() == NodeState.UP));
        }
        return new ClusterRing(map.getPartitionerName(), entries);
    }

    /** Every node the driver knows, up or not, by address. */
    static Map<String, Boolean> nodes(CqlSession session) {
        Map<String, Boolean> nodes = new java.util.TreeMap<>();
        for (Node n : session.getMetadata().getNodes().values()) nodes.put(address(n), n.getState() == NodeState.UP);
        return nodes;
    }

    private static String address(Node node) {
        SocketAddress a = node.getEndPoint().resolve();
        if (a instanceof InetSocketAddress i) return i.getAddress() == null ? i.getHostString() : i.getAddress().getHostAddress();
        return String.valueOf(a);
    }
}
