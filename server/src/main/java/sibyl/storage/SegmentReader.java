package sibyl.storage;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads the entries of one segment file in order, checking each entry's CRC, and stops at the
 * first entry that is torn (the file ends inside it) or corrupt (its length or checksum does not
 * hold): nothing from there on is handed on, since nothing after a bad length can be trusted.
 */
final class SegmentReader {
    /** Receives each sound entry's payload; may refuse one it cannot decode. */
    interface EntryHandler {
        /** @throws IOException when the payload does not decode: treated like a corrupt entry */
        void entry(byte[] payload, long endOffset) throws IOException;
    }

    /**
     * What reading found.
     *
     * @param entries      entries handed on
     * @param end          offset just past the last of them
     * @param damageOffset where the first bad entry (or the header) begins; -1 if none
     * @param damage       what is wrong there; null if nothing
     */
    record Outcome(long entries, long end, long damageOffset, String damage) {
        boolean damaged() {
            return damage != null;
        }
    }

    private SegmentReader() {
    }

    /** @throws SegmentHeader.UnsupportedVersionException for a segment of a newer format */
    static Outcome read(Path file, long segmentId, EntryHandler handler) throws IOException {
        long size = Files.size(file);
        try (InputStream raw = Files.newInputStream(file);
             DataInputStream in = new DataInputStream(new BufferedInputStream(raw, 1 << 16))) {
            if (size < SegmentHeader.SIZE) {
                return new Outcome(0, 0, 0, "torn header: the file has only " + size + " bytes");
            }
            byte[] header = new byte[SegmentHeader.SIZE];
            in.readFully(header);
            String headerProblem = SegmentHeader.problem(header, segmentId);
            if (headerProblem != null) return new Outcome(0, 0, 0, headerProblem);

            long offset = SegmentHeader.SIZE;
            long entries = 0;
            while (offset < size) {
                long left = size - offset;
                if (left < LogEntry.OVERHEAD) {
                    return new Outcome(entries, offset, offset, "torn entry: only " + left + " bytes left");
                }
                int length = in.readInt();
                int crc = in.readInt();
                if (length <= 0 || length > left - LogEntry.OVERHEAD) {
                    return new Outcome(entries, offset, offset, "torn or corrupt entry: length " + length
                            + " does not fit the " + (left - LogEntry.OVERHEAD) + " bytes left");
                }
                byte[] payload = new byte[length];
                try {
                    in.readFully(payload);
                } catch (EOFException e) {
                    return new Outcome(entries, offset, offset, "torn entry: the file ended while reading it");
                }
                if (LogEntry.crc(length, payload) != crc) {
                    return new Outcome(entries, offset, offset, "corrupt entry: checksum mismatch");
                }
                long next = offset + LogEntry.OVERHEAD + length;
                try {
                    handler.entry(payload, next);
                } catch (IOException e) {
                    return new Outcome(entries, offset, offset, "undecodable entry: " + e.getMessage());
                }
                entries++;
                offset = next;
            }
            return new Outcome(entries, offset, -1, null);
        }
    }
}
