package sibyl.db;

import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import sibyl.db.marshal.AbstractType;
import sibyl.db.marshal.BytesType;

/**
 * What the 0.7+ dialect checks a column family's keys and values against, as 0.7 to 3.11 define it (CfDef's
 * key_validation_class, default_validation_class and column_metadata): a type for keys, one for the values of the
 * columns named in {@code columns}, and one for every other value. BytesType, which accepts anything, where
 * nothing is said. Immutable.
 *
 * @param columns each column's name (a read-only buffer over its bytes) and its values' type, in the order given
 */
public record Validators(AbstractType key, AbstractType defaultValue, Map<ByteBuffer, AbstractType> columns) {
    /** Nothing checked: every key and value is bytes. */
    public static final Validators NONE = new Validators(BytesType.instance, BytesType.instance, Map.of());

    public Validators {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(defaultValue, "defaultValue");
        Map<ByteBuffer, AbstractType> copy = new LinkedHashMap<>();
        for (Map.Entry<ByteBuffer, AbstractType> c : columns.entrySet()) {
            copy.put(c.getKey().asReadOnlyBuffer(), Objects.requireNonNull(c.getValue(), "column type"));
        }
        columns = java.util.Collections.unmodifiableMap(copy);
    }

    /** The type of the values of the column named by {@code name}'s remaining bytes. */
    public AbstractType valueOf(ByteBuffer name) {
        AbstractType type = columns.get(name);
        return type != null ? type : defaultValue;
    }

    /** Whether any key or value is checked at all, so that a column family without checks costs nothing. */
    public boolean checksAnything() {
        return key.getClass() != BytesType.class || defaultValue.getClass() != BytesType.class || !columns.isEmpty();
    }
}
