package sibyl.io;

import java.nio.file.Path;
import sibyl.dht.DecoratedKey;
import sibyl.dht.Partitioner;
import sibyl.dht.RandomPartitioner;
import sibyl.dht.Token;

/**
 * How Cassandra 0.6 wrote row keys into its Data and Index files (its "disk format"): under RandomPartitioner
 * {@code <token>:<key>} with the token in decimal, under the order-preserving partitioners the key alone.
 * The token before the colon is 0.6's own MD5 token of the key, which is Sibyl's: opening a table checks it
 * for every key, so a file of another partitioner or a damaged key is refused before anything is read.
 */
final class Cassandra06Keys {
    private static final RandomPartitioner RANDOM = new RandomPartitioner();

    private final Partitioner partitioner;
    private final boolean random;

    Cassandra06Keys(Partitioner partitioner) {
        this.partitioner = partitioner;
        this.random = partitioner.className().equals(RandomPartitioner.CLASS_NAME);
    }

    /** The key a disk key stands for, unchecked (opening checked every one). */
    String keyOf(String diskKey, Path file, long offset) {
        if (!random) return diskKey;
        int colon = diskKey.indexOf(':');
        if (colon < 0) throw new CorruptSSTableException(file, offset, "key '" + diskKey + "' lacks its token");
        return diskKey.substring(colon + 1);
    }

    /** The disk key of {@code key}, which carries its token already. */
    String diskKeyOf(DecoratedKey key) {
        return random ? partitioner.toString(key.token()) + ":" + key.key() : key.key();
    }

    /**
     * The decorated key a disk key stands for, checking that its token is the one this node's partitioner
     * gives the key.
     *
     * @throws CorruptSSTableException naming the file and offset when it is not
     */
    DecoratedKey decorate(String diskKey, Path file, long offset) {
        if (!random) return partitioner.decorateKey(diskKey);
        String key = keyOf(diskKey, file, offset);
        Token token = partitioner.getToken(key);
        String written = diskKey.substring(0, diskKey.length() - key.length() - 1);
        if (!partitioner.toString(token).equals(written)) {
            throw new CorruptSSTableException(file, offset, "the key '" + key + "' is stored with token " + written
                    + ", but its RandomPartitioner token is " + partitioner.toString(token)
                    + ": a damaged file, or one written under another partitioner");
        }
        return new DecoratedKey(token, key);
    }

    /**
     * Refuses a table whose first key carries a RandomPartitioner token when the node runs an order-preserving
     * partitioner, which would take {@code <token>:<key>} for the key itself. (The other way round, the token
     * check of {@link #decorate} refuses it.)
     */
    void checkPartitioner(String firstDiskKey, Path file) {
        if (!random && carriesRandomToken(firstDiskKey)) {
            throw new CorruptSSTableException(file, 0, "the key '" + firstDiskKey + "' carries a RandomPartitioner"
                    + " token: the SSTable was written under RandomPartitioner, but this node runs "
                    + partitioner.className());
        }
    }

    /** Whether {@code diskKey} is {@code <decimal token>:<key>} with the key's own MD5 token. */
    private static boolean carriesRandomToken(String diskKey) {
        int colon = diskKey.indexOf(':');
        if (colon <= 0) return false;
        for (int i = 0; i < colon; i++) {
            if (diskKey.charAt(i) < '0' || diskKey.charAt(i) > '9') return false;
        }
        String key = diskKey.substring(colon + 1);
        return RANDOM.toString(RANDOM.getToken(key)).equals(diskKey.substring(0, colon));
    }
}
