package sibyl.thrift;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.cassandra.thrift.TokenRange;
import sibyl.dht.Partitioner;
import sibyl.dht.Token;
import sibyl.service.StorageService;

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
        List<TokenRange> ranges = new ArrayList<>();
        for (RingRange r : ranges(ringTokens)) ranges.add(new TokenRange(r.start(), r.end(), r.endpoints()));
        return ranges;
    }

    /** One range of the ring as describe_ring tells it, in any dialect: (start, end] and who serves it. */
    public record RingRange(String start, String end, List<String> endpoints) {
        public RingRange {
            endpoints = List.copyOf(endpoints);
        }
    }

    /** The ranges of {@link #ring}, for a dialect of its own structs. */
    public List<RingRange> ranges(List<String> ringTokens) {
        if (ringTokens.isEmpty()) return List.of(new RingRange(token, token, List.of(endpoint)));
        int n = ringTokens.size();
        List<RingRange> ranges = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            ranges.add(new RingRange(ringTokens.get(i), ringTokens.get((i + 1) % n), rotated(i)));
        }
        return ranges;
    }

    /**
     * The tokens of {@code storage}'s ring, when it has one of its own (cluster mode), in the partitioner's wire
     * form; empty for a store that is its own ring.
     */
    public static List<String> ringTokens(StorageService storage) {
        List<Token> tokens = storage.ringTokens();
        if (tokens.isEmpty()) return List.of();
        Partitioner partitioner = storage.partitioner();
        List<String> strings = new ArrayList<>(tokens.size());
        for (Token t : tokens) strings.add(partitioner.toString(t));
        return strings;
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
        StringBuilder b = new StringBuilder("{");
        for (Map.Entry<String, String> e : tokenMap(ringTokens).entrySet()) {
            if (b.length() > 1) b.append(',');
            b.append(json(e.getKey())).append(':').append(json(e.getValue()));
        }
        return b.append('}').toString();
    }

    /** The token map of {@link #tokenMapJson}, in ring order: token to endpoint address. */
    public Map<String, String> tokenMap(List<String> ringTokens) {
        Map<String, String> map = new LinkedHashMap<>();
        if (ringTokens.isEmpty()) {
            map.put(token, endpoint);
            return map;
        }
        int n = ringTokens.size();
        for (int i = 0; i < n; i++) map.put(ringTokens.get((i + 1) % n), ringEndpoints.get(i % ringEndpoints.size()));
        return map;
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
