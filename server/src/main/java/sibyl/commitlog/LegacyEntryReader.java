package sibyl.commitlog;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32;

/**
 * Reads the entries of a Cassandra 0.6 commit log segment, which follow its
 * {@link LegacySegmentHeader}:
 * <pre>
 * entry := length:long  mutation:byte[length]  crc:long   (CRC32 of the mutation bytes)
 * </pre>
 * Damage is met as 0.6 met it: an entry whose checksum does not hold is passed over and reading
 * goes on after it (0.6 took it for a part of the log not yet synced when it stopped, and tried
 * the rest); a file that ends inside an entry ends the segment there. A length that cannot be an
 * entry's (zero, negative, or past the end of the file) also ends it, as nothing after it can be
 * found.
 */
final class LegacyEntryReader {
    private static final int BUFFER = 1 << 16;
    private static final int FRAMING = Long.BYTES + Long.BYTES;
    /** 0.6 sized an entry's buffer with an int, so no entry it wrote is longer. */
    private static final long MAX_ENTRY = Integer.MAX_VALUE - 8;

    /** Receives each whole entry whose checksum holds. */
    interface Handler {
        /**
         * @param start where the entry's length field begins
         * @param end   just past its checksum: what 0.6 compared with the header's positions
         * @throws IOException when the mutation does not decode: counted as such, and reading goes on
         */
        void entry(long start, long end, byte[] mutation) throws IOException;
    }

    /**
     * What reading found.
     *
     * @param entries            entries handed on (whether or not they decoded)
     * @param checksumMismatches entries passed over for a checksum that does not hold
     * @param firstMismatchAt    where the first of those begins; -1 if none
     * @param undecodable        entries whose checksum holds but whose mutation {@link Handler} could not read
     * @param firstUndecodableAt where the first of those begins; -1 if none
     * @param undecodableWhy     why the first of those did not read; null if none
     * @param endedAt            where reading stopped before the end of the file (a torn or impossible entry); -1 if
     *                           it reached the end
     * @param endedWhy           why it stopped there; null if it reached the end
     */
    record Outcome(long entries, long checksumMismatches, long firstMismatchAt, long undecodable,
                   long firstUndecodableAt, String undecodableWhy, long endedAt, String endedWhy) {
        boolean damaged() {
            return checksumMismatches > 0 || undecodable > 0 || endedAt >= 0;
        }

        /** The damage in one phrase with offsets, for the one line logged per segment. */
        String describeDamage() {
            StringBuilder s = new StringBuilder();
            if (checksumMismatches > 0) {
                s.append(checksumMismatches).append(checksumMismatches == 1 ? " entry" : " entries")
                        .append(" with a checksum mismatch (the first at offset ").append(firstMismatchAt)
                        .append(") passed over as 0.6 does");
            }
            if (undecodable > 0) {
                if (s.length() > 0) s.append("; ");
                s.append(undecodable).append(undecodable == 1 ? " entry" : " entries")
                        .append(" that did not decode (the first at offset ").append(firstUndecodableAt).append(": ")
                        .append(undecodableWhy).append(") passed over");
            }
            if (endedAt >= 0) {
                if (s.length() > 0) s.append("; ");
                s.append("reading ended at offset ").append(endedAt).append(" (").append(endedWhy).append(")");
            }
            return s.toString();
        }
    }

    private LegacyEntryReader() {
    }

    /** Reads the entries from offset {@code from} to the end of {@code file}. */
    static Outcome read(Path file, long from, Handler handler) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = channel.size();
            channel.position(from);
            DataInputStream in = new DataInputStream(new BufferedInputStream(Channels.newInputStream(channel), BUFFER));
            long offset = from;
            long entries = 0;
            long mismatches = 0;
            long firstMismatch = -1;
            long undecodable = 0;
            long firstUndecodable = -1;
            String undecodableWhy = null;
            CRC32 crc = new CRC32();
            while (offset < size) {
                long left = size - offset;
                if (left < FRAMING) {
                    return new Outcome(entries, mismatches, firstMismatch, undecodable, firstUndecodable,
                            undecodableWhy, offset, "the file ends inside an entry: " + left + " bytes left");
                }
                long length = in.readLong();
                if (length <= 0 || length > left - FRAMING || length > MAX_ENTRY) {
                    return new Outcome(entries, mismatches, firstMismatch, undecodable, firstUndecodable,
                            undecodableWhy, offset, length <= 0 ? "an entry length of " + length
                            : "an entry of " + length + " bytes where " + (left - FRAMING) + " are left");
                }
                byte[] mutation = new byte[(int) length];
                long stored;
                try {
                    in.readFully(mutation);
                    stored = in.readLong();
                } catch (EOFException e) {
                    // The file shrank while being read; what is there stays unread, as for a torn entry.
                    return new Outcome(entries, mismatches, firstMismatch, undecodable, firstUndecodable,
                            undecodableWhy, offset, "the file ends inside an entry");
                }
                long start = offset;
                offset += FRAMING + length;
                crc.reset();
                crc.update(mutation);
                if (crc.getValue() != stored) {
                    if (mismatches++ == 0) firstMismatch = start;
                    continue;
                }
                entries++;
                try {
                    handler.entry(start, offset, mutation);
                } catch (LegacyMutation.UndecodableException e) {
                    if (undecodable++ == 0) {
                        firstUndecodable = start;
                        undecodableWhy = e.getMessage();
                    }
                }
            }
            return new Outcome(entries, mismatches, firstMismatch, undecodable, firstUndecodable, undecodableWhy, -1,
                    null);
        }
    }
}
