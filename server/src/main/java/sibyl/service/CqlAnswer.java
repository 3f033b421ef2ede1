package sibyl.service;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * What a CQL statement answered ({@link StorageService#executeCql}): nothing, for a statement that changes data or
 * schema, or rows of named, typed columns. Types are named as Cassandra 3.11 names them to Thrift clients
 * ({@code org.apache.cassandra.db.marshal.UTF8Type}, {@code ...ListType(...Int32Type)}; docs/thrift-api-0.7.md §CQL).
 *
 * @param names the columns' names, in order; empty for no rows
 * @param types each column's type
 * @param rows  each row's values in the columns' order, a value null where the row has none; read-only buffers
 */
public record CqlAnswer(boolean hasRows, List<String> names, List<String> types, List<List<ByteBuffer>> rows) {
    /** A statement that answers no rows. */
    public static final CqlAnswer NOTHING = new CqlAnswer(false, List.of(), List.of(), List.of());

    public CqlAnswer {
        names = List.copyOf(names);
        types = List.copyOf(types);
        if (names.size() != types.size()) throw new IllegalArgumentException(names + " against types " + types);
        List<List<ByteBuffer>> copied = new ArrayList<>(rows.size());
        for (List<ByteBuffer> row : rows) {
            if (row.size() != names.size()) throw new IllegalArgumentException("a row of " + row.size() + " values");
            List<ByteBuffer> values = new ArrayList<>(row.size());
            for (ByteBuffer v : row) values.add(v == null ? null : v.asReadOnlyBuffer());
            copied.add(Collections.unmodifiableList(values));
        }
        rows = Collections.unmodifiableList(copied);
    }

    /** Rows of the columns {@code names} of {@code types}. */
    public static CqlAnswer rows(List<String> names, List<String> types, List<List<ByteBuffer>> rows) {
        return new CqlAnswer(true, names, types, Objects.requireNonNull(rows, "rows"));
    }
}
