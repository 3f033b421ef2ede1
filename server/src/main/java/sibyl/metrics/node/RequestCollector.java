package sibyl.metrics.node;

import java.util.List;
import sibyl.metrics.Collector;
import sibyl.metrics.ExpositionWriter;
import sibyl.service.ColumnFamilyRequests;
import sibyl.service.LatencyTracker;
import sibyl.service.RequestMetrics;

/**
 * The requests each column family served, as the storage seam counted them: reads, writes and
 * range scans as counters and as latency histograms. Each tracker is read once per scrape, so a
 * counter and its histogram's count agree.
 */
final class RequestCollector implements Collector {
    private static final double[] BOUNDS_SECONDS = seconds(LatencyTracker.bucketBoundsNanos());

    private final RequestMetrics requests;

    RequestCollector(RequestMetrics requests) {
        this.requests = requests;
    }

    private record Kind(String counter, String histogram, String what) {
    }

    private static final List<Kind> KINDS = List.of(
            new Kind("sibyl_cf_reads_total", "sibyl_cf_read_latency_seconds",
                    "point reads (get, get_slice, get_count; one per key of a multiget)"),
            new Kind("sibyl_cf_writes_total", "sibyl_cf_write_latency_seconds",
                    "writes (row mutations changing the column family; the time includes the commit log)"),
            new Kind("sibyl_cf_range_scans_total", "sibyl_cf_range_scan_latency_seconds",
                    "range scans (get_range_slice, get_range_slices)"));

    @Override
    public void collect(ExpositionWriter out) {
        List<ColumnFamilyRequests> cfs = requests.all();
        LatencyTracker.Snapshot[][] snapshots = new LatencyTracker.Snapshot[KINDS.size()][cfs.size()];
        for (int c = 0; c < cfs.size(); c++) {
            snapshots[0][c] = cfs.get(c).reads().snapshot();
            snapshots[1][c] = cfs.get(c).writes().snapshot();
            snapshots[2][c] = cfs.get(c).rangeScans().snapshot();
        }
        for (int k = 0; k < KINDS.size(); k++) {
            ExpositionWriter.Family counter = out.counter(KINDS.get(k).counter(),
                    "Column family " + KINDS.get(k).what() + " served since start.");
            for (int c = 0; c < cfs.size(); c++) counter.sample(snapshots[k][c].count(), labels(cfs.get(c)));
        }
        for (int k = 0; k < KINDS.size(); k++) {
            ExpositionWriter.Histogram histogram = out.histogram(KINDS.get(k).histogram(),
                    "Latency of column family " + KINDS.get(k).what() + ", in seconds.", BOUNDS_SECONDS);
            for (int c = 0; c < cfs.size(); c++) {
                LatencyTracker.Snapshot s = snapshots[k][c];
                histogram.sample(s.bucketCounts(), s.totalNanos() / 1e9, labels(cfs.get(c)));
            }
        }
    }

    private static String[] labels(ColumnFamilyRequests cf) {
        return new String[] {"keyspace", cf.keyspace(), "columnfamily", cf.columnFamily()};
    }

    private static double[] seconds(long[] nanos) {
        double[] seconds = new double[nanos.length];
        for (int i = 0; i < nanos.length; i++) seconds[i] = nanos[i] / 1e9;
        return seconds;
    }
}
