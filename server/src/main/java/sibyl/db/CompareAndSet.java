package sibyl.db;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.BinaryOperator;
import java.util.function.Function;

/**
 * One compare-and-set on one row of a standard column family, as Cassandra 3.11's cas does it (docs/thrift-api-0.7.md
 * §cas): with nothing expected it applies when the row has no live column; otherwise when every expected column is
 * live with a value of the same bytes. When it applies, its updates are written, all at one timestamp the store
 * chooses (each later than the last of the row's), whatever timestamps the client gave them; when it does not, the
 * answer is the row's current columns the condition looked at ({@link #currentSelection()}).
 *
 * <p>Several expected columns, or updates, of one name are merged first as one write of them would be
 * ({@link Column#reconcile}), so that the client's timestamps still pick which one counts, as in 3.11.
 */
public final class CompareAndSet {
    private final CFMetaData table;
    private final String key;
    /** In comparator order, one per name. */
    private final List<Expected> expected;
    /** Live or expiring columns in comparator order, one per name, with the client's timestamps. */
    private final List<Column> updates;
    private final int nowSeconds;

    /**
     * A column the condition expects: live with {@code value}'s bytes; a null value, which a client may send, and
     * an empty name, which no column has, are matched by no column. The timestamp decides only between two expected columns of one name (the later wins,
     * on a tie the greater value).
     */
    public record Expected(byte[] name, byte[] value, long timestamp) {
        public Expected {
            Objects.requireNonNull(name, "name");
        }

        static Expected reconcile(Expected a, Expected b) {
            if (a.timestamp != b.timestamp) return a.timestamp > b.timestamp ? a : b;
            return Arrays.compareUnsigned(a.value, b.value) >= 0 ? a : b;
        }

        @Override
        public String toString() {
            return Bytes.hex(name) + "=" + (value == null ? "null" : Bytes.hex(value)) + "@" + timestamp;
        }
    }

    private CompareAndSet(CFMetaData table, String key, List<Expected> expected, List<Column> updates, int nowSeconds) {
        this.table = table;
        this.key = key;
        this.expected = expected;
        this.updates = updates;
        this.nowSeconds = nowSeconds;
    }

    /**
     * @param expected   the columns expected, live (their timestamps only break ties between two of one name)
     * @param updates    the columns to write, live or expiring (the ttl counted from {@code nowSeconds})
     * @param nowSeconds the second the request began: the writes' ttls count from it
     * @throws IllegalArgumentException when the table is a super column family
     */
    public static CompareAndSet of(CFMetaData table, String key, List<Expected> expected, List<Column> updates,
                                   int nowSeconds) {
        Objects.requireNonNull(key, "key");
        if (table.isSuper()) throw new IllegalArgumentException("cas does not apply to super column family " + table.name());
        return new CompareAndSet(table, key, merged(table, expected, Expected::name, Expected::reconcile),
                merged(table, updates, Column::name, Column::reconcile), nowSeconds);
    }

    /** One per name, in comparator order: of several of one name, the one {@code reconcile} picks. */
    private static <T> List<T> merged(CFMetaData table, List<T> columns, Function<T, byte[]> name,
                                      BinaryOperator<T> reconcile) {
        List<T> sorted = new ArrayList<>(columns);
        sorted.sort((a, b) -> table.comparator().compare(name.apply(a), name.apply(b)));
        List<T> merged = new ArrayList<>(sorted.size());
        for (T c : sorted) {
            int last = merged.size() - 1;
            if (last >= 0 && table.comparator().compare(name.apply(merged.get(last)), name.apply(c)) == 0) {
                merged.set(last, reconcile.apply(merged.get(last), c));
            } else {
                merged.add(c);
            }
        }
        return List.copyOf(merged);
    }

    public String keyspace() {
        return table.keyspace();
    }

    public String columnFamily() {
        return table.name();
    }

    public String key() {
        return key;
    }

    /** The expected columns, one per name, in comparator order; empty when the row must have no live column. */
    public List<Expected> expected() {
        return expected;
    }

    /** The columns written when the condition holds, one per name, in comparator order. */
    public List<Column> updates() {
        return updates;
    }

    /**
     * What the condition reads of the row, which a failed cas answers: the expected columns, or with nothing
     * expected the row's first live column.
     */
    public ColumnSelection currentSelection() {
        if (expected.isEmpty()) return ColumnSelection.range(Bytes.EMPTY, Bytes.EMPTY, false, 1);
        List<byte[]> names = new ArrayList<>(expected.size());
        for (Expected e : expected) {
            if (e.name().length > 0) names.add(e.name());
        }
        return ColumnSelection.names(names);
    }

    /** Whether the condition holds on {@code current}, the live columns {@link #currentSelection()} read. */
    public boolean appliesTo(List<? extends Cell> current) {
        if (expected.isEmpty()) return current.isEmpty();
        for (Expected e : expected) {
            Column found = null;
            for (Cell c : current) {
                if (c instanceof Column col && table.comparator().compare(col.name(), e.name()) == 0) found = col;
            }
            if (found == null || e.value() == null || !Arrays.equals(found.value(), e.value())) return false;
        }
        return true;
    }

    /** The updates as one mutation of the row, every column at {@code timestamp}; none when there are none. */
    public RowMutation mutation(long timestamp) {
        RowMutation.Builder m = RowMutation.builder(table.keyspace(), key).localDeletionTime(nowSeconds);
        for (Column c : updates) m.write(table.name(), c.name(), c.value(), timestamp, c.isExpiring() ? c.ttl() : 0);
        return m.build();
    }

    /**
     * What a cas came to: applied, or not and the live columns the condition looked at ({@link #currentSelection()}),
     * in comparator order.
     */
    public record Outcome(boolean applied, List<Column> current) {
        public Outcome {
            current = List.copyOf(current);
        }

        public static Outcome success() {
            return new Outcome(true, List.of());
        }

        public static Outcome failure(List<Column> current) {
            return new Outcome(false, current);
        }
    }

    @Override
    public String toString() {
        return "CompareAndSet(" + table.keyspace() + "." + table.name() + ", " + key + ", expected " + expected
                + ", updates " + updates + ")";
    }
}
