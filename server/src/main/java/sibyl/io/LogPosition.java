package sibyl.io;

/**
 * Where in the commit log an SSTable's contents end: opaque here, two longs the flush code fills
 * in (for instance a segment id and an offset in it) and reads back at restart to skip replay
 * of what the SSTable already holds.
 */
public record LogPosition(long segment, long position) {
    /** For SSTables that owe nothing to the log (compaction output, tests). */
    public static final LogPosition NONE = new LogPosition(-1, -1);
}
