package sibyl.io;

/** The files one SSTable is made of; each name ends {@code -<suffix>}. */
public enum Component {
    /** Rows in ring order: key, row tombstone, column index and checksummed blocks of cells. */
    DATA("Data.db"),
    /** Every key with the position and length of its row in the data file. */
    INDEX("Index.db"),
    /** A bloom filter of the keys. */
    FILTER("Filter.db"),
    /**
     * Every IndexInterval-th key with its index entry's position, so opening need not read the
     * index. Optional: SSTables written without one (or with a damaged one) are opened by a scan.
     */
    SUMMARY("Summary.db"),
    /**
     * Row count, key range, timestamps, commit log position and format version. Renamed into
     * place last, so its presence under the final name marks a complete SSTable.
     */
    STATISTICS("Statistics.db");

    private final String suffix;

    Component(String suffix) {
        this.suffix = suffix;
    }

    public String suffix() {
        return suffix;
    }

    /** The component a file name suffix stands for, or null. */
    static Component ofSuffix(String suffix) {
        for (Component c : values()) {
            if (c.suffix.equals(suffix)) return c;
        }
        return null;
    }
}
