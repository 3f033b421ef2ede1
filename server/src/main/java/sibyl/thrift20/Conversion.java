package sibyl.thrift20;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import sibyl.db.CFMetaData;
import sibyl.db.Cell;
import sibyl.db.Change;
import sibyl.db.ColumnSelection;
import sibyl.db.CompareAndSet;
import sibyl.db.QueryPath;
import sibyl.db.RowMutation;
import sibyl.db.RowSlice;
import sibyl.db.marshal.AbstractType;
import sibyl.dht.BinaryKeys;
import sibyl.iface.v20.CASResult;
import sibyl.iface.v20.Column;
import sibyl.iface.v20.ColumnOrSuperColumn;
import sibyl.iface.v20.ColumnParent;
import sibyl.iface.v20.ColumnPath;
import sibyl.iface.v20.CounterColumn;
import sibyl.iface.v20.CounterSuperColumn;
import sibyl.iface.v20.Deletion;
import sibyl.iface.v20.KeySlice;
import sibyl.iface.v20.SlicePredicate;
import sibyl.iface.v20.SliceRange;
import sibyl.iface.v20.SuperColumn;
import sibyl.thrift.ThriftConversion;

/**
 * Translates between the generated 0.7+ structs and the db layer's types, through the byte-level conversions the
 * 0.6 interface shares ({@link ThriftConversion}). Requests reaching here have been checked.
 */
final class Conversion {
    private Conversion() {
    }

    // ---- requests

    static QueryPath path(ColumnPath p) {
        return new QueryPath(p.getColumn_family(), ThriftConversion.bytes(p.super_column),
                ThriftConversion.bytes(p.column));
    }

    static QueryPath parent(ColumnParent p) {
        return new QueryPath(p.getColumn_family(), ThriftConversion.bytes(p.super_column), null);
    }

    static ColumnSelection selection(SlicePredicate p) {
        return p.isSetColumn_names() ? names(p.getColumn_names()) : range(p.getSlice_range());
    }

    private static ColumnSelection names(List<ByteBuffer> names) {
        List<byte[]> bytes = new ArrayList<>(names.size());
        for (ByteBuffer n : names) bytes.add(ThriftConversion.bytes(n));
        return ColumnSelection.names(bytes);
    }

    private static ColumnSelection.Range range(SliceRange r) {
        return ThriftConversion.range(r.start, r.finish, r.isReversed(), r.getCount());
    }

    /**
     * insert: a column of a standard table, or a subcolumn of the parent's super column. A column without a ttl
     * takes the table's default_time_to_live, as 3.11's insert gives it (docs/semantics.md §Expiring columns).
     */
    static void addInsert(RowMutation.Builder m, CFMetaData cf, ColumnParent parent, Column c) {
        addColumn(m, parent, c, c.isSetTtl() ? c.getTtl() : cf.defaultTimeToLive());
    }

    /**
     * A checked ColumnOrSuperColumn of batch_mutate: a column, or the subcolumns of a super column. A column
     * without a ttl does not expire: 3.11's batch_mutate leaves the table's default_time_to_live out.
     */
    static void addWrite(RowMutation.Builder m, String cf, ColumnOrSuperColumn cosc, long counterTimestamp) {
        if (cosc.isSetCounter_column()) {
            addIncrement(m, new ColumnParent(cf), cosc.counter_column, counterTimestamp);
            return;
        }
        if (cosc.isSetCounter_super_column()) {
            ColumnParent parent = new ColumnParent(cf).setSuper_column(cosc.counter_super_column.name);
            for (CounterColumn c : cosc.counter_super_column.getColumns()) addIncrement(m, parent, c, counterTimestamp);
            return;
        }
        if (cosc.isSetColumn()) {
            addColumn(m, new ColumnParent(cf), cosc.column, cosc.column.getTtl());
            return;
        }
        ColumnParent parent = new ColumnParent(cf).setSuper_column(cosc.super_column.name);
        for (Column c : cosc.super_column.getColumns()) addColumn(m, parent, c, c.getTtl());
    }

    /** add, or a counter of batch_mutate: an increment by the counter's value, taken at the server's {@code timestamp}. */
    static void addIncrement(RowMutation.Builder m, ColumnParent parent, CounterColumn c, long timestamp) {
        m.add(parent.getColumn_family(), new Change.Increment(ThriftConversion.bytes(parent.super_column),
                ThriftConversion.bytes(c.name), c.value, timestamp));
    }

    /** A column written with {@code ttl} seconds to live, 0 for ever. */
    private static void addColumn(RowMutation.Builder m, ColumnParent parent, Column c, int ttl) {
        byte[] superColumn = ThriftConversion.bytes(parent.super_column);
        byte[] name = ThriftConversion.bytes(c.name);
        byte[] value = ThriftConversion.bytes(c.value);
        String cf = parent.getColumn_family();
        if (superColumn == null) m.write(cf, name, value, c.timestamp, ttl);
        else m.write(cf, superColumn, name, value, c.timestamp, ttl);
    }

    /**
     * A checked Deletion as 3.11 applies it: its names when it has any (a slice range beside them is not used), else
     * its slice range from start to finish whatever the range's reversed flag says, so that a reversed range, whose
     * start sorts after its finish, deletes nothing unless both are one name or one is open
     * (docs/thrift-api-0.7.md §What Sibyl serves today).
     */
    static void addDeletion(RowMutation.Builder m, CFMetaData cf, Deletion d, long counterTimestamp) {
        SlicePredicate p = d.getPredicate();
        ColumnSelection.Range range = null;
        if (p != null && !p.isSetColumn_names() && p.isSetSlice_range()) {
            SliceRange r = p.getSlice_range();
            AbstractType order = d.super_column != null ? cf.subcomparator() : cf.comparator();
            SliceRange forward = new SliceRange(r.start, r.finish, false, r.getCount());
            if (!RequestChecks.backwards(order, forward)) range = range(forward);
        }
        // A counter table's deletion is taken at the server's clock, as 3.11 takes it, whatever timestamp it has.
        long timestamp = cf.isCounter() ? counterTimestamp : d.getTimestamp();
        ThriftConversion.addDeletion(m, cf, timestamp, ThriftConversion.bytes(d.super_column), p != null,
                p == null ? null : p.getColumn_names(), range);
    }

    static void addRemoval(RowMutation.Builder m, ColumnPath p, long timestamp) {
        ThriftConversion.addRemoval(m, p.getColumn_family(), ThriftConversion.bytes(p.super_column),
                ThriftConversion.bytes(p.column), timestamp);
    }

    // ---- results: the db layer's arrays are wrapped, not copied (they never change, and a reply is only written)

    static ColumnOrSuperColumn cosc(Cell cell) {
        return cosc(cell, false);
    }

    /** A cell; a super column's subcolumns in descending order when {@code descending}. */
    private static ColumnOrSuperColumn cosc(Cell cell, boolean descending) {
        if (isCounter(cell)) return counterCosc(cell, descending);
        if (cell instanceof sibyl.db.SuperColumn sc) {
            List<Column> subcolumns = new ArrayList<>(sc.subcolumnCount());
            for (sibyl.db.Column c : sc.subcolumns()) subcolumns.add(column(c));
            if (descending) Collections.reverse(subcolumns);
            SuperColumn out = new SuperColumn();
            out.name = ByteBuffer.wrap(sc.name());
            out.columns = subcolumns;
            return new ColumnOrSuperColumn().setSuper_column(out);
        }
        return new ColumnOrSuperColumn().setColumn(column((sibyl.db.Column) cell));
    }

    /** Whether a read's cell (live, so never a tombstone) is a counter or a super column of counters. */
    private static boolean isCounter(Cell cell) {
        if (cell instanceof sibyl.db.Column c) return c.isCounter();
        Iterator<sibyl.db.Column> subcolumns = ((sibyl.db.SuperColumn) cell).subcolumns().iterator();
        return subcolumns.hasNext() && subcolumns.next().isCounter();
    }

    /** A counter as counter_column, a super column of counters as counter_super_column, as 3.11 answers them. */
    private static ColumnOrSuperColumn counterCosc(Cell cell, boolean descending) {
        if (cell instanceof sibyl.db.Column c) return new ColumnOrSuperColumn().setCounter_column(counter(c));
        sibyl.db.SuperColumn sc = (sibyl.db.SuperColumn) cell;
        List<CounterColumn> subcolumns = new ArrayList<>(sc.subcolumnCount());
        for (sibyl.db.Column c : sc.subcolumns()) subcolumns.add(counter(c));
        if (descending) Collections.reverse(subcolumns);
        return new ColumnOrSuperColumn().setCounter_super_column(new CounterSuperColumn(ByteBuffer.wrap(sc.name()), subcolumns));
    }

    private static CounterColumn counter(sibyl.db.Column c) {
        return new CounterColumn(ByteBuffer.wrap(c.name()), c.count());
    }

    /**
     * A slice's cells as {@code predicate} read them. A reversed slice range of a super table's super columns
     * gives each one's subcolumns in descending order too, as 3.11 does (docs/thrift-api-0.7.md §What Sibyl serves
     * today).
     */
    static List<ColumnOrSuperColumn> coscs(List<Cell> cells, SlicePredicate predicate) {
        boolean descending = predicate.isSetSlice_range() && predicate.getSlice_range().isReversed();
        return ThriftConversion.each(cells, c -> cosc(c, descending));
    }

    /** Each row with its key as the client's bytes. */
    static List<KeySlice> keySlices(List<RowSlice> rows, SlicePredicate predicate) {
        return ThriftConversion.each(rows, r -> {
            KeySlice slice = new KeySlice();
            slice.key = BinaryKeys.encodeBuffer(r.key());
            slice.columns = coscs(r.cells(), predicate);
            return slice;
        });
    }

    /**
     * A checked cas as the store takes it: absent lists are empty, an update without a ttl does not expire (3.11's
     * cas leaves the table's default_time_to_live out, as its batch_mutate does).
     */
    static CompareAndSet compareAndSet(CFMetaData cf, String key, List<Column> expected, List<Column> updates,
                                       int nowSeconds) {
        List<CompareAndSet.Expected> conditions = new ArrayList<>();
        if (expected != null) {
            for (Column c : expected) {
                conditions.add(new CompareAndSet.Expected(ThriftConversion.bytes(c.name),
                        c.value == null ? null : ThriftConversion.bytes(c.value), c.timestamp));
            }
        }
        List<sibyl.db.Column> writes = new ArrayList<>();
        if (updates != null) {
            for (Column c : updates) {
                byte[] name = ThriftConversion.bytes(c.name);
                byte[] value = ThriftConversion.bytes(c.value);
                writes.add(c.getTtl() > 0 ? sibyl.db.Column.expiring(name, value, c.timestamp, c.getTtl(),
                        nowSeconds + c.getTtl()) : sibyl.db.Column.live(name, value, c.timestamp));
            }
        }
        return CompareAndSet.of(cf, key, conditions, writes, nowSeconds);
    }

    /** A cas's outcome: success alone, or failure with the current columns the condition read. */
    static CASResult casResult(CompareAndSet.Outcome outcome) {
        if (outcome.applied()) return new CASResult(true);
        List<Column> current = new ArrayList<>(outcome.current().size());
        for (sibyl.db.Column c : outcome.current()) current.add(column(c));
        return new CASResult(false).setCurrent_values(current);
    }

    private static Column column(sibyl.db.Column c) {
        Column out = new Column();
        out.name = ByteBuffer.wrap(c.name());
        out.value = ByteBuffer.wrap(c.value());
        if (c.isExpiring()) out.setTtl(c.ttl()); // what it was written with, as 3.11 answers, not what is left
        return out.setTimestamp(c.timestamp());
    }
}
