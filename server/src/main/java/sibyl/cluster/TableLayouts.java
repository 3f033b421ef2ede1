package sibyl.cluster;

import java.util.ArrayList;
import java.util.List;
import sibyl.config.ClusterConf;
import sibyl.config.ConfigurationException;
import sibyl.config.ElementPath;
import sibyl.db.CFMetaData;
import sibyl.db.marshal.AbstractType;
import sibyl.db.marshal.CompositeType;
import sibyl.db.marshal.DynamicCompositeType;
import sibyl.db.marshal.ReversedType;

/**
 * The table a column family maps onto (docs/configuration.md §Cluster): a standard one's names are {@code column1},
 * a CompositeType's components {@code column1}…{@code columnN} and a ReversedType's (or a ReversedType component's)
 * column in descending order, the layout a 3.x table of that Thrift column family has after DROP COMPACT STORAGE; a
 * super one's super column and subcolumn names are {@code column1} and {@code column2}. A comparator with no such
 * layout stops the start, naming the column family and why.
 */
final class TableLayouts {
    private static final String SUPPORTED = "cluster mode supports BytesType, AsciiType, UTF8Type, LongType,"
            + " TimeUUIDType, LexicalUUIDType, IntegerType, Int32Type, UUIDType, TimestampType, BooleanType,"
            + " DoubleType, FloatType, DecimalType, InetAddressType, ShortType, ByteType and SimpleDateType, and for a"
            + " standard column family CompositeType and ReversedType of those (docs/configuration.md §Cluster)";

    private TableLayouts() {
    }

    static Table of(ClusterConf conf, String cqlKeyspace, CFMetaData cf) throws ConfigurationException {
        String element = ElementPath.columnFamily(cf.keyspace(), cf.name());
        if (cf.isSuper()) {
            List<ClusteringColumn> columns = List.of(
                    new ClusteringColumn("column1", superType(conf, element, "CompareWith", cf.comparator()), false),
                    new ClusteringColumn("column2", superType(conf, element, "CompareSubcolumnsWith",
                            cf.subcomparator()), false));
            return new Table(cqlKeyspace, cf.name(), cf, columns, null);
        }
        String attribute = element + "/@CompareWith";
        AbstractType comparator = cf.comparator();
        if (comparator instanceof CompositeType composite) {
            List<ClusteringColumn> columns = new ArrayList<>();
            for (AbstractType component : composite.types()) {
                columns.add(column(conf, attribute, "column" + (columns.size() + 1), component, comparator));
            }
            return new Table(cqlKeyspace, cf.name(), cf, columns, new ClusteringNames(cf.name(), columns, composite));
        }
        if (comparator instanceof DynamicCompositeType) {
            throw new ConfigurationException(conf.file(), attribute, "comparator " + comparator.className()
                    + " gives each name's components their own types, so its names have no fixed clustering columns"
                    + " for the cluster to store and order them by; cluster mode does not serve DynamicCompositeType"
                    + " (docs/differences.md §The 0.7+ dialect)");
        }
        ClusteringColumn column1 = column(conf, attribute, "column1", comparator, comparator);
        List<ClusteringColumn> columns = List.of(column1);
        return new Table(cqlKeyspace, cf.name(), cf, columns,
                column1.descending() ? new ClusteringNames(cf.name(), columns, null) : null);
    }

    /** A column of a type with a CQL type, or of a ReversedType of one (descending). */
    private static ClusteringColumn column(ClusterConf conf, String attribute, String name, AbstractType type,
                                           AbstractType comparator) throws ConfigurationException {
        boolean descending = type instanceof ReversedType;
        AbstractType base = descending ? ((ReversedType) type).base() : type;
        var cql = CqlType.of(base);
        if (cql.isEmpty()) {
            throw new ConfigurationException(conf.file(), attribute, "comparator " + comparator.className()
                    + (type == comparator ? "" : " has a component " + type.className() + " that")
                    + " has no CQL type, so the cluster cannot order by it; " + SUPPORTED);
        }
        return new ClusteringColumn(name, cql.get(), descending);
    }

    private static CqlType superType(ClusterConf conf, String element, String attribute, AbstractType comparator)
            throws ConfigurationException {
        var cql = CqlType.of(comparator);
        if (cql.isPresent()) return cql.get();
        boolean layered = comparator instanceof CompositeType || comparator instanceof DynamicCompositeType
                || comparator instanceof ReversedType;
        throw new ConfigurationException(conf.file(), element + "/@" + attribute, "comparator "
                + comparator.className() + (layered ? " in a super column family: its table has one clustering"
                + " column for the super column names and one for the subcolumn names, each of one type in ascending"
                + " order, so cluster mode serves CompositeType, DynamicCompositeType and ReversedType in standard"
                + " column families only (docs/differences.md §The 0.7+ dialect)"
                : " has no CQL type, so the cluster cannot order by it; " + SUPPORTED));
    }
}
