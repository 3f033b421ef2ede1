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
 * i16 id unless the type is STOP), so this applies only to that exact protocol class; any other
 * protocol is decoded by the generated code. Deletions and super columns, rare in large batches,
 * are decoded by the generated code as well.
 */
final class BatchMutateArgs extends Cassandra.batch_mutate_args {
    /** batch_mutate with its arguments decoded by {@link BatchMutateArgs}; stateless, so shared. */
    static final class Function extends Cassandra.Processor.batch_mutate<Cassandra.Iface> {
        @Override
        public Cassandra.batch_mutate_args getEmptyArgsInstance() {
            return new BatchMutateArgs();
        }
    }

    @Override
    public void read(TProtocol in) throws TException {
        if (in.getClass() != TBinaryProtocol.class) {
            super.read(in);
            return;
        }
        in.readStructBegin();
        for (byte type = in.readByte(); type != TType.STOP; type = in.readByte()) {
            switch (in.readI16()) {
                case 1 -> {
                    if (type != TType.STRING) {
                        TProtocolUtil.skip(in, type);
                    } else {
                        keyspace = in.readString();
                        setKeyspaceIsSet(true);
                    }
                }
                case 2 -> {
                    if (type != TType.MAP) {
                        TProtocolUtil.skip(in, type);
                    } else {
                        mutation_map = readMutationMap(in);
                        setMutation_mapIsSet(true);
                    }
                }
                case 3 -> {
                    if (type != TType.I32) {
                        TProtocolUtil.skip(in, type);
                    } else {
                        consistency_level = ConsistencyLevel.findByValue(in.readI32());
                        setConsistency_levelIsSet(true);
                    }
                }
                default -> TProtocolUtil.skip(in, type);
            }
            in.readFieldEnd();
        }
        in.readStructEnd();
        validate();
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
        Mutation mutation = new Mutation();
        in.readStructBegin();
        for (byte type = in.readByte(); type != TType.STOP; type = in.readByte()) {
            short id = in.readI16();
            if (type != TType.STRUCT || (id != 1 && id != 2)) {
                TProtocolUtil.skip(in, type);
            } else if (id == 1) {
                mutation.column_or_supercolumn = readColumnOrSuperColumn(in);
                mutation.setColumn_or_supercolumnIsSet(true);
            } else {
                mutation.deletion = new Deletion();
                mutation.deletion.read(in);
                mutation.setDeletionIsSet(true);
            }
            in.readFieldEnd();
        }
        in.readStructEnd();
        mutation.validate();
        return mutation;
    }

    private static ColumnOrSuperColumn readColumnOrSuperColumn(TProtocol in) throws TException {
        ColumnOrSuperColumn cosc = new ColumnOrSuperColumn();
        in.readStructBegin();
        for (byte type = in.readByte(); type != TType.STOP; type = in.readByte()) {
            short id = in.readI16();
            if (type != TType.STRUCT || (id != 1 && id != 2)) {
                TProtocolUtil.skip(in, type);
            } else if (id == 1) {
                cosc.column = readColumn(in);
                cosc.setColumnIsSet(true);
            } else {
                cosc.super_column = new SuperColumn();
                cosc.super_column.read(in);
                cosc.setSuper_columnIsSet(true);
            }
            in.readFieldEnd();
        }
        in.readStructEnd();
        cosc.validate();
        return cosc;
    }

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
