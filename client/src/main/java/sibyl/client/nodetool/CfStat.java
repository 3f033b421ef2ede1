package sibyl.client.nodetool;

import java.util.List;

/**
 * A line of cfstats: label and the column family bean attribute it shows. Lines whose
 * attribute the node does not offer are left out, so nodetool works with servers that
 * report less.
 */
record CfStat(String label, String attribute) {
    static final List<CfStat> ALL = List.of(
            new CfStat("SSTable count", "LiveSSTableCount"),
            new CfStat("Space used (live)", "LiveDiskSpaceUsed"),
            new CfStat("Space used (total)", "TotalDiskSpaceUsed"),
            new CfStat("Memtable Columns Count", "MemtableColumnsCount"),
            new CfStat("Memtable Data Size", "MemtableDataSize"),
            new CfStat("Memtable Switch Count", "MemtableSwitchCount"),
            new CfStat("Pending Tasks", "PendingTasks"),
            new CfStat("Key cache capacity", "KeyCacheCapacity"),
            new CfStat("Key cache size", "KeyCacheSize"),
            new CfStat("Key cache hit rate", "KeyCacheHitRate"),
            new CfStat("Row cache capacity", "RowCacheCapacity"),
            new CfStat("Row cache size", "RowCacheSize"),
            new CfStat("Row cache hit rate", "RowCacheHitRate"),
            new CfStat("Bloom filter false positives", "BloomFilterFalsePositives"),
            new CfStat("Bloom filter false ratio", "BloomFilterFalseRatio"),
            new CfStat("Compacted row minimum size", "MinRowCompactedSize"),
            new CfStat("Compacted row maximum size", "MaxRowCompactedSize"),
            new CfStat("Compacted row mean size", "MeanRowCompactedSize"));

    String format(Object value) {
        if (value instanceof Double d) return d.isNaN() ? "NaN" : String.format(java.util.Locale.ROOT, "%.3f", d);
        return String.valueOf(value);
    }
}
