package sibyl.client.cli;

import java.util.Map;
import sibyl.client.NameType;

/** What the cli needs to know of a column family: standard or super, and how its names are written. */
record ColumnFamilyInfo(String keyspace, String name, boolean isSuper, NameType names, NameType subNames) {

    /** From one entry of describe_keyspace's result. */
    static ColumnFamilyInfo from(String keyspace, String name, Map<String, String> properties) {
        boolean isSuper = "Super".equalsIgnoreCase(properties.get("Type"));
        return new ColumnFamilyInfo(keyspace, name, isSuper,
                NameType.forComparator(properties.get("CompareWith")),
                isSuper ? NameType.forComparator(properties.get("CompareSubcolumnsWith")) : null);
    }

    String kind() {
        return isSuper ? "super" : "standard";
    }
}
