package sibyl.io;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import sibyl.dht.BinaryKeys;

/**
 * A bloom filter of row keys: {@link #mightContain} is false only for keys never added. Sized
 * from the expected number of keys and a false-positive rate; k bit positions per key come from
 * two 64-bit hashes combined as h1 + i·h2 (double hashing), so a key is hashed twice whatever k.
 *
 * <p>Not thread-safe while keys are added; safe for any number of concurrent readers after.
 */
public final class BloomFilter {
    /** Hard cap on k: beyond this more hashing buys nothing for sane rates. */
    private static final int MAX_HASHES = 16;
    private static final long SEED_1 = 0x5851F42D4C957F2DL;
    private static final long SEED_2 = 0x14057B7EF767814FL;

    private final long[] words;
    private final long bitCount;
    private final int hashCount;

    private BloomFilter(long[] words, int hashCount) {
        this.words = words;
        this.bitCount = (long) words.length * 64;
        this.hashCount = hashCount;
    }

    /**
     * An empty filter for about {@code expectedKeys} keys at false-positive rate {@code fpRate}:
     * m = -n·ln p / (ln 2)² bits and k = m/n · ln 2 hashes, the sizes that minimise the rate.
     */
    public static BloomFilter create(long expectedKeys, double fpRate) {
        if (!(fpRate > 0 && fpRate < 1)) throw new IllegalArgumentException("false-positive rate must be in (0, 1): " + fpRate);
        long n = Math.max(1, expectedKeys);
        double bits = -n * Math.log(fpRate) / (Math.log(2) * Math.log(2));
        long wordCount = Math.max(1, (long) Math.ceil(bits / 64));
        if (wordCount > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("a bloom filter for " + expectedKeys + " keys would exceed 2^37 bits");
        }
        int k = (int) Math.round(wordCount * 64.0 / n * Math.log(2));
        return new BloomFilter(new long[(int) wordCount], Math.max(1, Math.min(MAX_HASHES, k)));
    }

    public void add(String key) {
        byte[] bytes = BinaryKeys.encode(key);
        long h1 = hash(bytes, SEED_1);
        long h2 = hash(bytes, SEED_2);
        for (int i = 0; i < hashCount; i++) {
            long bit = Long.remainderUnsigned(h1 + i * h2, bitCount);
            words[(int) (bit >>> 6)] |= 1L << bit;
        }
    }

    public boolean mightContain(String key) {
        byte[] bytes = BinaryKeys.encode(key);
        long h1 = hash(bytes, SEED_1);
        long h2 = hash(bytes, SEED_2);
        for (int i = 0; i < hashCount; i++) {
            long bit = Long.remainderUnsigned(h1 + i * h2, bitCount);
            if ((words[(int) (bit >>> 6)] & (1L << bit)) == 0) return false;
        }
        return true;
    }

    public long bitCount() {
        return bitCount;
    }

    public int hashCount() {
        return hashCount;
    }

    /** Bytes {@link #writeTo} writes. */
    public long serializedSize() {
        return 4 + 4 + 8L * words.length;
    }

    /** Writes hash count, word count and the words (big-endian). */
    public void writeTo(DataOutput out) throws IOException {
        out.writeInt(hashCount);
        out.writeInt(words.length);
        for (long w : words) out.writeLong(w);
    }

    /**
     * Reads what {@link #writeTo} wrote.
     *
     * @throws IOException when the sizes are impossible (the caller names the file)
     */
    public static BloomFilter readFrom(DataInput in, long availableBytes) throws IOException {
        int k = in.readInt();
        int wordCount = in.readInt();
        if (k < 1 || k > MAX_HASHES) throw new IOException("bloom filter hash count out of range: " + k);
        if (wordCount < 1 || 8L + 8L * wordCount > availableBytes) {
            throw new IOException("bloom filter word count " + wordCount + " does not fit in " + availableBytes + " bytes");
        }
        long[] words = new long[wordCount];
        for (int i = 0; i < wordCount; i++) words[i] = in.readLong();
        return new BloomFilter(words, k);
    }

    /**
     * A 64-bit hash of {@code data}: 8-byte little-endian lanes folded in with a multiply and
     * rotate, then an avalanche finaliser so every input bit affects every output bit.
     */
    static long hash(byte[] data, long seed) {
        long h = seed ^ (data.length * 0x9E3779B97F4A7C15L);
        int i = 0;
        for (; i + 8 <= data.length; i += 8) {
            long lane = 0;
            for (int j = 7; j >= 0; j--) lane = (lane << 8) | (data[i + j] & 0xffL);
            h = Long.rotateLeft(h ^ mix(lane), 29) * 0x9E3779B97F4A7C15L;
        }
        long tail = 0;
        for (int j = data.length - 1; j >= i; j--) tail = (tail << 8) | (data[j] & 0xffL);
        h = Long.rotateLeft(h ^ mix(tail ^ (data.length - i)), 29) * 0x9E3779B97F4A7C15L;
        return mix(h);
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 33)) * 0xFF51AFD7ED558CCDL;
        z = (z ^ (z >>> 33)) * 0xC4CEB9FE1A85EC53L;
        return z ^ (z >>> 33);
    }
}
