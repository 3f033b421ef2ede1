package sibyl.hardening;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;

/**
 * Fuzz cases: random bytes, well-formed calls with mutated bytes (lengths, type ids, field ids, truncation,
 * insertion), huge declared sizes and deep nesting, each as a message body that the fuzzer then frames or not.
 */
final class HostileInputs {
    /** Sizes that break length fields in interesting ways. */
    private static final int[] INTERESTING_INTS = {0, 1, -1, 2, 127, 128, 255, 256, 0x7fff, 0x8000, 0xffff, 0x10000,
            0x7fffffff, 0x80000000, 0x7ffffff0, 16 * 1024 * 1024, 16 * 1024 * 1024 + 1, 1_000_000_000, -2};
    private static final byte[] INTERESTING_BYTES = {0, 1, 2, 3, 4, 6, 8, 10, 11, 12, 13, 14, 15, 16, 0x7f,
            (byte) 0x80, (byte) 0xff, 5, 7, 9};
    private static final String[] METHODS = {"insert", "get_slice", "batch_mutate", "get_range_slices", "multiget_slice",
            "describe_version", "login", "get"};

    private final Random random;
    private final CallGenerator calls;

    HostileInputs(Random random) {
        this.random = random;
        this.calls = new CallGenerator(random);
    }

    /** The next case's message body (what a frame would hold). */
    byte[] next(int seqId) {
        int kind = random.nextInt(100);
        if (kind < 20) {
            return valid(seqId);
        } else if (kind < 70) {
            return mutated(valid(seqId));
        } else if (kind < 78) {
            byte[] valid = valid(seqId);
            return Arrays.copyOf(valid, random.nextInt(valid.length));
        } else if (kind < 86) {
            return randomBytes();
        } else if (kind < 93) {
            return hugeSize(seqId);
        } else {
            return nested(seqId, 1 + random.nextInt(random.nextBoolean() ? 70 : 200));
        }
    }

    /** A frame length for {@code body}: almost always its true length, sometimes not. */
    int frameLength(byte[] body) {
        return random.nextInt(20) == 0 ? pickInt() : body.length;
    }

    byte[] valid(int seqId) {
        return calls.next().bytes(seqId, random.nextInt(4) != 0);
    }

    private byte[] mutated(byte[] message) {
        byte[] b = message;
        for (int n = 1 + random.nextInt(random.nextBoolean() ? 2 : 6); n > 0 && b.length > 0; n--) {
            int at = random.nextInt(b.length);
            switch (random.nextInt(7)) {
                case 0 -> b[at] = (byte) random.nextInt(256);
                case 1 -> b[at] = INTERESTING_BYTES[random.nextInt(INTERESTING_BYTES.length)];
                case 2 -> {
                    if (at + 4 <= b.length) ByteBuffer.wrap(b).putInt(at, pickInt());
                }
                case 3 -> b[at] ^= (byte) (1 << random.nextInt(8));
                case 4 -> { // delete a run
                    int len = Math.min(b.length - at, 1 + random.nextInt(8));
                    byte[] shorter = new byte[b.length - len];
                    System.arraycopy(b, 0, shorter, 0, at);
                    System.arraycopy(b, at + len, shorter, at, b.length - at - len);
                    b = shorter;
                }
                case 5 -> { // duplicate a run
                    int len = Math.min(b.length - at, 1 + random.nextInt(16));
                    byte[] longer = new byte[b.length + len];
                    System.arraycopy(b, 0, longer, 0, at + len);
                    System.arraycopy(b, at, longer, at + len, b.length - at);
                    b = longer;
                }
                default -> { // a small length field grows or shrinks by one: the classic off-by-one
                    if (at + 4 <= b.length) {
                        ByteBuffer w = ByteBuffer.wrap(b);
                        int v = w.getInt(at);
                        if (v >= 0 && v < 4096) w.putInt(at, v + (random.nextBoolean() ? 1 : -1));
                    }
                }
            }
        }
        return b;
    }

    private byte[] randomBytes() {
        byte[] b = new byte[1 + random.nextInt(random.nextBoolean() ? 16 : 300)];
        random.nextBytes(b);
        if (b.length >= 4 && random.nextBoolean()) {
            ByteBuffer.wrap(b).putInt(0, random.nextBoolean() ? 0x80010001 : b.length - 4);
        }
        return b;
    }

    private byte[] hugeSize(int seqId) {
        ByteArrayOutputStream out = header(seqId);
        byte type = (byte) (new byte[] {11, 12, 13, 14, 15})[random.nextInt(5)];
        out.write(type);
        out.write(0);
        out.write(1 + random.nextInt(6));
        int size = random.nextBoolean() ? 0x7fffffff - random.nextInt(16) : (1 << (20 + random.nextInt(11))) - 1;
        switch (type) {
            case 13 -> {
                out.write(INTERESTING_BYTES[random.nextInt(INTERESTING_BYTES.length)]);
                out.write(11);
            }
            case 14, 15 -> out.write(INTERESTING_BYTES[random.nextInt(INTERESTING_BYTES.length)]);
            default -> {
            }
        }
        if (type != 12) out.writeBytes(ByteBuffer.allocate(4).putInt(size).array());
        byte[] tail = new byte[random.nextInt(64)];
        random.nextBytes(tail);
        out.writeBytes(tail);
        return out.toByteArray();
    }

    /** An argument struct holding structs, lists or maps nested {@code depth} deep, properly closed. */
    byte[] nested(int seqId, int depth) {
        byte[] kinds = new byte[depth];
        for (int i = 0; i < depth; i++) {
            kinds[i] = i == depth - 1 ? 12 : (new byte[] {12, 14, 13})[random.nextInt(3)];
        }
        ByteArrayOutputStream out = header(seqId);
        out.writeBytes(new byte[] {kinds[0], 0, 9}); // field 9: unknown to every method, so skipped if accepted
        nestedValue(out, kinds, 0);
        out.write(0); // ends the argument struct
        return out.toByteArray();
    }

    /** Writes the value at {@code level}, holding the levels below it. */
    private static void nestedValue(ByteArrayOutputStream out, byte[] kinds, int level) {
        boolean innermost = level == kinds.length - 1;
        byte below = innermost ? 12 : kinds[level + 1];
        switch (kinds[level]) {
            case 12 -> {
                if (!innermost) {
                    out.writeBytes(new byte[] {below, 0, 1});
                    nestedValue(out, kinds, level + 1);
                }
                out.write(0);
            }
            case 14 -> {
                out.writeBytes(new byte[] {below, 0, 0, 0, 1});
                nestedValue(out, kinds, level + 1);
            }
            default -> {
                out.writeBytes(new byte[] {11, below, 0, 0, 0, 1, 0, 0, 0, 1, 'k'});
                nestedValue(out, kinds, level + 1);
            }
        }
    }

    private ByteArrayOutputStream header(int seqId) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] name = METHODS[random.nextInt(METHODS.length)].getBytes(StandardCharsets.US_ASCII);
        out.writeBytes(ByteBuffer.allocate(12 + name.length).putInt(0x80010001).putInt(name.length).put(name)
                .putInt(seqId).array());
        return out;
    }

    private int pickInt() {
        return random.nextInt(3) == 0 ? random.nextInt() : INTERESTING_INTS[random.nextInt(INTERESTING_INTS.length)];
    }
}
