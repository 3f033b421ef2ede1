package sibyl.dht;

/** Token = the key itself, ordered by {@code String.compareTo} (UTF-16 code units). Minimum "". */
public final class OrderPreservingPartitioner implements Partitioner {
    public static final String CLASS_NAME = "org.apache.cassandra.dht.OrderPreservingPartitioner";
    private static final StringToken MINIMUM = new StringToken("");

    @Override
    public Token getToken(String key) {
        return new StringToken(key);
    }

    @Override
    public Token getMinimumToken() {
        return MINIMUM;
    }

    @Override
    public Token fromString(String token) {
        return new StringToken(token);
    }

    @Override
    public String className() {
        return CLASS_NAME;
    }

    @Override
    public boolean preservesOrder() {
        return true;
    }
}
