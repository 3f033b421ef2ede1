package sibyl.client.stress;

/** What a stress run did, for the summary and for tests. */
record StressResult(long operations, long errors, long mismatches, long missingRows, double seconds,
                    LatencyHistogram latencies, String firstError) {

    double opsPerSecond() {
        return seconds > 0 ? operations / seconds : 0;
    }
}
