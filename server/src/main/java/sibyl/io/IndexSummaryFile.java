package sibyl.io;

import java.io.DataInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sibyl.dht.DecoratedKey;
import sibyl.dht.Partitioner;

/**
 * The Summary component: the index sample as the writer took it, so that opening an SSTable
 * reads this small file rather than the whole index (see FORMAT.md, "Summary"):
 * <pre>
 * summary := magic i32 ("SSUM") | version i32 | interval i32 | indexLength i64 | count i32
 *            | (key | indexPosition i64){count} | fileCrc i32
 * </pre>
 * The summary is an optimisation only: a reader that finds it missing (SSTables written before
 * it existed), damaged, or taken at an interval it cannot use, scans the index as before.
 */
final class IndexSummaryFile {
    static final int MAGIC = 0x5353554D; // "SSUM"
    static final int VERSION = 1;
    /** The interval written when the writer is given none: IndexInterval's default. */
    static final int DEFAULT_INTERVAL = 128;

    private static final Logger log = LoggerFactory.getLogger(IndexSummaryFile.class);

    private IndexSummaryFile() {
    }

    /** Takes every {@code interval}-th key, with its index entry's position, as rows are written. */
    static final class Sampler {
        private final int interval;
        private final List<String> keys = new ArrayList<>();
        private long[] positions = new long[16];
        private long rows;

        Sampler(int interval) {
            if (interval <= 0) throw new IllegalArgumentException("index interval must be positive: " + interval);
            this.interval = interval;
        }

        /** Called for each row in order, with where its index entry begins. */
        void row(String key, long indexPosition) {
            if (rows++ % interval == 0) {
                if (keys.size() == positions.length) positions = Arrays.copyOf(positions, positions.length * 2);
                positions[keys.size()] = indexPosition;
                keys.add(key);
            }
        }

        /** Writes the file (checksummed and fsynced, see {@link ChecksummedFile}). */
        void writeTo(Path path, long indexLength) throws IOException {
            ChecksummedFile.write(path, out -> {
                out.writeInt(MAGIC);
                out.writeInt(VERSION);
                out.writeInt(interval);
                out.writeLong(indexLength);
                out.writeInt(keys.size());
                for (int i = 0; i < keys.size(); i++) {
                    out.writeUTF(keys.get(i));
                    out.writeLong(positions[i]);
                }
            });
        }
    }

    /**
     * The sample to read with at {@code interval}, from the file: as written, or every n-th of it
     * when {@code interval} is n times the written one. Empty when the file is missing, damaged,
     * does not fit the SSTable's statistics, or was taken at an interval {@code interval} is no
     * multiple of; then the caller scans the index.
     */
    static Optional<IndexSummary> read(Path path, Partitioner partitioner, int interval, SSTableMetadata stats) {
        if (!Files.exists(path)) {
            log.debug("No summary {}: scanning the index", path);
            return Optional.empty();
        }
        try {
            return ChecksummedFile.read(path, (in, length) -> parse(in, path, partitioner, interval, stats));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException | RuntimeException e) {
            log.warn("Index summary {} is unusable ({}); scanning the index instead", path, e.getMessage());
            return Optional.empty();
        }
    }

    private static Optional<IndexSummary> parse(DataInputStream in, Path path, Partitioner partitioner, int interval,
                                                SSTableMetadata stats) throws IOException {
        if (in.readInt() != MAGIC) throw new IOException("bad magic");
        int version = in.readInt();
        if (version != VERSION) throw new IOException("summary format version " + version + " is not supported");
        int written = in.readInt();
        long indexLength = in.readLong();
        int count = in.readInt();
        if (written <= 0) throw new IOException("interval " + written);
        if (indexLength != stats.indexLength()) {
            throw new IOException("written for an index of " + indexLength + " bytes, the statistics say " + stats.indexLength());
        }
        long expected = (stats.rowCount() + written - 1) / written;
        if (count != expected) throw new IOException(count + " samples for " + stats.rowCount() + " rows at interval " + written);
        List<DecoratedKey> keys = new ArrayList<>(count);
        long[] positions = new long[count];
        DecoratedKey previous = null;
        for (int i = 0; i < count; i++) {
            DecoratedKey key = partitioner.decorateKey(in.readUTF());
            long position = in.readLong();
            if (previous != null && key.compareTo(previous) <= 0) throw new IOException("key " + key.key() + " out of ring order");
            boolean ordered = i == 0 ? position == 0 : position > positions[i - 1];
            if (!ordered || position >= indexLength) throw new IOException("index position " + position + " out of order");
            keys.add(key);
            positions[i] = position;
            previous = key;
        }
        if (interval % written != 0) {
            log.info("Index summary {} was taken every {} keys, IndexInterval is {}: scanning the index", path, written,
                    interval);
            return Optional.empty();
        }
        int step = interval / written;
        if (step == 1) return Optional.of(new IndexSummary(keys, positions, indexLength, interval));
        List<DecoratedKey> sparseKeys = new ArrayList<>(count / step + 1);
        long[] sparsePositions = new long[(count + step - 1) / step];
        for (int i = 0, j = 0; i < count; i += step, j++) {
            sparseKeys.add(keys.get(i));
            sparsePositions[j] = positions[i];
        }
        return Optional.of(new IndexSummary(sparseKeys, sparsePositions, indexLength, interval));
    }
}
