package sibyl.thrift20;

import java.nio.ByteBuffer;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import sibyl.db.CFMetaData;
import sibyl.db.ColumnIndexes;
import sibyl.db.Validators;
import sibyl.db.marshal.AbstractType;
import sibyl.db.marshal.CounterColumnType;
import sibyl.iface.v20.CfDef;
import sibyl.iface.v20.ColumnDef;
import sibyl.iface.v20.IndexType;
import sibyl.iface.v20.InvalidRequestException;
import sibyl.thrift.ThriftConversion;

/**
 * The one place a column family's {@link ColumnIndexes} meet CfDef's column_metadata (index_type, index_name,
 * index_options), both ways, with 3.11's checks and texts (docs/thrift-api-0.7.md §Secondary indexes).
 */
final class IndexDefs {
    /** The option a CUSTOM index names its class by. */
    private static final String CLASS_NAME = "class_name";

    private IndexDefs() {
    }

    /** Sets index_type KEYS and index_name on the entries of {@code columns} that {@code cf} indexes. */
    static void describe(CFMetaData cf, List<ColumnDef> columns) {
        for (ColumnDef column : columns) {
            String name = cf.indexes().nameOf(column.name);
            if (name != null) column.setIndex_type(IndexType.KEYS).setIndex_name(name);
        }
    }

    /**
     * The indexes {@code def} defines, refused in 3.11's words where it refuses them: on a super column family, a
     * CUSTOM index without a class (or with one: no class of a client's is loaded), a name that is not a word or
     * that two columns share. An index_name without an index_type is dropped, as 3.11 drops it.
     *
     * @param names the comparator of the columns' level, which prints a column's name in a default index name
     */
    static ColumnIndexes read(CfDef def, boolean isSuper, AbstractType names, Validators validators)
            throws InvalidRequestException {
        if (!def.isSetColumn_metadata()) return ColumnIndexes.NONE;
        Map<ByteBuffer, String> indexes = new LinkedHashMap<>();
        Set<String> taken = new HashSet<>();
        for (ColumnDef column : def.getColumn_metadata()) {
            if (!column.isSetIndex_type()) continue;
            if (isSuper) throw new InvalidRequestException("Secondary indexes are not supported on super column families");
            String name = column.isSetIndex_name() ? column.getIndex_name()
                    : (def.getName() + "_" + names.getString(ThriftConversion.bytes(column.name)) + "_idx")
                    .replaceAll("\\W", "");
            if (column.getIndex_type() == IndexType.CUSTOM) {
                Map<String, String> options = column.getIndex_options();
                if (options == null || !options.containsKey(CLASS_NAME)) {
                    throw new InvalidRequestException("Required option missing for index " + name + " : " + CLASS_NAME);
                }
                throw new InvalidRequestException("Unable to find custom indexer class '" + options.get(CLASS_NAME) + "'");
            }
            if (column.getIndex_type() != IndexType.KEYS) {
                throw new InvalidRequestException("Sibyl serves KEYS secondary indexes only, not " + column.getIndex_type()
                        + " (index " + name + "; docs/thrift-api-0.7.md, \"Secondary indexes\")");
            }
            if (!name.matches("\\w+")) throw new InvalidRequestException("Illegal index name " + name);
            if (!taken.add(name)) throw new InvalidRequestException("Duplicate index name " + name);
            if (validators.valueOf(column.name) instanceof CounterColumnType) {
                throw new InvalidRequestException("Sibyl does not serve secondary indexes on counter columns (index "
                        + name + "; docs/thrift-api-0.7.md, \"Secondary indexes\")");
            }
            indexes.put(column.name.duplicate(), name);
        }
        return new ColumnIndexes(indexes);
    }

    /** Refuses an index of {@code cf} whose name an index of another column family of {@code others} has. */
    static void unique(CFMetaData cf, List<CFMetaData> others) throws InvalidRequestException {
        Set<String> taken = new HashSet<>();
        for (CFMetaData other : others) {
            if (!other.name().equals(cf.name())) taken.addAll(other.indexes().byColumn().values());
        }
        for (String name : cf.indexes().byColumn().values()) {
            if (taken.contains(name)) throw new InvalidRequestException("Duplicate index name " + name);
        }
    }
}
