package sibyl.thrift;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.apache.cassandra.thrift.Column;
import org.apache.cassandra.thrift.ColumnOrSuperColumn;
import org.apache.cassandra.thrift.ColumnParent;
import org.apache.cassandra.thrift.ColumnPath;
import org.apache.cassandra.thrift.Deletion;
import org.apache.cassandra.thrift.KeyRange;
import org.apache.cassandra.thrift.KeySlice;
import org.apache.cassandra.thrift.SlicePredicate;
import org.apache.cassandra.thrift.SliceRange;
import org.apache.cassandra.thrift.SuperColumn;
import sibyl.db.CFMetaData;
import sibyl.db.Cell;
import sibyl.db.ColumnSelection;
import sibyl.db.QueryPath;
import sibyl.db.RowMutation;
import sibyl.db.RowRange;
import sibyl.db.RowSlice;
import sibyl.dht.Partitioner;

/**
 * Translates between the generated 0.6 structs and the db layer's types. Requests reaching
 * here have been validated, so shapes are known to fit their column family.
 */
public final class ThriftConversion {
    private ThriftConversion() {
    }

    // ---- requests

    static QueryPath path(ColumnPath p) {
        return new QueryPath(p.getColumn_family(), bytes(p.super_column), bytes(p.column));
    }

    static QueryPath parent(ColumnParent p) {
        return new QueryPath(p.getColumn_family(), bytes(p.super_column), null);
    }

    static ColumnSelection selection(SlicePredicate p) {
        if (p.isSetColumn_names()) return ColumnSelection.names(p.getColumn_names().stream().map(ThriftConversion::bytes).toList());
        return range(p.getSlice_range());
    }

    static ColumnSelection.Range range(SliceRange r) {
        return range(r.start, r.finish, r.isReversed(), r.getCount());
    }

    /** A SliceRange of any dialect, from its parts. */
    public static ColumnSelection.Range range(ByteBuffer start, ByteBuffer finish, boolean reversed, int count) {
        return ColumnSelection.range(bytes(start), bytes(finish), reversed, count);
    }

    static RowRange rowRange(KeyRange r, Partitioner partitioner) {
        if (r.isSetStart_key()) return RowRange.keys(r.getStart_key(), r.getEnd_key());
        return RowRange.tokens(partitioner.fromString(r.getStart_token()), partitioner.fromString(r.getEnd_token()));
    }

    /**
     * Adds a ColumnOrSuperColumn write (batch_insert, batch_mutate) to {@code m}. The names and
     * values are copied once each out of the request, from the structs' fields: the generated
     * getters would copy them twice, wrapping each copy. A super column's name is copied once
     * for all its subcolumns; the db layer never changes an array it was given.
     */
    static void addWrite(RowMutation.Builder m, String cf, ColumnOrSuperColumn cosc) {
        if (cosc.isSetColumn()) {
            Column c = cosc.column;
            m.write(cf, bytes(c.name), bytes(c.value), c.timestamp);
        } else {
            SuperColumn sc = cosc.super_column;
            byte[] name = bytes(sc.name);
            for (Column c : sc.getColumns()) {
                m.write(cf, name, bytes(c.name), bytes(c.value), c.timestamp);
            }
        }
    }

    /**
     * Adds a batch_mutate Deletion to {@code m}, with 0.6.3+ meaning: names under a super CF
     * without super_column are super column names; no predicate deletes the super column or the
     * whole row. A slice_range predicate is Sibyl's extension: it deletes the live columns
     * the range selects.
     */
    static void addDeletion(RowMutation.Builder m, CFMetaData cf, Deletion d) {
        SlicePredicate p = d.getPredicate();
        addDeletion(m, cf, d.getTimestamp(), bytes(d.super_column), p != null,
                p == null ? null : p.getColumn_names(),
                p == null || !p.isSetSlice_range() ? null : range(p.getSlice_range()));
    }

    /**
     * A Deletion of any dialect, from its parts: without a predicate, the super column or the whole row; else the
     * names (null for none: super column names under a super CF without {@code sc}) and the columns of the range
     * (null for none).
     */
    public static void addDeletion(RowMutation.Builder m, CFMetaData cf, long ts, byte[] sc, boolean predicate,
                                   List<ByteBuffer> names, ColumnSelection.Range range) {
        String name = cf.name();
        if (!predicate) {
            if (sc != null) m.deleteSuperColumn(name, sc, ts);
            else m.deleteRow(name, ts);
            return;
        }
        if (names != null) {
            for (ByteBuffer n : names) {
                byte[] column = bytes(n);
                if (sc != null) m.deleteSubcolumn(name, sc, column, ts);
                else if (cf.isSuper()) m.deleteSuperColumn(name, column, ts);
                else m.deleteColumn(name, column, ts);
            }
        }
        if (range != null) m.deleteSlice(name, sc, range, ts);
    }

    /** insert: a column of a standard CF, or a subcolumn when the path names a super column. */
    static void addInsert(RowMutation.Builder m, ColumnPath p, byte[] value, long ts) {
        byte[] sc = bytes(p.super_column);
        if (sc == null) m.write(p.getColumn_family(), bytes(p.column), value, ts);
        else m.write(p.getColumn_family(), sc, bytes(p.column), value, ts);
    }

    /** remove: row, super column, column or subcolumn tombstone, by how deep the path goes. */
    static void addRemoval(RowMutation.Builder m, ColumnPath p, long ts) {
        addRemoval(m, p.getColumn_family(), bytes(p.super_column), bytes(p.column), ts);
    }

    /** remove of any dialect, from the parts of its path (null for those not given). */
    public static void addRemoval(RowMutation.Builder m, String cf, byte[] sc, byte[] column, long ts) {
        if (column != null) {
            if (sc != null) m.deleteSubcolumn(cf, sc, column, ts);
            else m.deleteColumn(cf, column, ts);
        } else if (sc != null) {
            m.deleteSuperColumn(cf, sc, ts);
        } else {
            m.deleteRow(cf, ts);
        }
    }

    // ---- results

    static ColumnOrSuperColumn cosc(Cell cell) {
        ColumnOrSuperColumn out = new ColumnOrSuperColumn();
        if (cell instanceof sibyl.db.Column c) {
            out.setColumn(column(c));
        } else {
            sibyl.db.SuperColumn sc = (sibyl.db.SuperColumn) cell;
            List<Column> columns = new ArrayList<>(sc.subcolumnCount());
            for (sibyl.db.Column c : sc.subcolumns()) columns.add(column(c));
            SuperColumn reply = new SuperColumn();
            reply.name = ByteBuffer.wrap(sc.name());
            reply.columns = columns;
            out.setSuper_column(reply);
        }
        return out;
    }

    static List<ColumnOrSuperColumn> coscs(List<Cell> cells) {
        return each(cells, ThriftConversion::cosc);
    }

    static List<KeySlice> keySlices(List<RowSlice> rows) {
        return each(rows, r -> new KeySlice(r.key(), coscs(r.cells())));
    }

    /** A reply's list: {@code convert} of each of {@code items}, in order. */
    public static <A, B> List<B> each(List<A> items, Function<A, B> convert) {
        List<B> out = new ArrayList<>(items.size());
        for (A item : items) out.add(convert.apply(item));
        return out;
    }

    /**
     * A reply's column over the db layer's arrays, which never change: the generated constructors (of
     * SuperColumn too) copy every name and value they are given, which a reply, only ever written out,
     * does not need.
     */
    private static Column column(sibyl.db.Column c) {
        Column out = new Column();
        out.name = ByteBuffer.wrap(c.name());
        out.value = ByteBuffer.wrap(c.value());
        return out.setTimestamp(c.timestamp());
    }

    /**
     * The remaining bytes of {@code b} in an array of their own; {@code b} is not changed. Null for null.
     * Requests' binary fields are read through this rather than the generated getters, which copy twice
     * and wrap each copy.
     */
    public static byte[] bytes(ByteBuffer b) {
        if (b == null) return null;
        byte[] out = new byte[b.remaining()];
        b.get(b.position(), out);
        return out;
    }
}
