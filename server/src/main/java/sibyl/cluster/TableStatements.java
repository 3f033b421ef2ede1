package sibyl.cluster;

import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Every CQL statement Sibyl sends to one table, its text built once when the table is known and
 * prepared the first time a call needs it. A call picks its statement by the shape of its request
 * (a name or several, which bounds, which order) instead of assembling text and looking it up.
 *
 * <p>Reads of names come in two forms, {@code = ?} for one name (a get) and {@code IN ?} for
 * several; reads of a range in eight: with or without a lower and an upper bound, in either order.
 * Reversed, the request's start is the upper bound, as 0.6 had it.
 */
final class TableStatements {
    /** One statement: its text, and the prepared statement once a call has needed it. */
    static final class Slot {
        private final String cql;
        private volatile PreparedStatement prepared;

        Slot(String cql) {
            this.cql = cql;
        }

        String cql() {
            return cql;
        }

        /** Prepares at most once per node of Sibyl: {@link Statements} shares preparations between slots. */
        PreparedStatement prepared(Statements statements) {
            PreparedStatement p = prepared;
            if (p == null) {
                p = statements.errors().call(() -> statements.get(cql));
                prepared = p;
            }
            return p;
        }

        /** Prepares without waiting (see {@link Statements#getAsync}). */
        CompletableFuture<Void> prepareAsync(Statements statements) {
            if (prepared != null) return CompletableFuture.completedFuture(null);
            return statements.getAsync(cql).thenAccept(p -> prepared = p);
        }

        @Override
        public String toString() {
            return cql;
        }
    }

    private static final int ONE_NAME = 0;
    private static final int NAMES = 1;
    private static final int RANGES = 2;
    private static final int READ_FORMS = RANGES + 8;

    /** A write of a plain table; a counter table's increment ({@code value = value + ?}). */
    private final Slot update;
    private final boolean counter;
    private final Slot deleteRow;
    /** A standard table's column, or a super table's whole super column (its column1 rows). */
    private final Slot deleteColumn;
    /** A super table's subcolumn; null for a standard table. */
    private final Slot deleteSubcolumn;
    /** Reads of a standard table's columns, or of one super column's subcolumns in a super table. */
    private final Slot[] columnReads = new Slot[READ_FORMS];
    /** Reads of whole super columns; null for a standard table. */
    private final Slot[] superColumnReads;
    private final Slot countColumns;
    private final Slot countSuperColumns;
    /**
     * cas's statements on a standard table (null for a super one), without USING TIMESTAMP, which the cluster
     * refuses in a conditional batch: it writes at the Paxos ballot's time. A column written, one written if its
     * value is one given, one written if it has none.
     */
    private final Slot casWrite;
    private final Slot casWriteIfValue;
    private final Slot casWriteIfAbsent;
    /** By lower bound (none, key, token) and upper bound (none, key, token). */
    private final Slot[] rangeKeys = new Slot[9];
    private volatile boolean rowCallsPrepared;

    /**
     * Reads of a {@link ClusteringNames} table's columns, up to the WHERE clause's restrictions of the names; null
     * for other tables. Its bounded ranges are built per call ({@link #clusteredRange}).
     */
    private final String clusteredSelect;
    private final ClusteringNames names;
    private final StaticColumns statics;

    /**
     * @param names   as {@link Table#names()}: null unless a standard table's names are not one ascending column
     * @param counter whether the table's value is a counter: increments, and writes and deletions at the cluster's
     *                clock, which refuses a timestamp (or a TTL, or writetime()) of a counter
     * @param statics as {@link Table#statics()}: null unless the table has static columns
     */
    TableStatements(String table, boolean isSuper, ClusteringNames names, boolean counter, StaticColumns statics) {
        this.names = names;
        this.counter = counter;
        this.statics = statics;
        String cell = isSuper ? " AND column1 = ? AND column2 = ?" : names != null ? names.equalities()
                : " AND column1 = ?";
        // TTL 0 is a cell that does not expire (Sibyl's tables have no default_time_to_live: Sibyl applies its own).
        update = new Slot(counter ? "UPDATE " + table + " SET value = value + ? WHERE key = ?" + cell
                : "UPDATE " + table + " USING TIMESTAMP ? AND TTL ? SET value = ? WHERE key = ?" + cell);
        String delete = "DELETE FROM " + table + (counter ? "" : " USING TIMESTAMP ?") + " WHERE key = ?";
        // A counter's own deletion is a tombstone of its cell, which the cluster lets no later increment pass: a
        // counter removed stays removed, as in 3.11 (docs/differences.md §The 0.7+ dialect). A row's or super
        // column's is a deletion of rows, as in a plain table.
        String deleteCell = counter ? "DELETE value FROM " + table + " WHERE key = ?" + cell : delete + cell;
        deleteRow = new Slot(delete);
        deleteColumn = new Slot(isSuper ? delete + " AND column1 = ?" : deleteCell);
        deleteSubcolumn = isSuper ? new Slot(deleteCell) : null;

        String casUpdate = "UPDATE " + table + " USING TTL ? SET value = ? WHERE key = ?" + cell;
        casWrite = isSuper ? null : new Slot(casUpdate);
        casWriteIfValue = isSuper ? null : new Slot(casUpdate + " IF value = ?");
        casWriteIfAbsent = isSuper ? null : new Slot(casUpdate + " IF value = null");

        String name = isSuper ? "column2" : "column1";
        String value = counter ? "value" : "value, writetime(value), ttl(value)";
        String columns = "SELECT " + name + ", " + value + " FROM " + table + " WHERE key = ?"
                + (isSuper ? " AND column1 = ?" : "");
        if (names == null) {
            clusteredSelect = null;
            readForms(columnReads, columns, name, isSuper ? "column1 %1$s, column2 %1$s" : "column1 %s", true);
        } else {
            clusteredSelect = "SELECT " + names.selected() + ", " + value + " FROM " + table
                    + " WHERE key = ?";
            columnReads[ONE_NAME] = new Slot(clusteredSelect + names.equalities());
            columnReads[NAMES] = new Slot(clusteredSelect + names.in());
            for (boolean reversed : new boolean[] {false, true}) {
                columnReads[rangeForm(false, false, reversed)] = new Slot(clusteredSelect + " ORDER BY "
                        + names.order(reversed) + " LIMIT ?");
            }
        }
        if (isSuper) {
            superColumnReads = new Slot[READ_FORMS];
            readForms(superColumnReads, "SELECT column1, column2, " + value + " FROM " + table
                    + " WHERE key = ?", "column1", "column1 %1$s, column2 %1$s", false);
            countColumns = new Slot("SELECT COUNT(*) FROM " + table + " WHERE key = ? AND column1 = ?");
            countSuperColumns = new Slot("SELECT column1 FROM " + table + " WHERE key = ? GROUP BY column1");
        } else {
            superColumnReads = null;
            countColumns = new Slot("SELECT COUNT(*) FROM " + table + " WHERE key = ?");
            countSuperColumns = null;
        }

        String[] lower = {"", "token(key) >= token(?)", "token(key) > ?"};
        String[] upper = {"", "token(key) <= token(?)", "token(key) <= ?"};
        for (int l = 0; l < 3; l++) {
            for (int u = 0; u < 3; u++) {
                StringBuilder cql = new StringBuilder("SELECT DISTINCT key FROM ").append(table);
                if (l > 0) cql.append(" WHERE ").append(lower[l]);
                if (u > 0) cql.append(l > 0 ? " AND " : " WHERE ").append(upper[u]);
                rangeKeys[l * 3 + u] = new Slot(cql.append(" LIMIT ?").toString());
            }
        }
    }

    /**
     * The forms of a read: {@code name = ?}, {@code name IN ?}, and the eight ranges, ordered by
     * {@code order} (a format of the direction) and, when {@code limited}, with a {@code LIMIT ?}.
     */
    private static void readForms(Slot[] into, String select, String name, String order, boolean limited) {
        into[ONE_NAME] = new Slot(select + " AND " + name + " = ?");
        into[NAMES] = new Slot(select + " AND " + name + " IN ?");
        for (int form = 0; form < 8; form++) {
            boolean lower = (form & 1) != 0;
            boolean upper = (form & 2) != 0;
            boolean reversed = (form & 4) != 0;
            StringBuilder cql = new StringBuilder(select);
            if (lower) cql.append(" AND ").append(name).append(" >= ?");
            if (upper) cql.append(" AND ").append(name).append(" <= ?");
            cql.append(" ORDER BY ").append(String.format(order, reversed ? "DESC" : "ASC"));
            if (limited) cql.append(" LIMIT ?");
            into[RANGES + form] = new Slot(cql.toString());
        }
    }

    private static int rangeForm(boolean lower, boolean upper, boolean reversed) {
        return RANGES + (lower ? 1 : 0) + (upper ? 2 : 0) + (reversed ? 4 : 0);
    }

    /**
     * Whether every statement of the calls of one row (writes, slices, gets) is prepared, so that such a call can
     * be started and answered on threads that must not wait: after {@link #prepareRowCalls} has completed.
     */
    boolean rowCallsPrepared() {
        return rowCallsPrepared;
    }

    /**
     * Prepares the statements of the calls of one row without waiting, all at once: the first such call to a
     * table waits for one round trip of preparations instead of one per statement it meets. A failure (the cluster
     * unreachable) fails the future, and the next call tries again.
     */
    CompletableFuture<Void> prepareRowCalls(Statements statements) {
        List<Slot> slots = new ArrayList<>();
        slots.add(update);
        slots.add(deleteRow);
        slots.add(deleteColumn);
        if (deleteSubcolumn != null) slots.add(deleteSubcolumn);
        for (Slot read : columnReads) {
            if (read != null) slots.add(read); // a ClusteringNames table's bounded ranges are built per call
        }
        if (superColumnReads != null) slots.addAll(Arrays.asList(superColumnReads));
        if (statics != null) slots.addAll(statics.slots());
        return CompletableFuture.allOf(slots.stream().map(s -> s.prepareAsync(statements))
                .toArray(CompletableFuture[]::new)).thenRun(() -> rowCallsPrepared = true);
    }

    /** Binds timestamp, ttl, value, key, then the cell's columns; a counter table's binds delta, key, columns. */
    Slot update() {
        return update;
    }

    /**
     * Whether the table holds counters: its deletions bind no timestamp, its reads answer the value alone, and its
     * writes are increments, which must never be sent twice (docs/thrift-api-0.7.md §Counters).
     */
    boolean counter() {
        return counter;
    }

    /** cas's statements of a standard table, prepared without waiting; see {@link #casWrite()}. */
    CompletableFuture<Void> prepareCas(Statements statements) {
        return CompletableFuture.allOf(casWrite.prepareAsync(statements), casWriteIfValue.prepareAsync(statements),
                casWriteIfAbsent.prepareAsync(statements));
    }

    /** Binds ttl, value, key, column1: a column written by a cas that applies. */
    Slot casWrite() {
        return casWrite;
    }

    /** As {@link #casWrite()}, then the value the column must have. */
    Slot casWriteIfValue() {
        return casWriteIfValue;
    }

    /** As {@link #casWrite()}, if the column has no value. */
    Slot casWriteIfAbsent() {
        return casWriteIfAbsent;
    }

    Slot deleteRow() {
        return deleteRow;
    }

    Slot deleteColumn() {
        return deleteColumn;
    }

    Slot deleteSubcolumn() {
        return deleteSubcolumn;
    }

    /** Columns (or one super column's subcolumns) by name: one, or several. */
    Slot columnsByName(int names) {
        return columnReads[names == 1 ? ONE_NAME : NAMES];
    }

    /**
     * Columns (or one super column's subcolumns) in a range, with a LIMIT; of a {@link ClusteringNames} table, the
     * unbounded ranges only.
     */
    Slot columnRange(boolean lower, boolean upper, boolean reversed) {
        return columnReads[rangeForm(lower, upper, reversed)];
    }

    /**
     * The text of a read of a {@link ClusteringNames} table's columns in a bounded range, in the comparator's order
     * or its opposite, with a LIMIT: one per shape of bounds, prepared once by {@link Statements}.
     */
    String clusteredRange(ClusteringSlice slice, boolean reversed) {
        return clusteredSelect + slice.cql() + " ORDER BY " + names.order(reversed) + " LIMIT ?";
    }

    Slot superColumnsByName(int names) {
        return superColumnReads[names == 1 ? ONE_NAME : NAMES];
    }

    /** Whole super columns in a range of their names, unlimited: the caller stops at its count. */
    Slot superColumnRange(boolean lower, boolean upper, boolean reversed) {
        return superColumnReads[rangeForm(lower, upper, reversed)];
    }

    /** COUNT(*) of a standard row, or of one super column's subcolumns. */
    Slot countColumns() {
        return countColumns;
    }

    /** One row per super column of a super row. */
    Slot countSuperColumns() {
        return countSuperColumns;
    }

    /**
     * The keys of a token range. Bounds: 0 none, 1 a key ({@code token(?)} of it, inclusive), 2 a token
     * (exclusive below, inclusive above).
     */
    Slot rangeKeys(int lower, int upper) {
        return rangeKeys[lower * 3 + upper];
    }
}
