package sibyl.thrift;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.cassandra.thrift.Column;
import org.apache.cassandra.thrift.ColumnOrSuperColumn;
import org.apache.cassandra.thrift.ConsistencyLevel;
import org.apache.cassandra.thrift.Deletion;
import org.apache.cassandra.thrift.Mutation;
import org.apache.cassandra.thrift.SuperColumn;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TList;
import org.apache.thrift.protocol.TMap;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.protocol.TProtocolException;
import org.apache.thrift.protocol.TProtocolUtil;
import org.apache.thrift.protocol.TType;

/**
 * batch_mutate's arguments, decoded into the same structs as the generated code decodes them
 * (same fields, same skipping of unknown or mistyped fields, same required-field errors), but
 * without its garbage per field: the generated readers allocate a TField for every field header
 * and a scheme object for every struct, eight field headers and three schemes for each column of
 * a batch, which made up a sixth of all the bytes a 100-column batch_mutate allocated.
 *
 * <p>Field headers are read as TBinaryProtocol's readFieldBegin reads them (a type byte, then an
 * i16 id unless the type is STOP), so this applies only to that protocol and its subclasses, which
 * read headers alike (the transport's reads field headers into shared TFields); any other protocol
 * is decoded by the generated code. Deletions and super columns, rare in large batches,
 * are decoded by the generated code as well.
 */
final class BatchMutateArgs extends Cassandra.batch_mutate_args {
    @Override
    public void read(TProtocol in) throws TException {
        if (!(in instanceof TBinaryProtocol)) {
            super.read(in);
            return;
        }
        readStruct(in, this, BatchMutateArgs::readArgsField);
        validate();
    }

    /**
     * Decodes one field of a struct into {@code target}, given the field's id and type; answers false,
     * having read nothing, for a field it does not decode (an unknown id, or a known id with another
     * type), which is then skipped.
     */
    @FunctionalInterface
    private interface FieldReader<T> {
        boolean read(TProtocol in, T target, short id, byte type) throws TException;
    }

    /**
     * Reads the fields of a struct into {@code target}, skipping those {@code fields} does not decode,
     * as the generated readers skip unknown and mistyped fields. The field readers are method
     * references that capture nothing, so no object is made per struct but the struct itself.
     */
    private static <T> T readStruct(TProtocol in, T target, FieldReader<T> fields) throws TException {
        in.readStructBegin();
        for (byte type = in.readByte(); type != TType.STOP; type = in.readByte()) {
            short id = in.readI16();
            if (!fields.read(in, target, id, type)) {
                TProtocolUtil.skip(in, type);
            }
            in.readFieldEnd();
        }
        in.readStructEnd();
        return target;
    }

    private static boolean readArgsField(TProtocol in, BatchMutateArgs args, short id, byte type) throws TException {
        if (id == 1 && type == TType.STRING) {
            args.keyspace = in.readString();
            args.setKeyspaceIsSet(true);
        } else if (id == 2 && type == TType.MAP) {
            args.mutation_map = readMutationMap(in);
            args.setMutation_mapIsSet(true);
        } else if (id == 3 && type == TType.I32) {
            args.consistency_level = ConsistencyLevel.findByValue(in.readI32());
            args.setConsistency_levelIsSet(true);
        } else {
            return false;
        }
        return true;
    }

    private static Map<String, Map<String, List<Mutation>>> readMutationMap(TProtocol in) throws TException {
        TMap rows = in.readMapBegin();
        Map<String, Map<String, List<Mutation>>> map = new HashMap<>(2 * rows.size);
        for (int r = 0; r < rows.size; r++) {
            String key = in.readString();
            TMap families = in.readMapBegin();
            Map<String, List<Mutation>> byFamily = new HashMap<>(2 * families.size);
            for (int f = 0; f < families.size; f++) {
                String family = in.readString();
                TList list = in.readListBegin();
                List<Mutation> mutations = new ArrayList<>(list.size);
                for (int m = 0; m < list.size; m++) mutations.add(readMutation(in));
                in.readListEnd();
                byFamily.put(family, mutations);
            }
            in.readMapEnd();
            map.put(key, byFamily);
        }
        in.readMapEnd();
        return map;
    }

    private static Mutation readMutation(TProtocol in) throws TException {
        Mutation mutation = readStruct(in, new Mutation(), BatchMutateArgs::readMutationField);
        mutation.validate();
        return mutation;
    }

    private static boolean readMutationField(TProtocol in, Mutation mutation, short id, byte type) throws TException {
        if (id == 1 && type == TType.STRUCT) {
            mutation.column_or_supercolumn = readColumnOrSuperColumn(in);
            mutation.setColumn_or_supercolumnIsSet(true);
        } else if (id == 2 && type == TType.STRUCT) {
            mutation.deletion = new Deletion();
            mutation.deletion.read(in);
            mutation.setDeletionIsSet(true);
        } else {
            return false;
        }
        return true;
    }

    private static ColumnOrSuperColumn readColumnOrSuperColumn(TProtocol in) throws TException {
        ColumnOrSuperColumn cosc = readStruct(in, new ColumnOrSuperColumn(), BatchMutateArgs::readCoscField);
        cosc.validate();
        return cosc;
    }

    private static boolean readCoscField(TProtocol in, ColumnOrSuperColumn cosc, short id, byte type) throws TException {
        if (id == 1 && type == TType.STRUCT) {
            cosc.column = readColumn(in);
            cosc.setColumnIsSet(true);
        } else if (id == 2 && type == TType.STRUCT) {
            cosc.super_column = new SuperColumn();
            cosc.super_column.read(in);
            cosc.setSuper_columnIsSet(true);
        } else {
            return false;
        }
        return true;
    }

    /**
     * The innermost and most frequent struct, read by a loop of its own rather than through
     * {@link #readStruct}: its three fields are most of the fields of a batch, and a field reader
     * called through the shared loop costs a call the JIT does not inline there.
     */
    private static Column readColumn(TProtocol in) throws TException {
        Column column = new Column();
        in.readStructBegin();
        for (byte type = in.readByte(); type != TType.STOP; type = in.readByte()) {
            short id = in.readI16();
            if (id == 1 && type == TType.STRING) {
                column.name = in.readBinary();
                column.setNameIsSet(true);
            } else if (id == 2 && type == TType.STRING) {
                column.value = in.readBinary();
                column.setValueIsSet(true);
            } else if (id == 3 && type == TType.I64) {
                column.timestamp = in.readI64();
                column.setTimestampIsSet(true);
            } else {
                TProtocolUtil.skip(in, type);
            }
            in.readFieldEnd();
        }
        in.readStructEnd();
        if (!column.isSetTimestamp()) {
            throw new TProtocolException("Required field 'timestamp' was not found in serialized data! Struct: " + column);
        }
        column.validate();
        return column;
    }
}
