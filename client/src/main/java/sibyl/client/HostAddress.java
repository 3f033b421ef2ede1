package sibyl.client;

import java.util.ArrayList;
import java.util.List;

/** A server to connect to: host name or address and Thrift port. */
public record HostAddress(String host, int port) {

    /** Cassandra 0.6's client port. */
    public static final int DEFAULT_PORT = 9160;

    public HostAddress {
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("host name is empty");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port " + port + " is outside 1..65535");
        }
    }

    /**
     * Parses {@code host}, {@code host:port} or {@code host/port} (the cli's form);
     * {@code defaultPort} applies when no port is given. IPv6 literals go in brackets: {@code [::1]:9160}.
     */
    public static HostAddress parse(String text, int defaultPort) {
        String s = text.trim();
        String host = s;
        String port = null;
        if (s.startsWith("[")) {
            int close = s.indexOf(']');
            if (close < 0) {
                throw new IllegalArgumentException("unclosed '[' in host " + text);
            }
            host = s.substring(1, close);
            String rest = s.substring(close + 1);
            if (!rest.isEmpty()) {
                if (rest.charAt(0) != ':' && rest.charAt(0) != '/') {
                    throw new IllegalArgumentException("expected ':port' after ']' in " + text);
                }
                port = rest.substring(1);
            }
        } else {
            // "host/port" always splits at the slash; "host:port" only when there is a single colon,
            // so a bare IPv6 address is taken whole.
            int sep = s.lastIndexOf('/');
            if (sep < 0 && s.indexOf(':') == s.lastIndexOf(':')) {
                sep = s.indexOf(':');
            }
            if (sep >= 0) {
                host = s.substring(0, sep);
                port = s.substring(sep + 1);
            }
        }
        return new HostAddress(host, port == null ? defaultPort : parsePort(port, text));
    }

    /** Parses a comma-separated list such as {@code node1,node2:9161}. */
    public static List<HostAddress> parseList(String text, int defaultPort) {
        List<HostAddress> hosts = new ArrayList<>();
        for (String part : text.split(",")) {
            if (!part.isBlank()) {
                hosts.add(parse(part, defaultPort));
            }
        }
        if (hosts.isEmpty()) {
            throw new IllegalArgumentException("no host given in '" + text + "'");
        }
        return hosts;
    }

    private static int parsePort(String port, String whole) {
        try {
            return Integer.parseInt(port.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("port '" + port + "' in '" + whole + "' is not a number");
        }
    }

    @Override
    public String toString() {
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
    }
}
