package sibyl.db;

import java.nio.ByteBuffer;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The KEYS secondary indexes of a standard column family (column_metadata's index_type KEYS; docs/thrift-api-0.7.md
 * §Secondary indexes): each indexed column's name and its index's name, in the order defined. Immutable.
 *
 * @param byColumn each indexed column's name (a read-only buffer over its bytes) and the name of its index
 */
public record ColumnIndexes(Map<ByteBuffer, String> byColumn) {
    /** No column indexed. */
    public static final ColumnIndexes NONE = new ColumnIndexes(Map.of());

    public ColumnIndexes {
        Map<ByteBuffer, String> copy = new LinkedHashMap<>();
        for (Map.Entry<ByteBuffer, String> e : byColumn.entrySet()) {
            copy.put(e.getKey().asReadOnlyBuffer(), Objects.requireNonNull(e.getValue(), "index name"));
        }
        byColumn = Collections.unmodifiableMap(copy);
    }

    public boolean isEmpty() {
        return byColumn.isEmpty();
    }

    /** Whether the column named by {@code column}'s remaining bytes is indexed. */
    public boolean indexes(ByteBuffer column) {
        return byColumn.containsKey(column);
    }

    /** The name of the index of {@code column}, or null when it has none. */
    public String nameOf(ByteBuffer column) {
        return byColumn.get(column);
    }
}
