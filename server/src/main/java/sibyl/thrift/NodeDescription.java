package sibyl.thrift;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.cassandra.thrift.TokenRange;

/**
 * What this node says about itself and its ring: cluster name, partitioner, its token and the
 * address other nodes (and ring-aware clients) reach it on.
 *
 * <p>A node with its own store owns the whole ring, so its one range is (token, token] on this
 * one endpoint. A node in front of a cluster describes the cluster's ring instead (its tokens come
 * from the store), naming as endpoints the Sibyl nodes of the deployment ({@code ringEndpoints}),
 * since those are what a 0.6 client can talk to; every one of them serves every range.
 *
 * @param configText    the text of storage-conf.xml, for get_string_property("config file");
 *                      null when it could not be read
 * @param ringEndpoints the addresses the ranges of a cluster's ring name; at least one
 */
public record NodeDescription(String clusterName, String partitioner, String token, String endpoint,
                              String configText, List<String> ringEndpoints) {

    public NodeDescription {
        ringEndpoints = List.copyOf(ringEndpoints);
        if (ringEndpoints.isEmpty()) throw new IllegalArgumentException("a ring needs an endpoint");
        Objects.requireNonNull(endpoint, "endpoint");
    }

    /** This description with the text of the configuration file as the node runs it now (after a reload). */
    public NodeDescription withConfigText(String text) {
        return new NodeDescription(clusterName, partitioner, token, endpoint, text, ringEndpoints);
    }

    /** A node whose store is its own ring: this node's address is its endpoint. */
    public NodeDescription(String clusterName, String partitioner, String token, String endpoint, String configText) {
        this(clusterName, partitioner, token, endpoint, configText, List.of(endpoint));
    }

    /**
     * describe_ring: for a store of its own ({@code ringTokens} empty) this node's range; else one range
     * (t[i], t[i+1]] per token of the ring, in ring order, the last wrapping round to the first. Each
     * lists every ring endpoint, the list turned by one place per range, so that a client taking the first
     * endpoint of each range (Hadoop's input format of 0.6 does) spreads over all of them.
     */
    List<TokenRange> ring(List<String> ringTokens) {
        if (ringTokens.isEmpty()) return List.of(new TokenRange(token, token, List.of(endpoint)));
        int n = ringTokens.size();
        List<TokenRange> ranges = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            ranges.add(new TokenRange(ringTokens.get(i), ringTokens.get((i + 1) % n), rotated(i)));
        }
        return ranges;
    }

    private List<String> rotated(int by) {
        int m = ringEndpoints.size();
        List<String> endpoints = new ArrayList<>(m);
        for (int j = 0; j < m; j++) endpoints.add(ringEndpoints.get((by + j) % m));
        return endpoints;
    }

    /**
     * get_string_property("token map"): a JSON object from token to endpoint address. For a cluster's ring,
     * each range's end token to the first endpoint describe_ring gives it, so the values name every ring
     * endpoint as long as the ring has as many tokens (clients of 0.6 find their hosts here: the Ruby gem,
     * phpcassa's and Pandra's pools).
     */
    String tokenMapJson(List<String> ringTokens) {
        if (ringTokens.isEmpty()) return "{" + json(token) + ":" + json(endpoint) + "}";
        int n = ringTokens.size();
        StringBuilder b = new StringBuilder("{");
        for (int i = 0; i < n; i++) {
            if (i > 0) b.append(',');
            b.append(json(ringTokens.get((i + 1) % n))).append(':')
                    .append(json(ringEndpoints.get(i % ringEndpoints.size())));
        }
        return b.append('}').toString();
    }

    private static String json(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                default -> {
                    if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
                    else b.append(c);
                }
            }
        }
        return b.append('"').toString();
    }
}
