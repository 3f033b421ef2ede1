package sibyl.commitlog;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Iterator;
import java.util.List;
import java.util.zip.CRC32;

/**
 * Test only: writes commit log segments as Cassandra 0.6 wrote them, header rules included, from
 * the format's facts (see {@link LegacySegmentHeader}, {@link LegacyEntryReader}, {@link LegacyMutation}):
 * a column family is made dirty at the start of the first entry that writes it in a segment; a
 * flush whose log position lies in segment S makes the column family clean in the segments before
 * S (deleting those left with nothing dirty) and sets its replay position in S to that position.
 */
final class C06LogWriter {
    /** Where the log stood when a flush began: 0.6's CommitLogContext. */
    record Context(Segment segment, long position) {
    }

    /** One segment being written. */
    static final class Segment {
        final long id;
        final BitSet dirty;
        final int[] positions;
        final long headerLength;
        final ByteArrayOutputStream entries = new ByteArrayOutputStream();

        Segment(long id, int columnFamilies) {
            this.id = id;
            this.dirty = new BitSet(columnFamilies); // sized, as 0.6's, so the header keeps one length
            this.positions = new int[columnFamilies];
            this.headerLength = header().length;
        }

        long end() {
            return Long.BYTES + headerLength + entries.size();
        }

        byte[] header() {
            try {
                ByteArrayOutputStream bytes = new ByteArrayOutputStream();
                DataOutputStream out = new DataOutputStream(bytes);
                ObjectOutputStream objects = new ObjectOutputStream(out);
                objects.writeObject(dirty);
                objects.flush();
                out.writeInt(positions.length);
                for (int p : positions) out.writeInt(p);
                return bytes.toByteArray();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        byte[] bytes() {
            byte[] header = header();
            if (header.length != headerLength) throw new IllegalStateException("header changed length");
            ByteArrayOutputStream file = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(file);
            try {
                out.writeLong(header.length);
                out.write(header);
                out.write(entries.toByteArray());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return file.toByteArray();
        }

        String fileName() {
            return "CommitLog-" + id + ".log";
        }
    }

    private final List<ColumnFamilyId> byId;
    private final List<Segment> segments = new ArrayList<>();
    private long nextId;

    /**
     * @param byId    the numbering 0.6 used: the column family of each id
     * @param firstId the first segment's id (its name's milliseconds)
     */
    C06LogWriter(List<ColumnFamilyId> byId, long firstId) {
        this.byId = List.copyOf(byId);
        this.nextId = firstId;
        roll();
    }

    /** Begins a new segment, as 0.6 did past its size threshold. */
    C06LogWriter roll() {
        segments.add(new Segment(nextId++, byId.size()));
        return this;
    }

    Segment current() {
        return segments.get(segments.size() - 1);
    }

    /** Appends a row mutation of {@code rows}; returns where its entry begins. */
    long write(String keyspace, String key, C06Row... rows) {
        Segment s = current();
        long start = s.end();
        for (C06Row row : rows) {
            int id = idOf(keyspace, row.name());
            if (!s.dirty.get(id)) {
                s.dirty.set(id);
                s.positions[id] = (int) start;
            }
        }
        appendEntry(s, C06Row.mutation(keyspace, key, rows));
        return start;
    }

    /** Appends an entry of any bytes, with their right checksum (for entries that do not decode). */
    static void appendEntry(Segment s, byte[] mutation) {
        CRC32 crc = new CRC32();
        crc.update(mutation);
        DataOutputStream out = new DataOutputStream(s.entries);
        try {
            out.writeLong(mutation.length);
            out.write(mutation);
            out.writeLong(crc.getValue());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Where the log stands: what a flush beginning now remembers. */
    Context context() {
        return new Context(current(), current().end());
    }

    /** A flush of one column family that began at {@code at} is done: 0.6's discardCompletedSegments. */
    C06LogWriter flushed(String keyspace, String cf, Context at) {
        int id = idOf(keyspace, cf);
        Iterator<Segment> it = segments.iterator();
        while (it.hasNext()) {
            Segment s = it.next();
            if (s == at.segment()) {
                s.dirty.set(id);
                s.positions[id] = (int) at.position();
                break;
            }
            s.dirty.clear(id);
            s.positions[id] = 0;
            if (s.dirty.isEmpty()) it.remove();
        }
        return this;
    }

    /** The segments 0.6 still holds, oldest first. */
    List<Segment> segments() {
        return List.copyOf(segments);
    }

    /** Writes the segments 0.6 still holds into {@code dir}; returns their files, oldest first. */
    List<Path> writeTo(Path dir) throws IOException {
        List<Path> files = new ArrayList<>();
        for (Segment s : segments) files.add(Files.write(dir.resolve(s.fileName()), s.bytes()));
        return files;
    }

    private int idOf(String keyspace, String cf) {
        int id = byId.indexOf(new ColumnFamilyId(keyspace, cf));
        if (id < 0) throw new IllegalArgumentException(keyspace + "." + cf + " has no id");
        return id;
    }
}
