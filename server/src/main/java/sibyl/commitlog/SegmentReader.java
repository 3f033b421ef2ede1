package sibyl.commitlog;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Reads the entries of one segment file in order and stops at the first entry that is torn (the
 * file ends inside it) or corrupt (its length does not fit, or its checksum does not hold where
 * it is checked): nothing from there on is handed on, since nothing after a bad length can be
 * trusted.
 *
 * <p>Entries are stepped over by their length header; the handler decides per entry whether it
 * needs the payload checked and copied ({@link Entry#checkedPayload}). Replay skips entries that
 * SSTables already hold this way without checksumming or decoding them: such an entry is never
 * applied, so damage in it cannot reach the memtables, and a torn length still shows as a length
 * that does not fit, or as garbage that the next entry handed on fails to checksum.
 */
final class SegmentReader {
    /** Bytes read from the file at a time; larger entries get a larger buffer. */
    private static final int WINDOW = 1 << 20;

    /** Receives each entry whose framing fits the file. */
    interface EntryHandler {
        /**
         * @throws ChecksumMismatchException from {@link Entry#checkedPayload}: a corrupt entry
         * @throws IOException               when the payload does not decode: treated like a corrupt entry
         */
        void entry(Entry entry) throws IOException;
    }

    /**
     * One entry as framed in the file, valid only during the handler's call.
     *
     * @param end    offset just past the entry
     * @param crc    the checksum stored with it
     * @param length the length stored with it
     * @param frame  the payload's bytes, not yet checked
     */
    record Entry(long end, int length, int crc, ByteBuffer frame) {
        /** The payload, unchecked: for a cheap look (which column families it holds) before deciding. */
        ByteBuffer uncheckedPayload() {
            return frame.asReadOnlyBuffer();
        }

        /** The payload, once its checksum holds. */
        byte[] checkedPayload() throws ChecksumMismatchException {
            byte[] payload = new byte[length];
            frame.duplicate().get(payload);
            if (LogEntry.crc(length, payload) != crc) throw new ChecksumMismatchException();
            return payload;
        }
    }

    /** An entry's checksum does not hold. */
    static final class ChecksumMismatchException extends IOException {
        ChecksumMismatchException() {
            super("checksum mismatch");
        }
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
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = channel.size();
            if (size < SegmentHeader.SIZE) {
                return new Outcome(0, 0, 0, "torn header: the file has only " + size + " bytes");
            }
            Window window = new Window(channel);
            byte[] header = new byte[SegmentHeader.SIZE];
            ByteBuffer headerBytes = window.slice(0, SegmentHeader.SIZE);
            if (headerBytes == null) return new Outcome(0, 0, 0, "torn header: the file ended while reading it");
            headerBytes.get(header);
            String headerProblem = SegmentHeader.problem(header, segmentId);
            if (headerProblem != null) return new Outcome(0, 0, 0, headerProblem);

            long offset = SegmentHeader.SIZE;
            long entries = 0;
            while (offset < size) {
                long left = size - offset;
                if (left < LogEntry.OVERHEAD) {
                    if (zerosToTheEnd(window, offset, size)) return new Outcome(entries, offset, -1, null);
                    return new Outcome(entries, offset, offset, "torn entry: only " + left + " bytes left");
                }
                ByteBuffer framing = window.slice(offset, LogEntry.OVERHEAD);
                int length = framing.getInt();
                int crc = framing.getInt();
                if (length == 0 && crc == 0 && zerosToTheEnd(window, offset + LogEntry.OVERHEAD, size)) {
                    return new Outcome(entries, offset, -1, null); // the unwritten rest of a segment's last window
                }
                if (length <= 0 || length > left - LogEntry.OVERHEAD) {
                    return new Outcome(entries, offset, offset, "torn or corrupt entry: length " + length
                            + " does not fit the " + (left - LogEntry.OVERHEAD) + " bytes left");
                }
                ByteBuffer frame = window.slice(offset + LogEntry.OVERHEAD, length);
                if (frame == null) {
                    return new Outcome(entries, offset, offset, "torn entry: the file ended while reading it");
                }
                long next = offset + LogEntry.OVERHEAD + length;
                try {
                    handler.entry(new Entry(next, length, crc, frame));
                } catch (ChecksumMismatchException e) {
                    return new Outcome(entries, offset, offset, "corrupt entry: checksum mismatch");
                } catch (IOException e) {
                    return new Outcome(entries, offset, offset, "undecodable entry: " + e.getMessage());
                }
                entries++;
                offset = next;
            }
            return new Outcome(entries, offset, -1, null);
        }
    }

    /**
     * Whether the file holds only zeros from {@code offset} on: what a segment that was not closed holds after its
     * last entry (its mapped window grew the file ahead of the entries). No entry begins with a zero length, so zeros
     * where framing should be are the end when nothing but zeros follows; zeros followed by anything else are damage.
     */
    private static boolean zerosToTheEnd(Window window, long offset, long size) throws IOException {
        for (long at = offset; at < size; ) {
            int n = (int) Math.min(WINDOW, size - at);
            ByteBuffer bytes = window.slice(at, n);
            if (bytes == null) return false;
            while (bytes.remaining() >= Long.BYTES) {
                if (bytes.getLong() != 0) return false;
            }
            while (bytes.hasRemaining()) {
                if (bytes.get() != 0) return false;
            }
            at += n;
        }
        return true;
    }

    /** Sequential reads of a channel through one reused buffer, refilled as the reader moves on. */
    private static final class Window {
        private final FileChannel channel;
        private ByteBuffer buffer = ByteBuffer.allocate(WINDOW).limit(0);
        private long start; // file offset of the buffer's first byte

        Window(FileChannel channel) {
            this.channel = channel;
        }

        /**
         * {@code length} bytes from {@code offset}, as a buffer of its own valid until the next
         * call; null when the file ends before them (it shrank while being read).
         */
        ByteBuffer slice(long offset, int length) throws IOException {
            if (offset < start || offset + length > start + buffer.limit()) {
                if (!fill(offset, length)) return null;
            }
            int at = (int) (offset - start);
            return buffer.slice(at, length);
        }

        private boolean fill(long offset, int length) throws IOException {
            if (buffer.capacity() < length) buffer = ByteBuffer.allocate(length);
            buffer.clear();
            start = offset;
            while (buffer.hasRemaining()) {
                if (channel.read(buffer, start + buffer.position()) < 0) break;
            }
            buffer.flip();
            return buffer.limit() >= length;
        }
    }
}
