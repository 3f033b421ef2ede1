package sibyl.thrift;

import java.util.List;

/**
 * What this node says about itself and its ring: cluster name, partitioner, its token and
 * the address other nodes (and ring-aware clients) reach it on. A single node owns the
 * whole ring, so every range is (token, token] on this one endpoint.
 *
 * @param configText the text of storage-conf.xml, for get_string_property("config file");
 *                   null when it could not be read
 */
public record NodeDescription(String clusterName, String partitioner, String token, String endpoint,
                              String configText) {

    /** This description with the text of the configuration file as the node runs it now (after a reload). */
    public NodeDescription withConfigText(String text) {
        return new NodeDescription(clusterName, partitioner, token, endpoint, text);
    }

    List<String> endpoints() {
        return List.of(endpoint);
    }

    /** get_string_property("token map"): a JSON object from token to endpoint address. */
    String tokenMapJson() {
        return "{" + json(token) + ":" + json(endpoint) + "}";
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
