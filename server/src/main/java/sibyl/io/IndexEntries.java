package sibyl.io;

import java.io.IOException;

/** Consecutive entries of an index file, read one at a time from a position on, in either format. */
interface IndexEntries {
    /**
     * Where the next entry starts. After a failed {@link #next}: past the failed entry when the walk can go on
     * after it (its length was readable), else where it was.
     */
    long position();

    /**
     * The next entry, or null after the last one.
     *
     * @throws CorruptSSTableException naming the file and offset when the entry does not decode
     */
    IndexEntry next() throws IOException;
}
