/**
 * The node's metrics for the metrics endpoint: collectors that read what the node's parts already
 * count (the storage seam's requests, the store's SSTables, memtables, caches, flushes, compactions
 * and commit log, the front end's connections and refusals) and name them, at each scrape. Nothing
 * here is on the request path; each family says what it counts in its HELP text.
 */
package sibyl.metrics.node;
