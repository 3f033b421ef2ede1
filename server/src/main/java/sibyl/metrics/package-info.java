/**
 * The metrics endpoint, independent of the rest of the server: Prometheus' text exposition format
 * (version 0.0.4, {@link sibyl.metrics.ExpositionWriter}), the {@link sibyl.metrics.Collector}s of
 * a scrape ({@link sibyl.metrics.MetricsRegistry}), the JVM's own figures, and the HTTP server that
 * serves them on MetricsPort ({@link sibyl.metrics.MetricsServer}).
 *
 * <p>Names follow Prometheus' conventions: a {@code sibyl_} prefix, base units (seconds, bytes) in
 * the name, counters ending in {@code _total}. Per column family metrics ({@code sibyl_cf_...}) carry
 * the labels {@code keyspace} and {@code columnfamily}.
 */
package sibyl.metrics;
