package sibyl.io;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
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
 */
public record SSTableMetadata(int formatVersion, int generation, String partitioner, long rowCount,
                              String firstKey, String lastKey, long minTimestamp, long maxTimestamp,
                              LogPosition logPosition, long dataLength, long indexLength) {
    /** Bumped whenever any component's encoding changes; readers refuse other versions. */
    public static final int CURRENT_VERSION = 1;
    /** The version of the statistics made up for a Cassandra 0.6 SSTable at open; never written. */
    public static final int CASSANDRA_06_VERSION = 0;
    /** "SIBY" first in the Statistics file, so a stray file is recognised as not ours. */
    static final int MAGIC = 0x53494259;

    public SSTableMetadata {
        Objects.requireNonNull(partitioner, "partitioner");
        Objects.requireNonNull(firstKey, "firstKey");
        Objects.requireNonNull(lastKey, "lastKey");
        Objects.requireNonNull(logPosition, "logPosition");
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
    }

    /** @throws IOException when the file is not a Statistics component of a version this code reads */
    static SSTableMetadata readFrom(DataInput in) throws IOException {
        int magic = in.readInt();
        if (magic != MAGIC) throw new IOException("not an sstable statistics file (magic " + Integer.toHexString(magic) + ")");
        int version = in.readInt();
        if (version != CURRENT_VERSION) {
            throw new IOException("sstable format version " + version + " is not supported; this build reads " + CURRENT_VERSION);
        }
        return new SSTableMetadata(version, in.readInt(), in.readUTF(), in.readLong(), in.readUTF(), in.readUTF(),
                in.readLong(), in.readLong(), new LogPosition(in.readLong(), in.readLong()), in.readLong(), in.readLong());
    }
}
