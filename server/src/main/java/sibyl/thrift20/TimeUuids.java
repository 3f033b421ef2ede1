package sibyl.thrift20;

import java.nio.ByteBuffer;
import java.util.Random;

/** Version 1 (time-based) UUIDs, as the session ids of trace_next_query are. */
final class TimeUuids {
    /** 100-nanosecond intervals from the start of the Gregorian calendar (1582-10-15) to the Unix epoch. */
    private static final long GREGORIAN_TO_UNIX = 0x01B21DD213814000L;

    private TimeUuids() {
    }

    /** A UUID of now, with a random clock sequence and a random node (multicast bit set, as RFC 4122 asks). */
    static byte[] next(Random random) {
        long time = System.currentTimeMillis() * 10_000 + GREGORIAN_TO_UNIX;
        long high = (time & 0xFFFFFFFFL) << 32 | (time >>> 32 & 0xFFFF) << 16 | 0x1000 | time >>> 48 & 0x0FFF;
        long low = 0x8000000000000000L | (random.nextLong() & 0x3FFF000000000000L)
                | 0x0000010000000000L | (random.nextLong() & 0x0000FFFFFFFFFFFFL);
        return ByteBuffer.allocate(16).putLong(high).putLong(low).array();
    }
}
