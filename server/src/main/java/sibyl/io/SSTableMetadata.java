package sibyl.io;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import sibyl.db.LogPosition;

/**
 * What the Statistics component says about one SSTable. Immutable.
 *
 * @param formatVersion   {@link #CURRENT_VERSION} for files this code writes; {@link #CASSANDRA_06_VERSION}
 *                        for a Cassandra 0.6 SSTable, whose statistics are made up at open
 * @param generation      the generation the SSTable was created as
 * @param partitioner     class name of the partitioner whose ring order the rows are in
 * @param rowCount        rows in the data file (never 0)
 * @param firstKey        the first key in ring order
 * @param lastKey         the last key in ring order
 * @param minTimestamp    smallest timestamp of any column or tombstone, Long.MAX_VALUE if none
 *                        (Long.MIN_VALUE when not known: a Cassandra 0.6 SSTable)
 * @param maxTimestamp    largest timestamp of any column or tombstone, Long.MIN_VALUE if none
 *                        (Long.MAX_VALUE when not known)
 * @param logPosition     the commit log position the flush code recorded
 * @param dataLength      bytes of the data file, to detect truncation
 * @param indexLength     bytes of the index file, likewise
 * @param replaces        Sibyl's SSTables of the same column family whose rows this one holds (a compaction's
 *                        or scrub's inputs); start-up drops those still on disk (FORMAT.md, "Statistics")
 */
public record SSTableMetadata(int formatVersion, int generation, String partitioner, long rowCount,
                              String firstKey, String lastKey, long minTimestamp, long maxTimestamp,
                              LogPosition logPosition, long dataLength, long indexLength, List<Replaced> replaces) {
    /** Bumped whenever any component's encoding changes; readers refuse versions they do not know. */
    public static final int CURRENT_VERSION = 2;
    /** The first version, without {@link #replaces}; still read. */
    static final int VERSION_1 = 1;
    /** The version of the statistics made up for a Cassandra 0.6 SSTable at open; never written. */
    public static final int CASSANDRA_06_VERSION = 0;
    /** "SIBY" first in the Statistics file, so a stray file is recognised as not ours. */
    static final int MAGIC = 0x53494259;

    /**
     * An SSTable another replaced, told by more than its generation, so that a different SSTable put under that
     * generation later (a snapshot's file copied back, an import naming its generation) is never taken for it.
     */
    public record Replaced(int generation, long dataLength, long rowCount) {
        /** Whether {@code stats}, the Statistics of an SSTable of this generation, is the one replaced. */
        public boolean is(SSTableMetadata stats) {
            return stats.dataLength() == dataLength && stats.rowCount() == rowCount;
        }
    }

    public SSTableMetadata {
        Objects.requireNonNull(partitioner, "partitioner");
        Objects.requireNonNull(firstKey, "firstKey");
        Objects.requireNonNull(lastKey, "lastKey");
        Objects.requireNonNull(logPosition, "logPosition");
        replaces = List.copyOf(replaces);
    }

    /** This SSTable as another that takes its place lists it, under the generation {@code generation}. */
    public Replaced asReplaced(int generation) {
        return new Replaced(generation, dataLength, rowCount);
    }

    /** Statistics without replaced SSTables: a flush's, or a Cassandra 0.6 SSTable's made up at open. */
    public SSTableMetadata(int formatVersion, int generation, String partitioner, long rowCount, String firstKey,
                           String lastKey, long minTimestamp, long maxTimestamp, LogPosition logPosition,
                           long dataLength, long indexLength) {
        this(formatVersion, generation, partitioner, rowCount, firstKey, lastKey, minTimestamp, maxTimestamp,
                logPosition, dataLength, indexLength, List.of());
    }

    void writeTo(DataOutput out) throws IOException {
        out.writeInt(MAGIC);
        out.writeInt(formatVersion);
        out.writeInt(generation);
        out.writeUTF(partitioner);
        out.writeLong(rowCount);
        out.writeUTF(firstKey);
        out.writeUTF(lastKey);
        out.writeLong(minTimestamp);
        out.writeLong(maxTimestamp);
        out.writeLong(logPosition.segmentId());
        out.writeLong(logPosition.offset());
        out.writeLong(dataLength);
        out.writeLong(indexLength);
        if (formatVersion >= CURRENT_VERSION) {
            out.writeInt(replaces.size());
            for (Replaced r : replaces) {
                out.writeInt(r.generation());
                out.writeLong(r.dataLength());
                out.writeLong(r.rowCount());
            }
        }
    }

    /** @throws IOException when the file is not a Statistics component of a version this code reads */
    static SSTableMetadata readFrom(DataInput in) throws IOException {
        int magic = in.readInt();
        if (magic != MAGIC) throw new IOException("not an sstable statistics file (magic " + Integer.toHexString(magic) + ")");
        int version = in.readInt();
        if (version != VERSION_1 && version != CURRENT_VERSION) {
            throw new IOException("sstable format version " + version + " is not supported; this build reads "
                    + VERSION_1 + " and " + CURRENT_VERSION);
        }
        int generation = in.readInt();
        String partitioner = in.readUTF();
        long rowCount = in.readLong();
        String firstKey = in.readUTF();
        String lastKey = in.readUTF();
        long minTimestamp = in.readLong();
        long maxTimestamp = in.readLong();
        LogPosition logPosition = new LogPosition(in.readLong(), in.readLong());
        long dataLength = in.readLong();
        long indexLength = in.readLong();
        List<Replaced> replaces = new ArrayList<>();
        if (version == CURRENT_VERSION) {
            int count = in.readInt();
            if (count < 0) throw new IOException("negative count of replaced sstables: " + count);
            for (int i = 0; i < count; i++) replaces.add(new Replaced(in.readInt(), in.readLong(), in.readLong()));
        }
        return new SSTableMetadata(version, generation, partitioner, rowCount, firstKey, lastKey, minTimestamp,
                maxTimestamp, logPosition, dataLength, indexLength, replaces);
    }
}
