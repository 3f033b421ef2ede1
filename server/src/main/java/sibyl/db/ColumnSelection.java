package sibyl.db;

import java.util.List;
import java.util.Objects;

/** Which columns of a row (or subcolumns of a super column) a read wants. */
public sealed interface ColumnSelection {

    /**
     * These names; duplicates collapse and results come in comparator order whatever the
     * order here. An empty list selects nothing.
     */
    record Names(List<byte[]> names) implements ColumnSelection {
        public Names {
            names = List.copyOf(names);
        }

        @Override
        public String toString() {
            StringBuilder s = new StringBuilder("Names(");
            for (int i = 0; i < names.size(); i++) s.append(i == 0 ? "" : ", ").append(Bytes.hex(names.get(i)));
            return s.append(')').toString();
        }
    }

    /**
     * The names between {@code start} and {@code finish}, both inclusive, in comparator order or
     * reversed; at most {@code count} live entries. An empty start or finish is an open bound.
     * Reversed, start is the upper bound and finish the lower one.
     */
    record Range(byte[] start, byte[] finish, boolean reversed, int count) implements ColumnSelection {
        public Range {
            Objects.requireNonNull(start, "start");
            Objects.requireNonNull(finish, "finish");
            if (count < 0) throw new IllegalArgumentException("count must not be negative: " + count);
        }

        @Override
        public String toString() {
            return "Range(" + Bytes.hex(start) + ", " + Bytes.hex(finish) + ", reversed=" + reversed
                    + ", count=" + count + ")";
        }
    }

    static Names names(List<byte[]> names) {
        return new Names(names);
    }

    static Names names(byte[]... names) {
        return new Names(List.of(names));
    }

    static Range range(byte[] start, byte[] finish, boolean reversed, int count) {
        return new Range(start, finish, reversed, count);
    }

    /** Everything, in order: what get_count counts. */
    static Range all() {
        return new Range(Bytes.EMPTY, Bytes.EMPTY, false, Integer.MAX_VALUE);
    }
}
