package sibyl.client.cli;

import java.security.SecureRandom;
import java.util.UUID;

/**
 * Version 1 (time-based) UUIDs for the cli's {@code timeuuid()}: 100 ns intervals since 1582-10-15, never
 * repeated within one run (two calls in the same interval take the next one), with a random node and clock
 * sequence chosen once per run (no MAC address is read).
 */
final class TimeUuids {

    /** 100 ns intervals between 1582-10-15 (the UUID epoch) and 1970-01-01. */
    private static final long UUID_EPOCH_OFFSET = 0x01B21DD213814000L;
    private static final long CLOCK_SEQ_AND_NODE;
    private static long last;

    static {
        SecureRandom random = new SecureRandom();
        long node = random.nextLong() & 0xFFFFFFFFFFFFL | 0x010000000000L; // multicast bit: not a real MAC
        long clockSeq = random.nextInt(1 << 14);
        CLOCK_SEQ_AND_NODE = 0x8000000000000000L | clockSeq << 48 | node;
    }

    private TimeUuids() {
    }

    static synchronized UUID next() {
        long now = System.currentTimeMillis() * 10_000 + UUID_EPOCH_OFFSET;
        last = Math.max(now, last + 1);
        long t = last;
        long msb = (t & 0xFFFFFFFFL) << 32 | (t >>> 32 & 0xFFFFL) << 16 | 0x1000L | (t >>> 48 & 0x0FFFL);
        return new UUID(msb, CLOCK_SEQ_AND_NODE);
    }
}
