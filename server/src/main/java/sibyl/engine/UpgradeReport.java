package sibyl.engine;

/**
 * What nodetool upgradesstables did to one column family.
 *
 * @param sstables    the Cassandra 0.6 SSTables rewritten in Sibyl's format (and then removed)
 * @param rows        rows written
 * @param rowsDropped rows that could not be read, left out (as a scrub leaves them out)
 * @param snapshot    the snapshot that keeps the 0.6 files, for a way back to 0.6; null when there were none
 */
public record UpgradeReport(String keyspace, String columnFamily, int sstables, long rows, long rowsDropped,
                            String snapshot) {
    /** An upgrade is a scrub of the column family's 0.6 SSTables (see {@link Compactor#upgrade}). */
    static UpgradeReport of(ScrubReport scrub) {
        return new UpgradeReport(scrub.keyspace(), scrub.columnFamily(), scrub.sstables(), scrub.rowsKept(),
                scrub.rowsDropped(), scrub.snapshot());
    }

    /** One line for the operator. */
    @Override
    public String toString() {
        if (sstables == 0) return keyspace + "." + columnFamily + ": no Cassandra 0.6 sstables";
        return keyspace + "." + columnFamily + ": " + sstables + " Cassandra 0.6 sstable" + (sstables == 1 ? "" : "s")
                + " rewritten in Sibyl's format, " + rows + " rows" + (rowsDropped > 0 ? " (" + rowsDropped
                + " rows could not be read and were left out)" : "") + "; snapshot " + snapshot
                + " keeps the 0.6 files";
    }
}
