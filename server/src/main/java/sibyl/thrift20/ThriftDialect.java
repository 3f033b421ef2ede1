package sibyl.thrift20;

import java.util.Optional;

/**
 * The two forms of Cassandra's Thrift interface a client may speak on the port: 0.6's (keyspace on every call,
 * string keys; docs/thrift-api.md) and the one of 0.7 to 3.11 (set_keyspace, binary keys, API 20.1.0;
 * docs/thrift-api-0.7.md).
 */
public enum ThriftDialect {
    CASSANDRA_06("0.6"),
    CASSANDRA_07("0.7");

    private final String shown;

    ThriftDialect(String shown) {
        this.shown = shown;
    }

    /** How the configuration and the logs write it: {@code 0.6} or {@code 0.7}. */
    public String shown() {
        return shown;
    }

    /** The dialect written as {@link #shown()} writes it; empty for anything else. */
    public static Optional<ThriftDialect> named(String text) {
        for (ThriftDialect d : values()) {
            if (d.shown.equals(text)) return Optional.of(d);
        }
        return Optional.empty();
    }

    @Override
    public String toString() {
        return shown;
    }
}
