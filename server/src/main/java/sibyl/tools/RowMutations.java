package sibyl.tools;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.cassandra.thrift.ColumnOrSuperColumn;
import org.apache.cassandra.thrift.Deletion;
import org.apache.cassandra.thrift.Mutation;
import org.apache.cassandra.thrift.SlicePredicate;
import sibyl.db.Cell;
import sibyl.db.Column;
import sibyl.db.ColumnFamily;
import sibyl.db.SuperColumn;

/**
 * A reconciled row as the 0.6 Thrift mutations of one column family that write it into a node: what
 * {@code batch_mutate} of every version the row was merged from would have left, without the versions it
 * shadows. Every column and tombstone keeps its own timestamp:
 * <ul>
 *   <li>the row tombstone: a {@code Deletion} with neither super column nor predicate;</li>
 *   <li>a super column tombstone: a {@code Deletion} with that super column and no predicate;</li>
 *   <li>column tombstones (subcolumn tombstones of one super column): one {@code Deletion} per timestamp, its
 *       predicate's {@code column_names} naming them (and its super column);</li>
 *   <li>live columns: one {@code ColumnOrSuperColumn} each; the live subcolumns of a super column: one
 *       {@code ColumnOrSuperColumn} with its super column.</li>
 * </ul>
 * A version at or below a tombstone over it (a column under the row tombstone, a subcolumn under its super
 * column's or the row's, a super column tombstone under the row's) is not sent: the tombstone that is sent
 * hides it just as well. Lists of names or subcolumns are cut so that no mutation carries much more than
 * {@code chunkBytes}; a node reconciles the pieces as it would the whole, since timestamps settle everything.
 *
 * <p>What a 0.6 {@code Deletion} cannot carry is a tombstone's local deletion time: the node gives each the
 * time it applies it, so GCGraceSeconds starts again for every tombstone loaded. Nor can a 0.6 Column carry a
 * ttl: an expiring column (docs/semantics.md §Expiring columns) that has expired is sent as the tombstone
 * compaction would make of it, and one that has not as a column that does not expire.
 */
record RowMutations(List<Mutation> mutations, long bytes, int columns, int rowTombstones, int superColumnTombstones,
                    int columnTombstones, int shadowed) {
    /** What a mutation costs beyond its names and values, about, in a Thrift binary message. */
    static final int MUTATION_OVERHEAD = 32;
    /** What a column costs beyond its name and value, about. */
    static final int COLUMN_OVERHEAD = 24;

    /**
     * About what {@code m} costs in a Thrift binary message: its names and values, and a little for each
     * structure around them. What {@link ThriftBatchWriter} bounds its batches by.
     */
    static long sizeOf(Mutation m) {
        long size = MUTATION_OVERHEAD;
        if (m.isSetColumn_or_supercolumn()) {
            ColumnOrSuperColumn c = m.getColumn_or_supercolumn();
            if (c.isSetColumn()) size += size(c.getColumn());
            if (c.isSetSuper_column()) {
                size += c.getSuper_column().bufferForName().remaining();
                for (org.apache.cassandra.thrift.Column sub : c.getSuper_column().getColumns()) size += size(sub);
            }
        }
        if (m.isSetDeletion()) {
            Deletion d = m.getDeletion();
            if (d.isSetSuper_column()) size += d.bufferForSuper_column().remaining();
            if (d.isSetPredicate() && d.getPredicate().isSetColumn_names()) {
                for (ByteBuffer name : d.getPredicate().getColumn_names()) size += COLUMN_OVERHEAD + name.remaining();
            }
        }
        return size;
    }

    private static long size(org.apache.cassandra.thrift.Column c) {
        return COLUMN_OVERHEAD + c.bufferForName().remaining() + c.bufferForValue().remaining();
    }

    /** Nothing to send: every version in the row is shadowed, or it has none (0.6's empty read-repair rows). */
    boolean isEmpty() {
        return mutations.isEmpty();
    }

    /** The mutations of {@code row}, a row's versions reconciled, as of now by the system clock. */
    static RowMutations of(ColumnFamily row, int chunkBytes) {
        return of(row, chunkBytes, (int) (System.currentTimeMillis() / 1000));
    }

    /** The mutations of {@code row}, a row's versions reconciled, expiring columns judged at {@code nowSeconds}. */
    static RowMutations of(ColumnFamily row, int chunkBytes, int nowSeconds) {
        Builder b = new Builder(chunkBytes, nowSeconds);
        sibyl.db.Deletion rowDeletion = row.deletion();
        if (rowDeletion.isMarkedForDelete()) {
            b.add(new Mutation().setDeletion(new Deletion().setTimestamp(rowDeletion.markedForDeleteAt())));
            b.rowTombstones++;
        }
        if (row.isSuper()) {
            for (Cell cell : row.cells()) b.superColumn((SuperColumn) cell, rowDeletion);
        } else {
            List<Column> live = new ArrayList<>();
            Map<Long, List<Column>> tombstones = new TreeMap<>();
            for (Cell cell : row.cells()) b.sort((Column) cell, rowDeletion, live, tombstones);
            for (Column c : live) {
                b.add(new Mutation().setColumn_or_supercolumn(new ColumnOrSuperColumn().setColumn(thrift(c))));
                b.columns++;
            }
            b.columnTombstones(null, tombstones);
        }
        return b.build();
    }

    private static org.apache.cassandra.thrift.Column thrift(Column c) {
        return new org.apache.cassandra.thrift.Column(ByteBuffer.wrap(c.name()), ByteBuffer.wrap(c.value()), c.timestamp());
    }

    private static int size(Column c) {
        return COLUMN_OVERHEAD + c.name().length + c.value().length;
    }

    private static final class Builder {
        final int chunkBytes;
        final List<Mutation> mutations = new ArrayList<>();
        long bytes;
        int columns;
        int rowTombstones;
        int superColumnTombstones;
        int columnTombstones;
        int shadowed;

        /** Seconds since the epoch: an expiring column expired by then is a tombstone. */
        final int nowSeconds;

        Builder(int chunkBytes, int nowSeconds) {
            this.chunkBytes = chunkBytes;
            this.nowSeconds = nowSeconds;
        }

        void add(Mutation m) {
            mutations.add(m);
            bytes += sizeOf(m);
        }

        /** Files a column (or subcolumn) under live or tombstones, unless {@code covering} shadows it. */
        void sort(Column stored, sibyl.db.Deletion covering, List<Column> live, Map<Long, List<Column>> tombstones) {
            Column c = stored.expiredToTombstone(nowSeconds);
            if (covering.shadows(c.timestamp())) {
                shadowed++;
            } else if (c.isTombstone()) {
                tombstones.computeIfAbsent(c.timestamp(), t -> new ArrayList<>()).add(c);
            } else {
                live.add(c);
            }
        }

        void superColumn(SuperColumn sc, sibyl.db.Deletion rowDeletion) {
            ByteBuffer name = ByteBuffer.wrap(sc.name());
            sibyl.db.Deletion own = sc.deletion();
            if (own.isMarkedForDelete()) {
                if (rowDeletion.shadows(own.markedForDeleteAt())) {
                    shadowed++;
                } else {
                    add(new Mutation().setDeletion(new Deletion().setTimestamp(own.markedForDeleteAt()).setSuper_column(name)));
                    superColumnTombstones++;
                }
            }
            sibyl.db.Deletion covering = sibyl.db.Deletion.reconcile(rowDeletion, own);
            List<Column> live = new ArrayList<>();
            Map<Long, List<Column>> tombstones = new TreeMap<>();
            for (Column c : sc.subcolumns()) sort(c, covering, live, tombstones);
            List<org.apache.cassandra.thrift.Column> chunk = new ArrayList<>();
            long chunkSize = 0;
            for (Column c : live) {
                chunk.add(thrift(c));
                chunkSize += size(c);
                if (chunkSize >= chunkBytes) {
                    addSubcolumns(name, chunk);
                    chunk = new ArrayList<>();
                    chunkSize = 0;
                }
            }
            if (!chunk.isEmpty()) addSubcolumns(name, chunk);
            columnTombstones(name, tombstones);
        }

        private void addSubcolumns(ByteBuffer superColumn, List<org.apache.cassandra.thrift.Column> subcolumns) {
            add(new Mutation().setColumn_or_supercolumn(new ColumnOrSuperColumn().setSuper_column(
                    new org.apache.cassandra.thrift.SuperColumn(superColumn, subcolumns))));
            columns += subcolumns.size();
        }

        /** One Deletion naming the columns of each timestamp (under {@code superColumn} unless null). */
        void columnTombstones(ByteBuffer superColumn, Map<Long, List<Column>> byTimestamp) {
            for (Map.Entry<Long, List<Column>> e : byTimestamp.entrySet()) {
                List<ByteBuffer> names = new ArrayList<>();
                long size = 0;
                for (Column c : e.getValue()) {
                    names.add(ByteBuffer.wrap(c.name()));
                    size += COLUMN_OVERHEAD + c.name().length;
                    if (size >= chunkBytes) {
                        addColumnTombstones(superColumn, e.getKey(), names);
                        names = new ArrayList<>();
                        size = 0;
                    }
                }
                if (!names.isEmpty()) addColumnTombstones(superColumn, e.getKey(), names);
            }
        }

        private void addColumnTombstones(ByteBuffer superColumn, long timestamp, List<ByteBuffer> names) {
            Deletion d = new Deletion().setTimestamp(timestamp).setPredicate(new SlicePredicate().setColumn_names(names));
            if (superColumn != null) d.setSuper_column(superColumn);
            add(new Mutation().setDeletion(d));
            columnTombstones += names.size();
        }

        RowMutations build() {
            return new RowMutations(mutations, bytes, columns, rowTombstones, superColumnTombstones, columnTombstones,
                    shadowed);
        }
    }
}
