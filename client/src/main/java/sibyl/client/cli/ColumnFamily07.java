package sibyl.client.cli;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import sibyl.iface.v20.CfDef;
import sibyl.iface.v20.ColumnDef;

/**
 * What the 0.7+ cli needs of a column family: standard or super, and the types its keys, (sub)column names and
 * values are written in. From its CfDef, with the session's {@code assume} statements laid over it.
 */
record ColumnFamily07(String name, boolean isSuper, CliType keys, CliType names, CliType subNames,
                      CliType defaultValues, Map<ByteBuffer, CliType> columnValues) {

    /** @param assumed {@code assume} statements for this column family: keys, comparator, sub_comparator, validator */
    static ColumnFamily07 of(CfDef cf, Map<String, CliType> assumed) {
        Map<ByteBuffer, CliType> values = new HashMap<>();
        if (cf.getColumn_metadata() != null) {
            for (ColumnDef d : cf.getColumn_metadata()) {
                values.put(ByteBuffer.wrap(d.getName()), CliType.of(d.getValidation_class()));
            }
        }
        boolean isSuper = "Super".equalsIgnoreCase(cf.getColumn_type());
        CliType validator = assumed.get("validator");
        return new ColumnFamily07(cf.getName(), isSuper,
                assumed.getOrDefault("keys", CliType.of(cf.getKey_validation_class())),
                assumed.getOrDefault("comparator", CliType.of(cf.getComparator_type())),
                assumed.getOrDefault("sub_comparator", CliType.of(cf.getSubcomparator_type())),
                validator != null ? validator : CliType.of(cf.getDefault_validation_class()),
                Map.copyOf(values));
    }

    /** The type of the value of the column (or subcolumn) named {@code name}. */
    CliType valueType(byte[] name) {
        return columnValues.getOrDefault(ByteBuffer.wrap(name), defaultValues);
    }

    /** The type of names at depth 1 (columns, or super columns) or 2 (subcolumns). */
    CliType namesAt(int depth) {
        return depth == 2 ? subNames : names;
    }

    /** The row key of {@code path}, by the key type. */
    ByteBuffer key(Statement07.Path path) {
        byte[] key = convert(path.key(), keys, "key");
        if (key.length == 0) {
            throw new CliError("the row key may not be empty");
        }
        return ByteBuffer.wrap(key);
    }

    /** The name at bracket {@code depth} of {@code path} (1: column or super column, 2: subcolumn). */
    byte[] name(Statement07.Path path, int depth) {
        return convert(path.levels().get(depth), namesAt(depth), depth == 2 || !isSuper ? "column name"
                : "super column name");
    }

    /** A term to bytes: by its function if it has one, else by {@code type}; {@code what} names it in errors. */
    static byte[] convert(Statement07.Term term, CliType type, String what) {
        CliType t = type;
        if (term.function() != null) {
            t = CliType.ofFunction(term.function());
            if (term.literal() == null) {
                byte[] b = t.noArgument();
                if (b == null) {
                    throw new CliError(term.function() + "() needs an argument");
                }
                return b;
            }
        }
        try {
            return t.parse(term.literal().text());
        } catch (IllegalArgumentException e) {
            throw new CliError("bad " + what + " " + term.display() + ": " + e.getMessage());
        }
    }

    String kind() {
        return isSuper ? "super" : "standard";
    }
}
