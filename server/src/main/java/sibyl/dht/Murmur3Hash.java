package sibyl.dht;

/**
 * The first 64 bits of MurmurHash3 x64 128 (seed 0) as Cassandra 1.2 to 5 compute it for Murmur3Partitioner, which
 * differs from the published hash for some keys: the last, partial block of a key adds its bytes sign-extended, so a
 * tail byte of 0x80 or more sets every bit above it. Tokens must match a real cluster's bit for bit, so the quirk is
 * kept (docs/semantics.md §Partitioners; the tokens of known keys are checked against a Cassandra 3.11 in tests).
 */
final class Murmur3Hash {
    private static final long C1 = 0x87c37b91114253d5L;
    private static final long C2 = 0x4cf5ad432745937fL;

    private Murmur3Hash() {
    }

    /** The first long of the 128-bit hash of {@code key}. */
    static long firstHalf(byte[] key) {
        long h1 = 0;
        long h2 = 0;
        int blocks = key.length / 16;
        for (int i = 0; i < blocks; i++) {
            long k1 = littleEndianLong(key, i * 16);
            long k2 = littleEndianLong(key, i * 16 + 8);
            h1 ^= mixK1(k1);
            h1 = Long.rotateLeft(h1, 27) + h2;
            h1 = h1 * 5 + 0x52dce729;
            h2 ^= mixK2(k2);
            h2 = Long.rotateLeft(h2, 31) + h1;
            h2 = h2 * 5 + 0x38495ab5;
        }
        int tail = blocks * 16;
        int rest = key.length - tail;
        long k1 = 0;
        long k2 = 0;
        // The quirk: each byte is widened as a signed value before it is shifted into place.
        for (int i = rest - 1; i >= 8; i--) k2 ^= (long) key[tail + i] << (8 * (i - 8));
        for (int i = Math.min(rest, 8) - 1; i >= 0; i--) k1 ^= (long) key[tail + i] << (8 * i);
        if (rest > 8) h2 ^= mixK2(k2);
        if (rest > 0) h1 ^= mixK1(k1);
        h1 ^= key.length;
        h2 ^= key.length;
        h1 += h2;
        h2 += h1;
        h1 = finalMix(h1);
        h2 = finalMix(h2);
        return h1 + h2;
    }

    private static long mixK1(long k1) {
        return Long.rotateLeft(k1 * C1, 31) * C2;
    }

    private static long mixK2(long k2) {
        return Long.rotateLeft(k2 * C2, 33) * C1;
    }

    private static long littleEndianLong(byte[] b, int at) {
        long v = 0;
        for (int i = 7; i >= 0; i--) v = v << 8 | (b[at + i] & 0xFF);
        return v;
    }

    private static long finalMix(long k) {
        k ^= k >>> 33;
        k *= 0xff51afd7ed558ccdL;
        k ^= k >>> 33;
        k *= 0xc4ceb9fe1a85ec53L;
        k ^= k >>> 33;
        return k;
    }
}
