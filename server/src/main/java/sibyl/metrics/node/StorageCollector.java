package sibyl.metrics.node;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;
import sibyl.commitlog.CommitLog;
import sibyl.engine.ColumnFamilyStore;
import sibyl.engine.Keyspace;
import sibyl.engine.LocalStorageService;
import sibyl.engine.StorageEngine;
import sibyl.metrics.Collector;
import sibyl.metrics.ExpositionWriter;

/**
 * The embedded store: per column family its SSTables, memtable and caches; over the node the
 * flushes and compactions waiting and the commit log. Everything is read from the store's own
 * figures (the same cfstats shows), in memory and without a lock a request waits on for long.
 */
final class StorageCollector implements Collector {
    private final LocalStorageService storage;
    private final Optional<CommitLog> commitLog;

    /** @param commitLog the store's commit log; empty for a memory-only store */
    StorageCollector(LocalStorageService storage, Optional<CommitLog> commitLog) {
        this.storage = storage;
        this.commitLog = commitLog;
    }

    private record Store(String keyspace, ColumnFamilyStore store) {
        String[] labels() {
            return new String[] {"keyspace", keyspace, "columnfamily", store.metadata().name()};
        }
    }

    @Override
    public void collect(ExpositionWriter out) {
        List<Store> stores = new ArrayList<>();
        for (Keyspace ks : storage.openKeyspaces()) {
            for (ColumnFamilyStore store : ks.stores()) stores.add(new Store(ks.name(), store));
        }
        gauge(out, stores, "sibyl_cf_live_sstables", "SSTables reads consult now.", s -> s.liveSSTables().size());
        gauge(out, stores, "sibyl_cf_live_sstable_bytes", "Bytes of the live SSTables' data and index files.",
                ColumnFamilyStore::liveDiskSpaceUsed);
        gauge(out, stores, "sibyl_cf_memtable_bytes", "Serialized bytes written into the current memtable.",
                s -> s.memtable().throughputBytes());
        gauge(out, stores, "sibyl_cf_memtable_columns", "Column operations in the current memtable.",
                s -> s.memtable().operationCount());
        gauge(out, stores, "sibyl_cf_pending_flushes", "Memtables switched out and not yet written to an SSTable.",
                s -> s.pendingFlushes().size());
        counter(out, stores, "sibyl_cf_memtable_switches_total", "Memtables switched out for flushing since start.",
                ColumnFamilyStore::memtableSwitchCount);

        counter(out, stores, "sibyl_cf_key_cache_requests_total",
                "Key cache lookups (KeysCached) since start, by SSTables whose bloom filter let the key through.",
                s -> s.keyCache().requests());
        counter(out, stores, "sibyl_cf_key_cache_hits_total", "Key cache lookups that found the key.",
                s -> s.keyCache().hits());
        ratio(out, stores, "sibyl_cf_key_cache_hit_ratio", "Key cache hits as a fraction of lookups since start;"
                + " NaN before any.", s -> s.keyCache().hitRate());
        gauge(out, stores, "sibyl_cf_key_cache_entries", "Keys in the key cache.", s -> s.keyCache().size());
        gauge(out, stores, "sibyl_cf_key_cache_capacity", "Keys the key cache holds at most; 0 when it is off.",
                s -> s.keyCache().capacity());
        counter(out, stores, "sibyl_cf_row_cache_requests_total", "Row cache lookups (RowsCached) since start.",
                s -> s.rowCache().requests());
        counter(out, stores, "sibyl_cf_row_cache_hits_total", "Row cache lookups that found the row.",
                s -> s.rowCache().hits());
        ratio(out, stores, "sibyl_cf_row_cache_hit_ratio", "Row cache hits as a fraction of lookups since start;"
                + " NaN before any.", s -> s.rowCache().hitRate());
        gauge(out, stores, "sibyl_cf_row_cache_entries", "Rows in the row cache.", s -> s.rowCache().size());
        gauge(out, stores, "sibyl_cf_row_cache_capacity", "Rows the row cache holds at most; 0 when it is off.",
                s -> s.rowCache().capacity());

        storage.engine().ifPresent(engine -> engine(out, engine));
        commitLog.ifPresent(log -> commitLog(out, log));
    }

    private static void engine(ExpositionWriter out, StorageEngine engine) {
        out.gauge("sibyl_pending_flushes", "Memtables waiting to be written or being written, over the node.")
                .sample(engine.pendingFlushes());
        out.gauge("sibyl_pending_compactions", "Compactions queued or running.").sample(engine.pendingCompactions());
        out.counter("sibyl_compactions_total", "Compactions completed since start.")
                .sample(engine.compactionsCompleted());
        out.counter("sibyl_compaction_failures_total", "Compactions that failed since start.")
                .sample(engine.compactionFailures());
        out.counter("sibyl_flush_failures_total", "Memtable flushes that failed since start (each is retried).")
                .sample(engine.flushFailures());
    }

    private static void commitLog(ExpositionWriter out, CommitLog log) {
        out.counter("sibyl_commitlog_written_bytes_total", "Bytes of entries written to the commit log since start.")
                .sample(log.bytesWritten());
        out.counter("sibyl_commitlog_entries_total", "Entries written to the commit log since start.")
                .sample(log.entryCount());
        out.gauge("sibyl_commitlog_disk_bytes", "Bytes of the commit log segment files kept now.")
                .sample(log.diskBytes());
        out.counter("sibyl_commitlog_syncs_total", "fsyncs of the commit log since start.").sample(log.syncCount());
        out.counter("sibyl_commitlog_sync_seconds_total", "Time spent in fsyncs of the commit log since start.")
                .sample(log.syncNanos() / 1e9);
    }

    private static void gauge(ExpositionWriter out, List<Store> stores, String name, String help,
                              ToLongFunction<ColumnFamilyStore> value) {
        ExpositionWriter.Family family = out.gauge(name, help);
        for (Store s : stores) family.sample(value.applyAsLong(s.store()), s.labels());
    }

    private static void counter(ExpositionWriter out, List<Store> stores, String name, String help,
                                ToLongFunction<ColumnFamilyStore> value) {
        ExpositionWriter.Family family = out.counter(name, help);
        for (Store s : stores) family.sample(value.applyAsLong(s.store()), s.labels());
    }

    private static void ratio(ExpositionWriter out, List<Store> stores, String name, String help,
                              ToDoubleFunction<ColumnFamilyStore> value) {
        ExpositionWriter.Family family = out.gauge(name, help);
        for (Store s : stores) family.sample(value.applyAsDouble(s.store()), s.labels());
    }
}
