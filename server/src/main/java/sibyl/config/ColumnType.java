package sibyl.config;

import java.util.Optional;

/** The ColumnType attribute of a column family: plain columns, or super columns holding subcolumns. */
public enum ColumnType {
    STANDARD("Standard"),
    SUPER("Super");

    private final String wireName;

    ColumnType(String wireName) {
        this.wireName = wireName;
    }

    /** The spelling used in storage-conf.xml and returned by describe_keyspace. */
    public String wireName() {
        return wireName;
    }

    /** Matches the configuration spelling exactly; 0.6 compared it case-sensitively. */
    public static Optional<ColumnType> fromWireName(String name) {
        for (ColumnType type : values()) {
            if (type.wireName.equals(name)) {
                return Optional.of(type);
            }
        }
        return Optional.empty();
    }
}
