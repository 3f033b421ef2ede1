package sibyl.cql;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import sibyl.db.CFMetaData;
import sibyl.db.InvalidQueryException;
import sibyl.db.marshal.AbstractType;
import sibyl.db.marshal.CompositeType;
import sibyl.db.marshal.ReversedType;
import sibyl.service.Consistency;

/**
 * A standard column family as CQL sees it, a COMPACT STORAGE table (docs/thrift-api-0.7.md §CQL): {@code key} of the
 * key validation class, {@code column1} of the comparator (or {@code column1..columnN} of a CompositeType's
 * components), {@code value} of the default validation class. Cassandra 3.11 shows the same view of a column family
 * made over Thrift. Column families whose view is not this one (super, with column_metadata) are refused.
 */
final class CompactView {
    static final String KEY = "key";
    static final String VALUE = "value";

    private final CFMetaData cf;
    private final List<AbstractType> clustering;
    private final boolean composite;
    /** Whether the comparator is a ReversedType: CQL's ascending order is then the storage's descending one. */
    private final boolean storedDescending;

    private CompactView(CFMetaData cf, List<AbstractType> clustering, boolean composite, boolean storedDescending) {
        this.cf = cf;
        this.clustering = List.copyOf(clustering);
        this.composite = composite;
        this.storedDescending = storedDescending;
    }

    static CompactView of(CFMetaData cf) {
        if (cf.isSuper()) throw Parser.notServed("CQL on a super column family (" + cf.name() + ")");
        if (!cf.validators().columns().isEmpty()) {
            throw Parser.notServed("CQL on a column family with column_metadata (" + cf.name() + ")");
        }
        AbstractType comparator = cf.comparator();
        if (comparator instanceof CompositeType c) {
            for (AbstractType t : c.types()) {
                if (t instanceof ReversedType || t instanceof CompositeType) {
                    throw Parser.notServed("CQL on a column family whose composite comparator has a reversed or"
                            + " nested component (" + cf.name() + ")");
                }
            }
            return new CompactView(cf, c.types(), true, false);
        }
        boolean descending = comparator instanceof ReversedType;
        AbstractType base = CqlTypes.unreversed(comparator);
        if (base instanceof CompositeType) {
            throw Parser.notServed("CQL on a column family whose comparator is a reversed composite (" + cf.name() + ")");
        }
        return new CompactView(cf, List.of(base), false, descending);
    }

    CFMetaData cf() {
        return cf;
    }

    int clusteringCount() {
        return clustering.size();
    }

    boolean composite() {
        return composite;
    }

    boolean storedDescending() {
        return storedDescending;
    }

    boolean isCounter() {
        return cf.isCounter();
    }

    /** Refuses a write or delete at {@code level} that this table does not take: a counter table's at ANY, as 3.11. */
    void checkWriteLevel(Consistency level) {
        if (isCounter() && level == Consistency.ANY) {
            throw new InvalidQueryException(cf.counterWriteAtAnyRefusal());
        }
    }

    static String clusteringName(int i) {
        return "column" + (i + 1);
    }

    /** The columns of {@code SELECT *}, in order. */
    List<String> columns() {
        List<String> names = new ArrayList<>();
        names.add(KEY);
        for (int i = 0; i < clustering.size(); i++) names.add(clusteringName(i));
        names.add(VALUE);
        return names;
    }

    /** The clustering index of {@code name}: -1 for key, {@code clusteringCount()} for value; refused if none. */
    int position(String name) {
        if (name.equals(KEY)) return -1;
        if (name.equals(VALUE)) return clustering.size();
        if (name.startsWith("column")) {
            String n = name.substring("column".length());
            if (n.matches("[1-9][0-9]{0,3}")) {
                int i = Integer.parseInt(n) - 1;
                if (i < clustering.size()) return i;
            }
        }
        throw new InvalidQueryException("Undefined column name " + (name.matches("[a-z][a-z0-9_]*") ? name
                : "\"" + name.replace("\"", "\"\"") + "\""));
    }

    AbstractType type(int position) {
        if (position < 0) return cf.validators().key();
        if (position < clustering.size()) return clustering.get(position);
        return cf.validators().defaultValue();
    }

    String name(int position) {
        if (position < 0) return KEY;
        if (position < clustering.size()) return clusteringName(position);
        return VALUE;
    }

    /** The class name 3.11 gives the column's type in its answers. */
    String typeName(int position) {
        return CqlTypes.unreversed(type(position)).className();
    }

    /**
     * The stored name of a cell, or a slice bound: the values of the first clustering columns, and for a composite,
     * the end-of-component byte of the last (0 in a stored name; -1 before, 1 after all names with that prefix).
     */
    byte[] cellName(List<ByteBuffer> values, int endOfComponent) {
        if (!composite) return values.isEmpty() ? new byte[0] : bytes(values.get(0));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < values.size(); i++) {
            byte[] v = bytes(values.get(i));
            if (v.length > 0xffff) throw new InvalidQueryException("a clustering value of " + v.length + " bytes is too long");
            out.write(v.length >> 8);
            out.write(v.length);
            out.writeBytes(v);
            out.write(i == values.size() - 1 ? endOfComponent : 0);
        }
        return out.toByteArray();
    }

    /** The clustering values of a stored name; null for those a composite name has no component for. */
    List<ByteBuffer> clusteringValues(byte[] name) {
        List<ByteBuffer> values = new ArrayList<>(clustering.size());
        if (!composite) {
            values.add(ByteBuffer.wrap(name));
            return values;
        }
        for (byte[] v : ((CompositeType) cf.comparator()).components(name).values()) values.add(ByteBuffer.wrap(v));
        while (values.size() < clustering.size()) values.add(null);
        return values;
    }

    static byte[] bytes(ByteBuffer b) {
        byte[] a = new byte[b.remaining()];
        b.duplicate().get(a);
        return a;
    }
}
