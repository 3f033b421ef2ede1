package sibyl.config;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What a {@code <ColumnFamily>} says its keys and values are, as 0.7's CfDef says it: KeyValidationClass,
 * DefaultValidationClass and a {@code <Column Name=".." ValidationClass=".."/>} per column with a type of its own
 * (docs/configuration.md §Column families). Type strings as {@link ClassNames#type} gives them.
 *
 * @param columns each column's name (its UTF-8 bytes are the name) and its values' type, in file order
 * @param indexes each column with a KEYS secondary index ({@code IndexType="KEYS"}) and its IndexName, empty for
 *                3.11's default name, in file order
 */
public record ValidationConf(String keyValidationClass, String defaultValidationClass, Map<String, String> columns,
                             Map<String, String> indexes) {
    /** Everything is bytes, as when nothing is said. */
    public static final ValidationConf NONE = new ValidationConf(ClassNames.BYTES_TYPE, ClassNames.BYTES_TYPE, Map.of());

    public ValidationConf {
        Objects.requireNonNull(keyValidationClass, "keyValidationClass");
        Objects.requireNonNull(defaultValidationClass, "defaultValidationClass");
        columns = Collections.unmodifiableMap(new LinkedHashMap<>(columns));
        indexes = Collections.unmodifiableMap(new LinkedHashMap<>(indexes));
    }

    /** Without secondary indexes. */
    public ValidationConf(String keyValidationClass, String defaultValidationClass, Map<String, String> columns) {
        this(keyValidationClass, defaultValidationClass, columns, Map.of());
    }
}
