package sibyl.dht;

import java.text.Collator;
import java.util.HexFormat;
import java.util.Locale;

/**
 * Token = the en_US collation key of the key, compared as unsigned bytes; so rows sort the way
 * an English dictionary would ({@code a, -a, b, -b}). Token strings are lowercase hex.
 *
 * <p>The empty key maps to the minimum token (no bytes) rather than to its collation key (level
 * separators only), so that "" means the start of the ring as under the other partitioners.
 */
public final class CollatingOrderPreservingPartitioner implements Partitioner {
    public static final String CLASS_NAME = "org.apache.cassandra.dht.CollatingOrderPreservingPartitioner";
    private static final BytesToken MINIMUM = new BytesToken(new byte[0]);
    private static final Collator COLLATOR = Collator.getInstance(new Locale("en", "US"));

    @Override
    public Token getToken(String key) {
        if (key.isEmpty()) return MINIMUM;
        // Collators are not thread-safe; a clone per call is cheap next to building the key.
        Collator collator = (Collator) COLLATOR.clone();
        return new BytesToken(collator.getCollationKey(key).toByteArray());
    }

    @Override
    public Token getMinimumToken() {
        return MINIMUM;
    }

    @Override
    public Token fromString(String token) {
        try {
            return new BytesToken(HexFormat.of().parseHex(token));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("not a CollatingOrderPreservingPartitioner token (hex): " + token, e);
        }
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
