package sibyl.client.stress;

import java.nio.charset.StandardCharsets;

/**
 * Keys, names and values of the stress data, all derived from numbers so that a run can be repeated
 * and reads can be checked: key {@code i} is {@code i} in decimal, zero-padded to 10 digits
 * ({@code 0000000123}); columns are {@code C0, C1, ...}, super columns {@code S0, S1, ...}; a value is
 * a string of letters and digits computed from the key, super column and column numbers.
 */
final class Payload {

    private static final byte[] ALPHABET =
            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".getBytes(StandardCharsets.US_ASCII);

    private Payload() {
    }

    private static final String ZEROS = "0000000000";

    static String key(long index) {
        // String.format is ten times slower and was a third of bin/stress's CPU time on inserts, CPU the server
        // under test then does not get on a small machine.
        String digits = Long.toString(index);
        if (index < 0 || digits.length() >= ZEROS.length()) {
            return index < 0 ? String.format("%010d", index) : digits;
        }
        return ZEROS.substring(digits.length()).concat(digits);
    }

    /** The index of a key made by {@link #key}, or -1 if it is not one. */
    static long keyIndex(String key) {
        try {
            return Long.parseLong(key);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    static byte[] columnName(int column) {
        return ("C" + column).getBytes(StandardCharsets.US_ASCII);
    }

    static byte[] superColumnName(int superColumn) {
        return ("S" + superColumn).getBytes(StandardCharsets.US_ASCII);
    }

    /** The number in a name made by {@link #columnName} or {@link #superColumnName}, or -1. */
    static int nameIndex(byte[] name) {
        try {
            return Integer.parseInt(new String(name, 1, name.length - 1, StandardCharsets.US_ASCII));
        } catch (RuntimeException e) {
            return -1;
        }
    }

    /** The value of (key, super column, column); superColumn is -1 in a standard column family. */
    static byte[] value(long key, int superColumn, int column, int size) {
        long state = key * 0x9E3779B97F4A7C15L + (superColumn + 1) * 0xBF58476D1CE4E5B9L + column;
        byte[] out = new byte[size];
        for (int i = 0; i < size; i++) {
            state = mix(state + i);
            out[i] = ALPHABET[(int) Long.remainderUnsigned(state, ALPHABET.length)];
        }
        return out;
    }

    /** The splitmix64 finalizer: spreads the bits of a counter. */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
