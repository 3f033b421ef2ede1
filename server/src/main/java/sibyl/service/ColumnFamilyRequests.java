package sibyl.service;

/**
 * The requests one column family has served through the storage seam, each kind with its
 * latency: point reads (get, get_slice, get_count; one per key of a multiget), writes (one per
 * row mutation that changes the column family) and range scans (get_range_slices).
 */
public final class ColumnFamilyRequests {
    private final String keyspace;
    private final String columnFamily;
    private final LatencyTracker reads = new LatencyTracker();
    private final LatencyTracker writes = new LatencyTracker();
    private final LatencyTracker rangeScans = new LatencyTracker();

    ColumnFamilyRequests(String keyspace, String columnFamily) {
        this.keyspace = keyspace;
        this.columnFamily = columnFamily;
    }

    public String keyspace() {
        return keyspace;
    }

    public String columnFamily() {
        return columnFamily;
    }

    public LatencyTracker reads() {
        return reads;
    }

    public LatencyTracker writes() {
        return writes;
    }

    public LatencyTracker rangeScans() {
        return rangeScans;
    }
}
