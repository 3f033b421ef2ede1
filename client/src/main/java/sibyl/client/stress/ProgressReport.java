package sibyl.client.stress;

import java.io.Closeable;
import java.io.IOException;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/** Prints the interval lines (and CSV rows) and the summary of a run. */
final class ProgressReport implements Closeable {

    private static final String HEADER = String.format(Locale.ROOT, "%8s %11s %9s %9s %9s %9s %9s %9s %7s",
            "time_s", "total_ops", "ops", "ops/s", "mean_ms", "p95_ms", "p99_ms", "max_ms", "errors");
    static final String CSV_HEADER = "elapsed_s,total_ops,interval_ops,ops_per_s,mean_ms,p95_ms,p99_ms,max_ms,errors";

    private final PrintStream out;
    private final Writer csv;

    ProgressReport(PrintStream out, String csvFile) throws IOException {
        this.out = out;
        if (csvFile != null) {
            csv = Files.newBufferedWriter(Path.of(csvFile), StandardCharsets.UTF_8);
            csv.write(CSV_HEADER + "\n");
        } else {
            csv = null;
        }
    }

    void header() {
        out.println(HEADER);
    }

    /** One interval: {@code interval} holds its latencies, {@code seconds} its length. */
    void interval(double elapsed, long totalOps, LatencyHistogram interval, double seconds, long errors)
            throws IOException {
        double rate = seconds > 0 ? interval.count() / seconds : 0;
        out.println(String.format(Locale.ROOT, "%8.1f %11d %9d %9.0f %9.3f %9.3f %9.3f %9.3f %7d",
                elapsed, totalOps, interval.count(), rate, interval.mean() / 1000, ms(interval.percentile(95)),
                ms(interval.percentile(99)), ms(interval.max()), errors));
        out.flush();
        if (csv != null) {
            csv.write(String.format(Locale.ROOT, "%.3f,%d,%d,%.1f,%.3f,%.3f,%.3f,%.3f,%d%n",
                    elapsed, totalOps, interval.count(), rate, interval.mean() / 1000, ms(interval.percentile(95)),
                    ms(interval.percentile(99)), ms(interval.max()), errors));
            csv.flush();
        }
    }

    void summary(StressOptions options, StressResult r) {
        LatencyHistogram h = r.latencies();
        out.println(String.format(Locale.ROOT, "Done: %d %s operations in %.2f s (%.0f ops/s), %d errors",
                r.operations(), options.operation().label(), r.seconds(), r.opsPerSecond(), r.errors()));
        out.println(String.format(Locale.ROOT,
                "Latency (ms): mean %.3f, p50 %.3f, p95 %.3f, p99 %.3f, p99.9 %.3f, max %.3f",
                h.mean() / 1000, ms(h.percentile(50)), ms(h.percentile(95)), ms(h.percentile(99)),
                ms(h.percentile(99.9)), ms(h.max())));
        if (options.verify()) {
            out.println("Verify: " + r.mismatches() + " mismatched columns, " + r.missingRows() + " missing rows");
        }
        if (r.firstError() != null) {
            out.println("First error: " + r.firstError());
        }
        out.flush();
    }

    private static double ms(long micros) {
        return micros / 1000.0;
    }

    @Override
    public void close() throws IOException {
        if (csv != null) {
            csv.close();
        }
    }
}
