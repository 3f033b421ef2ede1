package sibyl.jmx;

import sibyl.service.ColumnFamilyRequests;

/**
 * The requests of one column family as a management bean: reads here are point reads and range scans together, as
 * cfstats has always shown them.
 */
class ColumnFamilyRequestsStats implements ColumnFamilyRequestsMBean {
    private final ColumnFamilyRequests requests;
    private final RecentLatency recentReads;
    private final RecentLatency recentWrites;

    ColumnFamilyRequestsStats(ColumnFamilyRequests requests) {
        this.requests = requests;
        this.recentReads = new RecentLatency(requests.reads(), requests.rangeScans());
        this.recentWrites = new RecentLatency(requests.writes());
    }

    @Override
    public final String getColumnFamilyName() {
        return requests.columnFamily();
    }

    @Override
    public long getReadCount() {
        return requests.reads().count() + requests.rangeScans().count();
    }

    @Override
    public long getTotalReadLatencyMicros() {
        return (requests.reads().totalNanos() + requests.rangeScans().totalNanos()) / 1000;
    }

    @Override
    public double getRecentReadLatencyMicros() {
        return recentReads.sinceLastMicros();
    }

    @Override
    public long getWriteCount() {
        return requests.writes().count();
    }

    @Override
    public long getTotalWriteLatencyMicros() {
        return requests.writes().totalNanos() / 1000;
    }

    @Override
    public double getRecentWriteLatencyMicros() {
        return recentWrites.sinceLastMicros();
    }
}
