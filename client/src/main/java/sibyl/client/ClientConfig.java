package sibyl.client;

import java.util.List;
import java.util.Objects;
import org.apache.cassandra.thrift.ConsistencyLevel;

/**
 * How a {@link SibylClient} connects: the hosts to try in order, the transport, timeouts,
 * optional login, and the consistency levels used by the helpers that do not take one.
 * Immutable; build with {@link #builder()}.
 */
public final class ClientConfig {

    private final List<HostAddress> hosts;
    private final boolean framed;
    private final int connectTimeoutMillis;
    private final int readTimeoutMillis;
    private final int maxMessageBytes;
    private final Credentials credentials;
    private final ConsistencyLevel readConsistency;
    private final ConsistencyLevel writeConsistency;

    /** Login for servers that run an authenticator: the keyspace to authorize and the user's password. */
    public record Credentials(String keyspace, String username, String password) {
        public Credentials {
            Objects.requireNonNull(keyspace, "keyspace");
            Objects.requireNonNull(username, "username");
            Objects.requireNonNull(password, "password");
        }

        @Override
        public String toString() {
            return "Credentials[keyspace=" + keyspace + ", username=" + username + "]";
        }
    }

    private ClientConfig(Builder b) {
        if (b.hosts.isEmpty()) {
            throw new IllegalArgumentException("at least one host is required");
        }
        this.hosts = List.copyOf(b.hosts);
        this.framed = b.framed;
        this.connectTimeoutMillis = b.connectTimeoutMillis;
        this.readTimeoutMillis = b.readTimeoutMillis;
        this.maxMessageBytes = b.maxMessageBytes;
        this.credentials = b.credentials;
        this.readConsistency = b.readConsistency;
        this.writeConsistency = b.writeConsistency;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Hosts in the order they are tried; the next one is tried when a connection cannot be made. */
    public List<HostAddress> hosts() {
        return hosts;
    }

    /** Whether to use 4-byte length-prefixed frames (0.6's ThriftFramedTransport=true). */
    public boolean framed() {
        return framed;
    }

    public int connectTimeoutMillis() {
        return connectTimeoutMillis;
    }

    /** How long one call may wait for its reply; 0 waits for ever. */
    public int readTimeoutMillis() {
        return readTimeoutMillis;
    }

    /** Largest reply (and frame) accepted from the server. */
    public int maxMessageBytes() {
        return maxMessageBytes;
    }

    /** Login performed after every (re)connect, or null for none. */
    public Credentials credentials() {
        return credentials;
    }

    public ConsistencyLevel readConsistency() {
        return readConsistency;
    }

    public ConsistencyLevel writeConsistency() {
        return writeConsistency;
    }

    public Builder toBuilder() {
        Builder b = new Builder();
        b.hosts = hosts;
        b.framed = framed;
        b.connectTimeoutMillis = connectTimeoutMillis;
        b.readTimeoutMillis = readTimeoutMillis;
        b.maxMessageBytes = maxMessageBytes;
        b.credentials = credentials;
        b.readConsistency = readConsistency;
        b.writeConsistency = writeConsistency;
        return b;
    }

    public static final class Builder {
        private List<HostAddress> hosts = List.of();
        private boolean framed;
        private int connectTimeoutMillis = 5_000;
        private int readTimeoutMillis = 30_000;
        private int maxMessageBytes = 64 * 1024 * 1024;
        private Credentials credentials;
        private ConsistencyLevel readConsistency = ConsistencyLevel.ONE;
        private ConsistencyLevel writeConsistency = ConsistencyLevel.ONE;

        private Builder() {
        }

        public Builder hosts(List<HostAddress> hosts) {
            this.hosts = List.copyOf(hosts);
            return this;
        }

        public Builder host(String host, int port) {
            this.hosts = List.of(new HostAddress(host, port));
            return this;
        }

        public Builder framed(boolean framed) {
            this.framed = framed;
            return this;
        }

        public Builder connectTimeoutMillis(int millis) {
            if (millis < 0) {
                throw new IllegalArgumentException("connect timeout must not be negative: " + millis);
            }
            this.connectTimeoutMillis = millis;
            return this;
        }

        public Builder readTimeoutMillis(int millis) {
            if (millis < 0) {
                throw new IllegalArgumentException("read timeout must not be negative: " + millis);
            }
            this.readTimeoutMillis = millis;
            return this;
        }

        public Builder maxMessageBytes(int bytes) {
            if (bytes < 1024) {
                throw new IllegalArgumentException("maximum message size must be at least 1024 bytes: " + bytes);
            }
            this.maxMessageBytes = bytes;
            return this;
        }

        public Builder login(String keyspace, String username, String password) {
            this.credentials = new Credentials(keyspace, username, password);
            return this;
        }

        public Builder noLogin() {
            this.credentials = null;
            return this;
        }

        public Builder readConsistency(ConsistencyLevel level) {
            this.readConsistency = Objects.requireNonNull(level);
            return this;
        }

        public Builder writeConsistency(ConsistencyLevel level) {
            this.writeConsistency = Objects.requireNonNull(level);
            return this;
        }

        public ClientConfig build() {
            return new ClientConfig(this);
        }
    }
}
