package sibyl.thrift;

import java.nio.ByteBuffer;
import java.util.List;
import org.apache.cassandra.thrift.Column;
import org.apache.cassandra.thrift.ColumnOrSuperColumn;
import org.apache.cassandra.thrift.ColumnParent;
import org.apache.cassandra.thrift.ColumnPath;
import org.apache.cassandra.thrift.ConsistencyLevel;
import org.apache.cassandra.thrift.Deletion;
import org.apache.cassandra.thrift.InvalidRequestException;
import org.apache.cassandra.thrift.KeyRange;
import org.apache.cassandra.thrift.Mutation;
import org.apache.cassandra.thrift.SlicePredicate;
import org.apache.cassandra.thrift.SliceRange;
import org.apache.cassandra.thrift.SuperColumn;
import sibyl.db.CFMetaData;
import sibyl.db.KSMetaData;
import sibyl.db.PathShape;
import sibyl.db.marshal.AbstractType;
import sibyl.db.marshal.MarshalException;
import sibyl.dht.Partitioner;
import sibyl.dht.RandomPartitioner;
import sibyl.dht.Token;
import sibyl.service.Schema;

/**
 * The request checks of the 0.6 interface, with 0.6's exact InvalidRequestException texts
 * (docs/thrift-api.md §Validation). Each method checks one part of a request; the handler calls
 * them in 0.6's order (docs/thrift-api.md §Order of checks), so the first of several problems is
 * the one 0.6 would have reported. Where 0.6 answered an internal error, the check reports the
 * problem instead (docs/differences.md §Errors instead of internal errors).
 */
public final class ThriftValidation {
    public static final int MAX_NAME_LENGTH = 0xFFFF;

    private final Schema schema;
    private final Partitioner partitioner;

    /**
     * @param schema the schema one call sees from start to end (a reload may replace the node's meanwhile;
     *               see {@link SchemaViews})
     */
    ThriftValidation(Schema schema, Partitioner partitioner) {
        this.schema = schema;
        this.partitioner = partitioner;
    }

    // ---- keys, keyspaces, column families

    void validateKey(String key) throws InvalidRequestException {
        if (key == null || key.isEmpty()) throw new InvalidRequestException("Key may not be empty");
        long length = modifiedUtf8Length(key);
        if (length > MAX_NAME_LENGTH) {
            throw new InvalidRequestException("Encoded key length of " + length + " is longer than maximum of "
                    + MAX_NAME_LENGTH);
        }
    }

    /** The length of {@code s} in Java's modified UTF-8, which 0.6 wrote keys in. */
    public static long modifiedUtf8Length(String s) {
        long n = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= 0x0001 && c <= 0x007F) n += 1;
            else if (c <= 0x07FF) n += 2;
            else n += 3;
        }
        return n;
    }

    KSMetaData keyspace(String keyspace) throws InvalidRequestException {
        return schema.keyspace(keyspace).orElseThrow(() ->
                new InvalidRequestException("Keyspace " + keyspace + " does not exist in this schema."));
    }

    CFMetaData columnFamily(String keyspace, String cfName) throws InvalidRequestException {
        KSMetaData ks = keyspace(keyspace);
        if (cfName == null || cfName.isEmpty()) {
            throw new InvalidRequestException("non-empty columnfamily is required");
        }
        return ks.columnFamily(cfName).orElseThrow(() ->
                new InvalidRequestException("unconfigured columnfamily " + cfName));
    }

    /**
     * The column family, looked up once for the many names of a batch; null when the keyspace or
     * the column family is unknown or the name empty. Then the checks given it look it up again,
     * and report the problem at the point of the request where 0.6 did.
     */
    CFMetaData knownColumnFamily(String keyspace, String cfName) {
        if (cfName == null || cfName.isEmpty()) return null;
        return schema.columnFamily(keyspace, cfName).orElse(null);
    }

    // ---- paths and parents

    /** The ColumnPath of get and multiget: down to a column, or to a super column of a super CF. */
    CFMetaData validateColumnPath(String keyspace, ColumnPath path) throws InvalidRequestException {
        return validatePath(PathShape.COLUMN, keyspace, path);
    }

    /** insert's ColumnPath: as for get, but it must name a column. */
    CFMetaData validateInsertPath(String keyspace, ColumnPath path) throws InvalidRequestException {
        return notCounters(validatePath(PathShape.INSERT, keyspace, path));
    }

    /**
     * A column family a 0.6 client writes columns into: not a counter column family, whose cells only 0.7+'s add
     * writes (docs/thrift-api-0.7.md §Counters); 0.6 had none, so the text is Sibyl's.
     */
    private static CFMetaData notCounters(CFMetaData cf) throws InvalidRequestException {
        if (cf.isCounter()) {
            throw new InvalidRequestException("column family " + cf.name() + " holds counters (CounterColumnType):"
                    + " they are written by add, which 0.7 and later clients call, not by insert or batch_mutate columns");
        }
        return cf;
    }

    /** remove's ColumnPath: every level below the column family is optional. */
    CFMetaData validateRemovePath(String keyspace, ColumnPath path) throws InvalidRequestException {
        return validatePath(PathShape.REMOVE, keyspace, path);
    }

    /** The ColumnParent of slices, counts and range slices. */
    CFMetaData validateColumnParent(String keyspace, ColumnParent parent) throws InvalidRequestException {
        CFMetaData cf = columnFamily(keyspace, parent.getColumn_family());
        validatePath(PathShape.PARENT, cf, parent.super_column, null);
        return cf;
    }

    private CFMetaData validatePath(PathShape shape, String keyspace, ColumnPath path) throws InvalidRequestException {
        CFMetaData cf = columnFamily(keyspace, path.getColumn_family());
        validatePath(shape, cf, path.super_column, path.column);
        return cf;
    }

    /**
     * A path of the given shape below its column family, in 0.6's order: the shape, the column name (under
     * the super column), the super column name; then what Sibyl refuses that 0.6 let through. The names
     * (null for absent) are the remaining bytes of buffers, which are not changed.
     */
    private static void validatePath(PathShape shape, CFMetaData cf, ByteBuffer superColumn, ByteBuffer column)
            throws InvalidRequestException {
        refuse(shape.problem(cf, superColumn != null, column != null));
        if (column != null) validateName(cf, superColumn, column);
        if (superColumn != null) validateName(cf, null, superColumn);
        refuse(shape.problemAfterNames(cf, superColumn != null, column != null));
    }

    private static void refuse(String problem) throws InvalidRequestException {
        if (problem != null) throw new InvalidRequestException(problem);
    }

    // ---- predicates and key ranges

    /** The SlicePredicate of a read, under {@code parent} (already validated). */
    void validatePredicate(CFMetaData cf, ColumnParent parent, SlicePredicate predicate) throws InvalidRequestException {
        boolean names = predicate != null && predicate.isSetColumn_names();
        boolean range = predicate != null && predicate.isSetSlice_range();
        if (!names && !range) {
            throw new InvalidRequestException("predicate column_names and slice_range may not both be null");
        }
        if (names && range) {
            throw new InvalidRequestException("predicate column_names and slice_range may not both be present");
        }
        ByteBuffer superColumn = parent.super_column;
        if (names) validateNames(cf, superColumn, predicate.getColumn_names());
        else validateRange(cf, superColumn, predicate.getSlice_range());
    }

    private static void validateRange(CFMetaData cf, ByteBuffer superColumn, SliceRange range)
            throws InvalidRequestException {
        validateRange(cf, superColumn, range.start, range.finish, range.isReversed(), range.getCount());
    }

    /** A SliceRange's bounds (remaining bytes of buffers, not changed) under the comparator of their level. */
    public static void validateRange(CFMetaData cf, ByteBuffer superColumn, ByteBuffer start, ByteBuffer finish,
                                     boolean reversed, int count) throws InvalidRequestException {
        AbstractType comparator = comparatorFor(cf, superColumn != null);
        validateBytes(comparator, start);
        validateBytes(comparator, finish);
        if (count < 0) throw new InvalidRequestException("get_slice requires non-negative count");
        AbstractType traversal = reversed ? comparator.reversed() : comparator;
        if (start.hasRemaining() && finish.hasRemaining()
                && traversal.compare(ThriftConversion.bytes(start), ThriftConversion.bytes(finish)) > 0) {
            throw new InvalidRequestException("range finish must come after start in the order of traversal");
        }
    }

    void validateKeyRange(KeyRange range) throws InvalidRequestException {
        if (range.isSetStart_key() != range.isSetEnd_key()) {
            throw new InvalidRequestException("start key and end key must either both be non-null, or both be null");
        }
        if (range.isSetStart_token() != range.isSetEnd_token()) {
            throw new InvalidRequestException(
                    "start token and end token must either both be non-null, or both be null");
        }
        if (range.isSetStart_key() == range.isSetStart_token()) {
            throw new InvalidRequestException(
                    "exactly one of {start key, end key} or {start token, end token} must be specified");
        }
        if (range.isSetStart_key()) {
            Token start = partitioner.getToken(range.getStart_key());
            Token end = partitioner.getToken(range.getEnd_key());
            if (start.compareTo(end) > 0 && end.compareTo(partitioner.getMinimumToken()) != 0) {
                throw new InvalidRequestException(partitioner.preservesOrder()
                        ? "start key must sort before (or equal to) finish key in your partitioner!"
                        : !partitioner.className().equals(RandomPartitioner.CLASS_NAME)
                        // 0.6 had no other hashing partitioner (Murmur3Partitioner is 3.11's): 3.11's words for it
                        ? "start key's token sorts after end key's token.  this is not allowed; you probably should "
                                + "not specify end key at all except with an ordered partitioner"
                        : "start key's md5 sorts after end key's md5.  this is not allowed; you probably should "
                                + "not specify end key at all, under RandomPartitioner");
            }
        }
        if (range.getCount() <= 0) throw new InvalidRequestException("maxRows must be positive");
        if (range.isSetStart_token()) {
            // 0.6 failed with an internal error, after its checks, on a token it could not parse.
            parseToken(partitioner, "start", range.getStart_token());
            parseToken(partitioner, "end", range.getEnd_token());
        }
    }

    private static void parseToken(Partitioner partitioner, String which, String token) throws InvalidRequestException {
        try {
            partitioner.fromString(token);
        } catch (IllegalArgumentException e) {
            throw new InvalidRequestException("invalid " + which + " token '" + token + "' for "
                    + partitioner.className() + ": " + e.getMessage());
        }
    }

    // ---- consistency levels

    void validateReadConsistency(ConsistencyLevel cl) throws InvalidRequestException {
        if (cl == null) throw new InvalidRequestException("unknown consistency level");
        if (cl == ConsistencyLevel.ZERO) {
            throw new InvalidRequestException("Consistency level zero may not be applied to read operations");
        }
        if (cl == ConsistencyLevel.ANY) {
            throw new InvalidRequestException("Consistency level any may not be applied to read operations");
        }
    }

    void validateWriteConsistency(ConsistencyLevel cl) throws InvalidRequestException {
        // Only remove can get here with null (its level is optional on the wire); 0.6 failed internally.
        if (cl == null) throw new InvalidRequestException("unknown consistency level");
    }

    // ---- writes

    /**
     * One ColumnOrSuperColumn of batch_insert or batch_mutate, for column family {@code cfName}:
     * {@code known} when {@link #knownColumnFamily} found it, else null.
     */
    void validateColumnOrSuperColumn(String keyspace, String cfName, CFMetaData known, ColumnOrSuperColumn cosc)
            throws InvalidRequestException {
        if (!cosc.isSetColumn() && !cosc.isSetSuper_column()) {
            throw new InvalidRequestException("ColumnOrSuperColumn must have one or both of Column or SuperColumn");
        }
        // 0.6 skipped every check for a super column without subcolumns; Sibyl still insists the
        // column family exists, so a typo is reported rather than silently ignored.
        CFMetaData cf = notCounters(known != null ? known : columnFamily(keyspace, cfName));
        // The names are read from the structs' fields: the generated getters copy them, twice.
        if (cosc.isSetColumn()) {
            validatePath(PathShape.COLUMN, cf, null, cosc.column.name);
        }
        if (cosc.isSetSuper_column()) {
            SuperColumn sc = cosc.super_column;
            for (Column c : sc.getColumns()) {
                validatePath(PathShape.COLUMN, cf, sc.name, c.name);
            }
        }
    }

    /** One Mutation of batch_mutate; {@code known} as for {@link #validateColumnOrSuperColumn}. */
    void validateMutation(String keyspace, String cfName, CFMetaData known, Mutation mutation)
            throws InvalidRequestException {
        boolean write = mutation.isSetColumn_or_supercolumn();
        boolean delete = mutation.isSetDeletion();
        if (write && delete) {
            throw new InvalidRequestException("Mutation may have either a ColumnOrSuperColumn or a Deletion, but not both");
        }
        if (write) validateColumnOrSuperColumn(keyspace, cfName, known, mutation.column_or_supercolumn);
        else if (delete) validateDeletion(keyspace, cfName, known, mutation.getDeletion());
        else throw new InvalidRequestException("Mutation must have one ColumnOrSuperColumn or one Deletion");
    }

    /**
     * A Deletion with 0.6.3+ meaning, checked in 0.6's order: the predicate (range, then names,
     * under the super column when one is given), then a super column on a standard CF. Sibyl's
     * departures: an unknown keyspace or column family is reported first (0.6 failed
     * internally), a slice_range predicate is accepted, because Sibyl deletes the columns it
     * selects, and last, a super column name no super column can have is refused (0.6 wrote a
     * tombstone for it).
     */
    private void validateDeletion(String keyspace, String cfName, CFMetaData known, Deletion deletion)
            throws InvalidRequestException {
        CFMetaData cf = known != null ? known : columnFamily(keyspace, cfName);
        ByteBuffer superColumn = deletion.super_column;
        SlicePredicate predicate = deletion.getPredicate();
        if (predicate != null) {
            if (!predicate.isSetColumn_names() && !predicate.isSetSlice_range()) {
                throw new InvalidRequestException("A SlicePredicate must be given a list of Columns, a SliceRange, or both");
            }
            if (predicate.isSetSlice_range()) validateRange(cf, superColumn, predicate.getSlice_range());
            if (predicate.isSetColumn_names()) validateNames(cf, superColumn, predicate.getColumn_names());
        }
        if (superColumn != null) {
            if (!cf.isSuper()) {
                throw new InvalidRequestException("deletion of super_column is not possible on a standard ColumnFamily"
                        + " (KeySpace=" + keyspace + " ColumnFamily=" + cfName + " Deletion=" + deletion + ")");
            }
            validateName(cf, null, superColumn);
        }
    }

    // ---- names: each the remaining bytes of a buffer of the request, which is left as it was

    /**
     * 0.6's validateColumns: the super column's shape (when given), then each name's length and
     * its validity under the comparator that orders it.
     */
    private static void validateNames(CFMetaData cf, ByteBuffer superColumn, List<ByteBuffer> names)
            throws InvalidRequestException {
        if (superColumn != null) validateSuperColumnName(cf, superColumn.remaining());
        AbstractType comparator = comparatorFor(cf, superColumn != null);
        for (ByteBuffer name : names) validateName(comparator, name);
    }

    /** As {@link #validateNames} for one name, without making a list of it. */
    private static void validateName(CFMetaData cf, ByteBuffer superColumn, ByteBuffer name)
            throws InvalidRequestException {
        if (superColumn != null) validateSuperColumnName(cf, superColumn.remaining());
        validateName(comparatorFor(cf, superColumn != null), name);
    }

    private static void validateSuperColumnName(CFMetaData cf, int length) throws InvalidRequestException {
        if (length > MAX_NAME_LENGTH) {
            throw new InvalidRequestException("supercolumn name length must not be greater than " + MAX_NAME_LENGTH);
        }
        if (length == 0) throw new InvalidRequestException("supercolumn name must not be empty");
        if (!cf.isSuper()) {
            throw new InvalidRequestException("supercolumn specified to ColumnFamily " + cf.name()
                    + " containing normal columns");
        }
    }

    private static void validateName(AbstractType comparator, ByteBuffer name) throws InvalidRequestException {
        if (name.remaining() > MAX_NAME_LENGTH) {
            throw new InvalidRequestException("column name length must not be greater than " + MAX_NAME_LENGTH);
        }
        if (!name.hasRemaining()) throw new InvalidRequestException("column name must not be empty");
        validateBytes(comparator, name);
    }

    /** Only the comparator's check, for slice bounds, which may be empty. */
    private static void validateBytes(AbstractType comparator, ByteBuffer bytes) throws InvalidRequestException {
        try {
            comparator.validate(bytes);
        } catch (MarshalException e) {
            throw new InvalidRequestException(e.getMessage());
        }
    }

    /** Names under a super column are ordered by the subcomparator; all others by the comparator. */
    private static AbstractType comparatorFor(CFMetaData cf, boolean underSuperColumn) {
        return underSuperColumn && cf.isSuper() ? cf.subcomparator() : cf.comparator();
    }

}
