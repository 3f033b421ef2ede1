package sibyl.db;

/**
 * A place in the write log: a byte offset within a segment. Positions order first by segment
 * (segment ids only grow) then by offset, so a later write always has a greater position.
 */
public record LogPosition(long segmentId, long offset) implements Comparable<LogPosition> {
    /** Before every position a log can hand out. */
    public static final LogPosition NONE = new LogPosition(Long.MIN_VALUE, 0);

    @Override
    public int compareTo(LogPosition other) {
        int bySegment = Long.compare(segmentId, other.segmentId);
        return bySegment != 0 ? bySegment : Long.compare(offset, other.offset);
    }

    @Override
    public String toString() {
        return segmentId + ":" + offset;
    }
}
