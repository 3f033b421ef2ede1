package sibyl.thrift20;

import java.nio.ByteBuffer;
import java.util.List;
import sibyl.db.CFMetaData;
import sibyl.db.KSMetaData;
import sibyl.db.marshal.AbstractType;
import sibyl.db.marshal.MarshalException;
import sibyl.dht.BinaryKeys;
import sibyl.dht.Partitioner;
import sibyl.dht.Token;
import sibyl.iface.v20.Column;
import sibyl.iface.v20.ColumnOrSuperColumn;
import sibyl.iface.v20.ColumnParent;
import sibyl.iface.v20.ColumnPath;
import sibyl.iface.v20.ColumnSlice;
import sibyl.iface.v20.ConsistencyLevel;
import sibyl.iface.v20.CounterColumn;
import sibyl.iface.v20.Deletion;
import sibyl.iface.v20.InvalidRequestException;
import sibyl.iface.v20.KeyRange;
import sibyl.iface.v20.MultiSliceRequest;
import sibyl.iface.v20.Mutation;
import sibyl.iface.v20.SlicePredicate;
import sibyl.iface.v20.SliceRange;
import sibyl.service.Schema;
import sibyl.thrift.ThriftConversion;
import sibyl.thrift.ThriftValidation;

/**
 * The request checks of the 0.7+ dialect against one schema, with Cassandra 3.11's texts and in its order
 * (docs/thrift-api-0.7.md §What Sibyl serves today); where 3.11 accepts what Sibyl cannot serve, the check
 * refuses it after 3.11's own checks, naming what is not served. Each method checks one part of a request.
 */
final class RequestChecks {
    private static final int MAX_KEY_LENGTH = 0xFFFF;
    private static final int MAX_NAME_LENGTH = ThriftValidation.MAX_NAME_LENGTH;
    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);

    private final Schema schema;
    private final Partitioner partitioner;

    RequestChecks(Schema schema, Partitioner partitioner) {
        this.schema = schema;
        this.partitioner = partitioner;
    }

    // ---- keys, keyspaces, tables

    /**
     * A row key, as 3.11 checks it, and then as the storage seam stores it: as text, in at most 65535 bytes of
     * modified UTF-8, where a byte no valid UTF-8 holds takes three.
     *
     * @return the key's text ({@link BinaryKeys})
     */
    static String key(ByteBuffer key) throws InvalidRequestException {
        if (key == null || !key.hasRemaining()) throw new InvalidRequestException("Key may not be empty");
        if (key.remaining() > MAX_KEY_LENGTH) {
            throw new InvalidRequestException("Key length of " + key.remaining() + " is longer than maximum of "
                    + MAX_KEY_LENGTH);
        }
        String text = BinaryKeys.decode(key);
        long stored = ThriftValidation.modifiedUtf8Length(text);
        if (stored > MAX_KEY_LENGTH) {
            throw new InvalidRequestException("Sibyl stores a key in at most " + MAX_KEY_LENGTH
                    + " bytes of modified UTF-8, and this one takes " + stored + " (issue #33)");
        }
        return text;
    }

    /** As {@link #key(ByteBuffer)}, and then as {@code cf}'s key_validation_class takes it, as 3.11 checks a key. */
    static String key(CFMetaData cf, ByteBuffer key) throws InvalidRequestException {
        String text = key(key);
        keyConforms(cf, key);
        return text;
    }

    /** A key, already checked as a key, against {@code cf}'s key_validation_class, refused in 3.11's words. */
    static void keyConforms(CFMetaData cf, ByteBuffer key) throws InvalidRequestException {
        try {
            cf.validators().key().conform(key);
        } catch (MarshalException e) {
            throw new InvalidRequestException(e.getMessage());
        }
    }

    KSMetaData keyspace(String keyspace) throws InvalidRequestException {
        return schema.keyspace(keyspace).orElseThrow(() ->
                new InvalidRequestException("Keyspace " + keyspace + " does not exist"));
    }

    boolean exists(String keyspace) {
        return schema.keyspace(keyspace).isPresent();
    }

    CFMetaData table(String keyspace, String name) throws InvalidRequestException {
        KSMetaData ks = keyspace(keyspace);
        if (name == null || name.isEmpty()) throw new InvalidRequestException("non-empty table is required");
        return ks.columnFamily(name).orElseThrow(() -> new InvalidRequestException("unconfigured table " + name));
    }

    /**
     * A write's table is a counter table exactly when the write is a counter write ({@code counters}: add,
     * remove_counter, a counter mutation), refused in 3.11's words otherwise (docs/thrift-api-0.7.md §Counters).
     */
    static CFMetaData ofKind(CFMetaData cf, boolean counters) throws InvalidRequestException {
        if (counters && !cf.isCounter()) refuse("invalid operation for non commutative table " + cf.name());
        if (!counters && cf.isCounter()) refuse("invalid operation for commutative table " + cf.name());
        return cf;
    }

    /** The consistency level of a counter write, as 3.11 checks it. */
    static void counterConsistency(CFMetaData cf, ConsistencyLevel cl) throws InvalidRequestException {
        if (cl == ConsistencyLevel.ANY) refuse(cf.counterWriteAtAnyRefusal());
        if (cl == ConsistencyLevel.SERIAL || cl == ConsistencyLevel.LOCAL_SERIAL) {
            refuse("Counter operations are inherently non-serializable");
        }
    }

    /** add's counter under {@code parent} (already checked): a super table's needs a super column. */
    static void addedCounter(CFMetaData cf, ColumnParent parent, CounterColumn counter) throws InvalidRequestException {
        if (cf.isSuper() && parent.super_column == null) {
            refuse("missing mandatory super column name for super CF " + cf.name());
        }
        names(cf, parent.super_column, List.of(counter.name));
    }

    // ---- paths and parents

    /** The ColumnPath of get: down to a column of a standard table, at least to a super column of a super one. */
    CFMetaData columnPath(String keyspace, ColumnPath path) throws InvalidRequestException {
        CFMetaData cf = table(keyspace, path.getColumn_family());
        columnPath(cf, path.super_column, path.column);
        return cf;
    }

    private static void columnPath(CFMetaData cf, ByteBuffer superColumn, ByteBuffer column)
            throws InvalidRequestException {
        if (cf.isSuper()) {
            if (superColumn == null) refuse("supercolumn parameter is not optional for super CF " + cf.name());
        } else {
            if (superColumn != null) refuse("supercolumn parameter is invalid for standard CF " + cf.name());
            if (column == null) refuse("column parameter is not optional for standard CF " + cf.name());
        }
        namesBelow(cf, superColumn, column);
    }

    /** remove's ColumnPath: any level below the table; a column of a super table only inside a super column. */
    CFMetaData removalPath(String keyspace, ColumnPath path) throws InvalidRequestException {
        CFMetaData cf = table(keyspace, path.getColumn_family());
        ByteBuffer superColumn = path.super_column;
        if (cf.isSuper() && superColumn == null && path.column != null) {
            refuse("A column cannot be specified without specifying a super column for removal on super CF "
                    + cf.name());
        }
        if (!cf.isSuper() && superColumn != null) {
            refuse("supercolumn may not be specified for standard CF " + cf.name());
        }
        namesBelow(cf, superColumn, path.column);
        return cf;
    }

    /** The ColumnParent of reads and insert: the table, or a super column of a super table. */
    CFMetaData columnParent(String keyspace, ColumnParent parent) throws InvalidRequestException {
        CFMetaData cf = table(keyspace, parent.getColumn_family());
        if (!cf.isSuper() && parent.super_column != null) {
            refuse("table alone is required for standard CF " + cf.name());
        }
        if (parent.super_column != null) names(cf, null, List.of(parent.super_column));
        return cf;
    }

    /** The column's name under the super column, then the super column's name, as 3.11 checks a path. */
    private static void namesBelow(CFMetaData cf, ByteBuffer superColumn, ByteBuffer column)
            throws InvalidRequestException {
        if (column != null) names(cf, superColumn, List.of(column));
        if (superColumn != null) names(cf, null, List.of(superColumn));
    }

    /** Names under {@code superColumn} (null for the top level): lengths, then each under its comparator. */
    private static void names(CFMetaData cf, ByteBuffer superColumn, List<ByteBuffer> names)
            throws InvalidRequestException {
        if (superColumn != null) {
            if (superColumn.remaining() > MAX_NAME_LENGTH) {
                refuse("supercolumn name length must not be greater than " + MAX_NAME_LENGTH);
            }
            if (!superColumn.hasRemaining()) refuse("supercolumn name must not be empty");
            if (!cf.isSuper()) refuse("supercolumn specified to table " + cf.name() + " containing normal columns");
        }
        AbstractType comparator = superColumn != null ? cf.subcomparator() : cf.comparator();
        for (ByteBuffer name : names) {
            if (name.remaining() > MAX_NAME_LENGTH) {
                refuse("column name length must not be greater than " + MAX_NAME_LENGTH);
            }
            if (!name.hasRemaining()) refuse("column name must not be empty");
            NameRules.conforms(comparator, name);
        }
    }

    // ---- predicates and key ranges

    /** The SlicePredicate of a read, under {@code parent} (already checked). */
    void predicate(CFMetaData cf, ColumnParent parent, SlicePredicate predicate) throws InvalidRequestException {
        boolean names = predicate.isSetColumn_names();
        boolean range = predicate.isSetSlice_range();
        if (!names && !range) refuse("predicate column_names and slice_range may not both be null");
        if (names && range) refuse("predicate column_names and slice_range may not both be present");
        if (range) range(cf, parent.super_column, predicate.getSlice_range());
        else names(cf, parent.super_column, predicate.getColumn_names());
    }

    private static void range(CFMetaData cf, ByteBuffer superColumn, SliceRange range)
            throws InvalidRequestException {
        if (range.getCount() < 0) refuse("get_slice requires non-negative count");
        if (range.start.remaining() > MAX_NAME_LENGTH) {
            refuse("range start length cannot be larger than " + MAX_NAME_LENGTH);
        }
        if (range.finish.remaining() > MAX_NAME_LENGTH) {
            refuse("range finish length cannot be larger than " + MAX_NAME_LENGTH);
        }
        AbstractType comparator = superColumn != null ? cf.subcomparator() : cf.comparator();
        NameRules.conforms(comparator, range.start);
        NameRules.conforms(comparator, range.finish);
        if (backwards(comparator, range)) refuse("range finish must come after start in the order of traversal");
    }

    /**
     * Whether a range's bounds (valid under {@code comparator}) run against its order of traversal: such a range
     * selects nothing.
     */
    static boolean backwards(AbstractType comparator, SliceRange range) {
        if (!range.start.hasRemaining() || !range.finish.hasRemaining()) return false;
        AbstractType traversal = range.isReversed() ? comparator.reversed() : comparator;
        return traversal.compare(ThriftConversion.bytes(range.start), ThriftConversion.bytes(range.finish)) > 0;
    }

    /**
     * Whether get_count's {@code predicate} is a slice range whose bounds, valid under their comparator, run against
     * its order of traversal. 3.11's get_count does not check a slice range but counts what it selects: nothing.
     */
    static boolean countsNothing(CFMetaData cf, ColumnParent parent, SlicePredicate predicate) {
        if (!predicate.isSetSlice_range() || predicate.isSetColumn_names()) return false;
        SliceRange range = predicate.getSlice_range();
        AbstractType comparator = parent.super_column != null && cf.isSuper() ? cf.subcomparator() : cf.comparator();
        try {
            NameRules.conforms(comparator, range.start);
            NameRules.conforms(comparator, range.finish);
        } catch (InvalidRequestException e) {
            return false;
        }
        return range.getCount() >= 0 && backwards(comparator, range);
    }

    /**
     * get_multi_slice's request, in 3.11's order after the table: no super table, the parent, then each slice's
     * bounds against the traversal, then the key. Where 3.11 fails on a missing field (every field of the request is
     * optional on the wire) Sibyl names it instead.
     *
     * @return the table
     */
    CFMetaData multiSlice(String keyspace, MultiSliceRequest request) throws InvalidRequestException {
        if (request.column_parent == null) refuse("column_parent is required");
        CFMetaData cf = table(keyspace, request.column_parent.getColumn_family());
        if (cf.isSuper()) refuse("get_multi_slice does not support super columns");
        columnParent(keyspace, request.column_parent);
        if (request.column_slices == null) refuse("column_slices is required");
        if (request.count < 0) refuse("get_slice requires non-negative count");
        for (int i = 0; i < request.column_slices.size(); i++) {
            ColumnSlice slice = request.column_slices.get(i);
            ByteBuffer start = slice.isSetStart() ? slice.start : EMPTY;
            ByteBuffer finish = slice.isSetFinish() ? slice.finish : EMPTY;
            NameRules.conforms(cf.comparator(), start);
            NameRules.conforms(cf.comparator(), finish);
            boolean open = !start.hasRemaining() || !finish.hasRemaining();
            int order = open ? -1 : cf.comparator().compare(ThriftConversion.bytes(start), ThriftConversion.bytes(finish));
            if (!request.reversed && !open && order > 0) {
                refuse("Column slice at index " + i + " had start greater than finish");
            }
            // 3.11 compares a reversed slice's bounds as those of a forward one, start first: an empty start is the
            // bottom, an empty finish the top, and a start equal to the finish sorts before it. So only a slice
            // whose start is above its finish passes (docs/thrift-api-0.7.md §Multi-range slices).
            if (request.reversed && order <= 0) {
                refuse("Reversed column slice at index " + i + " had start less than finish");
            }
        }
        key(request.key);
        return cf;
    }

    /**
     * A KeyRange of get_range_slices. Of the forms 3.11 accepts, Sibyl serves keys to keys and tokens to
     * tokens, without a row filter.
     */
    void keyRange(KeyRange range) throws InvalidRequestException {
        boolean startKey = range.isSetStart_key();
        boolean endKey = range.isSetEnd_key();
        if (startKey == range.isSetStart_token() || endKey == range.isSetEnd_token()) {
            refuse("exactly one each of {start key, start token} and {end key, end token} must be specified");
        }
        if (!startKey && endKey) refuse("start token + end key is not a supported key range");
        if (startKey && endKey) {
            Token start = partitioner.getToken(BinaryKeys.decode(range.start_key));
            Token end = partitioner.getToken(BinaryKeys.decode(range.end_key));
            if (start.compareTo(end) > 0 && end.compareTo(partitioner.getMinimumToken()) != 0) {
                refuse(partitioner.preservesOrder()
                        ? "start key must sort before (or equal to) finish key in your partitioner!"
                        : "start key's token sorts after end key's token.  this is not allowed; you probably should "
                                + "not specify end key at all except with an ordered partitioner");
            }
        }
        if (range.getCount() <= 0) refuse("maxRows must be positive");
        if (startKey && !endKey) refuse("Sibyl does not serve a key range from a start key to an end token yet"
                + " (issue #33)");
        if (!startKey) {
            token("start", range.getStart_token());
            token("end", range.getEnd_token());
        }
    }

    /** A token of the partitioner's, in its string form. */
    Token token(String which, String token) throws InvalidRequestException {
        try {
            return partitioner.fromString(token);
        } catch (IllegalArgumentException e) {
            throw new InvalidRequestException("invalid " + which + " token '" + token + "' for "
                    + partitioner.className() + ": " + e.getMessage());
        }
    }

    // ---- writes

    /**
     * insert's Column under {@code parent} (already checked), as 3.11 checks it; {@code nowSeconds} is the time the
     * write counts its ttl from.
     */
    static void insertedColumn(CFMetaData cf, ColumnParent parent, Column column, int nowSeconds)
            throws InvalidRequestException {
        // The column of a super table lives in a super column: 3.11 asks for it before it checks the name.
        if (cf.isSuper() && parent.super_column == null) {
            refuse("missing mandatory super column name for super CF " + cf.name());
        }
        names(cf, parent.super_column, List.of(column.name));
        columnData(cf, parent.super_column, column, nowSeconds);
    }

    /**
     * cas's columns on table {@code cf} (its key checked already), as 3.11 checks them: not a super table, the
     * updates' names, then each update's ttl, value and timestamp. Of the expected columns 3.11 checks nothing: it
     * takes an empty name as one no column has, and fails on a name or value its comparator or validator does not
     * take (it closes the connection), which Sibyl refuses as it refuses an update's. Absent lists, on which 3.11
     * fails too, are empty ones here (docs/differences.md §The 0.7+ dialect).
     */
    static void cas(CFMetaData cf, List<Column> expected, List<Column> updates, int nowSeconds)
            throws InvalidRequestException {
        if (cf.isSuper()) refuse("CAS does not support supercolumns");
        List<Column> writes = updates == null ? List.of() : updates;
        names(cf, null, writes.stream().map(c -> c.name).toList());
        for (Column c : writes) columnData(cf, null, c, nowSeconds);
        if (expected == null) return;
        for (Column c : expected) {
            if (c.name == null || !c.name.hasRemaining()) continue;
            names(cf, null, List.of(c.name));
            if (c.isSetValue()) value(cf, null, c);
        }
    }

    /** One Mutation of batch_mutate, for table {@code cf}, whose columns' ttls count from {@code nowSeconds}. */
    static void mutation(CFMetaData cf, Mutation mutation, int nowSeconds) throws InvalidRequestException {
        if (mutation.isSetColumn_or_supercolumn() == mutation.isSetDeletion()) {
            refuse("mutation must have one and only one of column_or_supercolumn or deletion");
        }
        if (mutation.isSetColumn_or_supercolumn()) columnOrSuperColumn(cf, mutation.getColumn_or_supercolumn(), nowSeconds);
        else deletion(cf, mutation.getDeletion());
    }

    private static void columnOrSuperColumn(CFMetaData cf, ColumnOrSuperColumn cosc, int nowSeconds)
            throws InvalidRequestException {
        int set = (cosc.isSetColumn() ? 1 : 0) + (cosc.isSetSuper_column() ? 1 : 0)
                + (cosc.isSetCounter_column() ? 1 : 0) + (cosc.isSetCounter_super_column() ? 1 : 0);
        if (set != 1) {
            refuse("ColumnOrSuperColumn must have one (and only one) of column, super_column, counter and "
                    + "counter_super_column");
        }
        ofKind(cf, cosc.isSetCounter_column() || cosc.isSetCounter_super_column());
        if (cosc.isSetCounter_column()) {
            columnPath(cf, null, cosc.getCounter_column().name);
        } else if (cosc.isSetCounter_super_column()) {
            ByteBuffer superColumn = cosc.getCounter_super_column().name;
            for (CounterColumn c : cosc.getCounter_super_column().getColumns()) columnPath(cf, superColumn, c.name);
        } else if (cosc.isSetColumn()) {
            Column c = cosc.getColumn();
            ttl(cf, c, nowSeconds);
            columnPath(cf, null, c.name);
            columnData(cf, null, c, nowSeconds);
        } else {
            ByteBuffer superColumn = cosc.getSuper_column().name;
            for (Column c : cosc.getSuper_column().getColumns()) {
                columnPath(cf, superColumn, c.name);
                columnData(cf, superColumn, c, nowSeconds);
            }
        }
    }

    /**
     * A column's TTL (counted from {@code nowSeconds}), value and timestamp, and then its value against its
     * validation class (column_metadata's for its name, else default_validation_class; in a super column the
     * subcolumn's name decides), refused as 3.11 refuses it: {@code (why) [keyspace][table][name] failed validation},
     * the name as its comparator prints it.
     */
    private static void columnData(CFMetaData cf, ByteBuffer superColumn, Column column, int nowSeconds)
            throws InvalidRequestException {
        ttl(cf, column, nowSeconds);
        if (!column.isSetValue()) refuse("Column value is required");
        if (!column.isSetTimestamp()) refuse("Column timestamp is required");
        value(cf, superColumn, column);
    }

    /** A column's value against its validation class, refused in 3.11's words ({@link #columnData}). */
    private static void value(CFMetaData cf, ByteBuffer superColumn, Column column) throws InvalidRequestException {
        try {
            cf.validators().valueOf(column.name).conform(column.value);
        } catch (MarshalException e) {
            AbstractType names = superColumn != null && cf.isSuper() ? cf.subcomparator() : cf.comparator();
            refuse("(" + e.getMessage() + ") [" + cf.keyspace() + "][" + cf.name() + "]["
                    + names.getString(ThriftConversion.bytes(column.name)) + "] failed validation");
        }
        String index = cf.indexes().nameOf(column.name);
        if (index != null && column.value.remaining() > MAX_INDEXED_VALUE) {
            refuse("Cannot index value of size " + column.value.remaining() + " for index " + index + " on "
                    + cf.keyspace() + "." + cf.name() + "(" + cf.comparator().getString(ThriftConversion.bytes(column.name))
                    + ") (maximum allowed size=" + MAX_INDEXED_VALUE + ")");
        }
    }

    /**
     * A column's ttl as 3.11 checks it (0 is none): not negative, at most 20 years, and, like the table's default
     * when the column has none, not expiring after what a 32-bit count of seconds holds (2038-01-19T03:14:07Z),
     * which 3.11 refuses rather than cap (docs/semantics.md §Expiring columns).
     */
    private static void ttl(CFMetaData cf, Column column, int nowSeconds) throws InvalidRequestException {
        if (!column.isSetTtl()) {
            expiresWithin2038(cf, cf.defaultTimeToLive(), "default ", nowSeconds);
            return;
        }
        int ttl = column.getTtl();
        if (ttl < 0) refuse("ttl must be greater or equal to 0");
        if (ttl > CFMetaData.MAX_TTL) refuse("ttl is too large. requested (" + ttl + ") maximum (" + CFMetaData.MAX_TTL + ")");
        expiresWithin2038(cf, ttl, "", nowSeconds);
    }

    private static void expiresWithin2038(CFMetaData cf, int ttl, String which, int nowSeconds)
            throws InvalidRequestException {
        if (ttl != 0 && (long) nowSeconds + ttl > Integer.MAX_VALUE) {
            refuse("Request on table " + cf.keyspace() + "." + cf.name() + " with " + which + "ttl of " + ttl
                    + " seconds exceeds maximum supported expiration date of 2038-01-19T03:14:06+00:00. In order to"
                    + " avoid this use a lower TTL, change the expiration date overflow policy or upgrade to a version"
                    + " where this limitation is fixed. See CASSANDRA-14092 for more details.");
        }
    }

    private static void deletion(CFMetaData cf, Deletion deletion) throws InvalidRequestException {
        ByteBuffer superColumn = deletion.super_column;
        if (superColumn != null) names(cf, null, List.of(superColumn));
        if (deletion.isSetPredicate()) {
            SlicePredicate predicate = deletion.getPredicate();
            if (!predicate.isSetColumn_names() && !predicate.isSetSlice_range()) {
                refuse("A SlicePredicate must be given a list of Columns, a SliceRange, or both");
            }
            if (predicate.isSetSlice_range()) range(cf, superColumn, predicate.getSlice_range());
            if (predicate.isSetColumn_names()) names(cf, superColumn, predicate.getColumn_names());
        }
        if (!cf.isSuper() && superColumn != null) {
            refuse("Deletion of super columns is not possible on a standard table (KeySpace=" + cf.keyspace()
                    + " Table=" + cf.name() + " Deletion=" + deletion + ")");
        }
        if (!deletion.isSetTimestamp() && !cf.isCounter()) {
            refuse("Deletion timestamp is not optional for non commutative table " + cf.name());
        }
        // 3.11 keeps a super column's subcolumns as a map, which has no range tombstones.
        if (superColumn != null && deletion.isSetPredicate() && deletion.getPredicate().isSetSlice_range()) {
            refuse("Cannot delete a range of subcolumns in a super column");
        }
    }

    /** The largest value an indexed column may have, as 3.11 allows. */
    private static final int MAX_INDEXED_VALUE = 0xFFFF;

    private static void refuse(String why) throws InvalidRequestException {
        throw new InvalidRequestException(why);
    }
}
