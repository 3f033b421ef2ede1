package sibyl.io;

import java.nio.file.Path;
import sibyl.dht.DecoratedKey;

/** How one SSTable format lays out its index file: what scans and lookups of it need. */
interface IndexFormat {
    /** A buffered sequential read of the index from the entry at {@code start} to its end. */
    IndexEntries scan(PositionalFile index, long start);

    /**
     * The entry of {@code key} in a stretch of consecutive entries read into the first {@code length} bytes of
     * {@code stretch}, or null. Entries of other keys are skipped by comparing raw bytes (opening the SSTable
     * checked every entry once).
     *
     * @param stretchStart   where the stretch lies in the index file
     * @param stretchDataEnd where the rows of the stretch's entries end in the data file (the next sample's row,
     *                       or the data file's end), for a format whose entries do not record row lengths
     */
    IndexEntry find(byte[] stretch, int length, long stretchStart, long stretchDataEnd, DecoratedKey key, Path file);
}
