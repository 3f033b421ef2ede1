package sibyl.client.nodetool;

import javax.management.ObjectName;

/** Object name values as configured names again. */
final class ObjectNames {
    private ObjectNames() {
    }

    static String unquote(String value) {
        return value.startsWith("\"") ? ObjectName.unquote(value) : value;
    }
}
