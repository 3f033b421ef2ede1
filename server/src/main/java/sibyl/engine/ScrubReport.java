package sibyl.engine;

/**
 * What a scrub of one column family did.
 *
 * @param sstables    SSTables rewritten
 * @param rowsKept    rows whose checksums held, written again
 * @param rowsDropped rows that could not be read, left out
 * @param snapshot    the snapshot holding the SSTables as they were before; empty when there were none
 */
public record ScrubReport(String keyspace, String columnFamily, int sstables, long rowsKept, long rowsDropped,
                          String snapshot) {
    /** One line for the operator. */
    @Override
    public String toString() {
        if (sstables == 0) return keyspace + "." + columnFamily + ": no sstables to scrub";
        return keyspace + "." + columnFamily + ": " + rowsKept + " rows kept, " + rowsDropped + " rows dropped, "
                + sstables + " sstables rewritten; the originals are in snapshot " + snapshot;
    }
}
