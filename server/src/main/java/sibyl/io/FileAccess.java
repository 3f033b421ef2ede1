package sibyl.io;

/**
 * How an SSTable's data and index files are read (DiskAccessMode): with positional reads, or
 * through a read-only memory mapping, where a read is a copy out of the page cache with no
 * system call.
 *
 * @param mapData  whether the data file is mapped
 * @param mapIndex whether the index file is mapped
 */
public record FileAccess(boolean mapData, boolean mapIndex) {
    /** DiskAccessMode standard: positional reads of both. */
    public static final FileAccess STANDARD = new FileAccess(false, false);
    /** DiskAccessMode mmap. */
    public static final FileAccess MMAP = new FileAccess(true, true);
    /** DiskAccessMode mmap_index_only. */
    public static final FileAccess MMAP_INDEX_ONLY = new FileAccess(false, true);
}
