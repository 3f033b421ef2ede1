package sibyl.db;

/**
 * Builds the row version that carries a mutation's changes to one column family, checking that
 * each change fits the column family's type.
 */
final class DeltaBuilder {
    private final CFMetaData metadata;
    private final int localDeletionTime;
    private ColumnFamily row;
    private int operations;

    DeltaBuilder(CFMetaData metadata, int localDeletionTime) {
        this.metadata = metadata;
        this.localDeletionTime = localDeletionTime;
        this.row = ColumnFamily.empty(metadata);
    }

    ColumnFamily row() {
        return row;
    }

    /** Column operations added so far: the memtable's operation count. */
    int operations() {
        return operations;
    }

    void add(Change change) {
        operations++;
        if (change instanceof Change.Write w) {
            put(w.superColumn(), Column.live(w.name(), w.value(), w.timestamp()));
        } else if (change instanceof Change.DeleteColumn d) {
            put(d.superColumn(), Column.tombstone(d.name(), d.timestamp(), localDeletionTime));
        } else if (change instanceof Change.DeleteSuperColumn d) {
            if (!metadata.isSuper()) {
                throw new InvalidQueryException("supercolumn may not be specified for standard CF " + metadata.name());
            }
            row = row.withCell(SuperColumn.empty(d.name(), metadata.subcomparator())
                    .withDeletion(d.timestamp(), localDeletionTime));
        } else if (change instanceof Change.DeleteRow d) {
            row = row.withDeletion(d.timestamp(), localDeletionTime);
        } else {
            throw new IllegalArgumentException("resolve slice deletions before building a delta: " + change);
        }
    }

    private void put(byte[] superColumn, Column column) {
        if (metadata.isSuper()) {
            if (superColumn == null) {
                throw new InvalidQueryException("supercolumn parameter is not optional for super CF " + metadata.name());
            }
            row = row.withCell(SuperColumn.empty(superColumn, metadata.subcomparator()).withColumn(column));
        } else {
            if (superColumn != null) {
                throw new InvalidQueryException("supercolumn parameter is invalid for standard CF " + metadata.name());
            }
            row = row.withCell(column);
        }
    }
}
