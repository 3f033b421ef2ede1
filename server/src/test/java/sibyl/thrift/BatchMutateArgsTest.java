package sibyl.thrift;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.cassandra.thrift.Column;
import org.apache.cassandra.thrift.ColumnOrSuperColumn;
import org.apache.cassandra.thrift.ConsistencyLevel;
import org.apache.cassandra.thrift.Deletion;
import org.apache.cassandra.thrift.Mutation;
import org.apache.cassandra.thrift.SlicePredicate;
import org.apache.cassandra.thrift.SuperColumn;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TField;
import org.apache.thrift.protocol.TList;
import org.apache.thrift.protocol.TMap;
import org.apache.thrift.protocol.TStruct;
import org.apache.thrift.protocol.TType;
import org.apache.thrift.transport.TMemoryBuffer;
import org.apache.thrift.transport.TMemoryInputTransport;
import org.junit.jupiter.api.Test;

/**
 * {@link BatchMutateArgs} decodes exactly what the generated batch_mutate_args decodes, from
 * the same bytes: equal structs, the same bytes consumed, the same errors.
 */
class BatchMutateArgsTest {
    @Test
    void decodesRandomBatchesWithUnknownAndMistypedFieldsAsTheGeneratedCodeDoes() throws TException {
        long seed = System.nanoTime();
        System.out.println("BatchMutateArgsTest seed " + seed);
        Random r = new Random(seed);
        for (int round = 0; round < 300; round++) {
            Cassandra.batch_mutate_args args = randomArgs(r);
            TMemoryBuffer buffer = new TMemoryBuffer(1024);
            args.write(new NoisyProtocol(buffer, r, round % 2 == 0 ? 0 : 0.2));
            byte[] bytes = Arrays.copyOf(buffer.getArray(), buffer.length());
            assertSameDecoding(bytes, "seed " + seed + " round " + round);
        }
    }

    @Test
    void aColumnWithoutTimestampOrNameFailsAsTheGeneratedCodeFails() throws TException {
        assertSameDecoding(batchOfOneColumn(true, false), "no timestamp");
        assertSameDecoding(batchOfOneColumn(false, true), "no name");
    }

    /** A batch_mutate_args of one column, written field by field so that required fields can be left out. */
    private static byte[] batchOfOneColumn(boolean name, boolean timestamp) throws TException {
        TMemoryBuffer buffer = new TMemoryBuffer(256);
        TBinaryProtocol out = new TBinaryProtocol(buffer);
        out.writeStructBegin(new TStruct("batch_mutate_args"));
        out.writeFieldBegin(new TField("keyspace", TType.STRING, (short) 1));
        out.writeString("Keyspace1");
        out.writeFieldBegin(new TField("mutation_map", TType.MAP, (short) 2));
        out.writeMapBegin(new TMap(TType.STRING, TType.MAP, 1));
        out.writeString("key");
        out.writeMapBegin(new TMap(TType.STRING, TType.LIST, 1));
        out.writeString("Standard1");
        out.writeListBegin(new TList(TType.STRUCT, 1));
        out.writeFieldBegin(new TField("column_or_supercolumn", TType.STRUCT, (short) 1));
        out.writeFieldBegin(new TField("column", TType.STRUCT, (short) 1));
        if (name) {
            out.writeFieldBegin(new TField("name", TType.STRING, (short) 1));
            out.writeBinary(ByteBuffer.wrap(new byte[] {'c'}));
        }
        out.writeFieldBegin(new TField("value", TType.STRING, (short) 2));
        out.writeBinary(ByteBuffer.wrap(new byte[] {'v'}));
        if (timestamp) {
            out.writeFieldBegin(new TField("timestamp", TType.I64, (short) 3));
            out.writeI64(5);
        }
        out.writeFieldStop(); // column
        out.writeFieldStop(); // column_or_supercolumn
        out.writeFieldStop(); // mutation
        out.writeFieldStop(); // args
        return Arrays.copyOf(buffer.getArray(), buffer.length());
    }

    private static void assertSameDecoding(byte[] bytes, String where) throws TException {
        TMemoryInputTransport generatedIn = new TMemoryInputTransport(bytes);
        TMemoryInputTransport oursIn = new TMemoryInputTransport(bytes);
        Cassandra.batch_mutate_args generated = new Cassandra.batch_mutate_args();
        BatchMutateArgs ours = new BatchMutateArgs();
        String generatedError = failure(() -> generated.read(new TBinaryProtocol(generatedIn)));
        String ourError = failure(() -> ours.read(new TBinaryProtocol(oursIn)));
        assertEquals(generatedError, ourError, where);
        if (generatedError == null) {
            assertTrue(generated.equals(ours), where + ": " + generated + " decoded as " + ours);
            assertEquals(generatedIn.getBytesRemainingInBuffer(), oursIn.getBytesRemainingInBuffer(), where);
        }
    }

    private interface Decoding {
        void run() throws TException;
    }

    /** The exception's class and its message up to any "Struct:" (which names a struct by identity), or null. */
    private static String failure(Decoding decoding) {
        try {
            decoding.run();
            return null;
        } catch (TException | RuntimeException e) {
            String message = String.valueOf(e.getMessage());
            int struct = message.indexOf("Struct:");
            return e.getClass().getName() + ": " + (struct < 0 ? message : message.substring(0, struct));
        }
    }

    private static Cassandra.batch_mutate_args randomArgs(Random r) {
        Map<String, Map<String, List<Mutation>>> rows = new HashMap<>();
        int keys = r.nextInt(4);
        for (int k = 0; k < keys; k++) {
            Map<String, List<Mutation>> families = new HashMap<>();
            int cfs = r.nextInt(3);
            for (int f = 0; f < cfs; f++) {
                List<Mutation> mutations = new ArrayList<>();
                int n = r.nextInt(20);
                for (int m = 0; m < n; m++) mutations.add(randomMutation(r));
                families.put("CF" + f, mutations);
            }
            rows.put("key" + k, families);
        }
        Cassandra.batch_mutate_args args = new Cassandra.batch_mutate_args().setKeyspace("Keyspace1").setMutation_map(rows);
        if (r.nextBoolean()) args.setConsistency_level(ConsistencyLevel.values()[r.nextInt(ConsistencyLevel.values().length)]);
        return args;
    }

    private static Mutation randomMutation(Random r) {
        Mutation m = new Mutation();
        switch (r.nextInt(6)) {
            case 0 -> {
                SuperColumn sc = new SuperColumn(ByteBuffer.wrap(bytes(r)), new ArrayList<>());
                int subs = r.nextInt(4);
                for (int i = 0; i < subs; i++) sc.addToColumns(randomColumn(r));
                m.setColumn_or_supercolumn(new ColumnOrSuperColumn().setSuper_column(sc));
            }
            case 1 -> {
                Deletion d = new Deletion(r.nextLong());
                if (r.nextBoolean()) d.setSuper_column(bytes(r));
                if (r.nextBoolean()) d.setPredicate(new SlicePredicate().setColumn_names(List.of(ByteBuffer.wrap(bytes(r)))));
                m.setDeletion(d);
            }
            case 2 -> {
                // Both, and neither: decoding accepts them; validation refuses them later.
                m.setColumn_or_supercolumn(new ColumnOrSuperColumn().setColumn(randomColumn(r)));
                if (r.nextBoolean()) m.setDeletion(new Deletion(r.nextLong()));
                else m.unsetColumn_or_supercolumn();
            }
            default -> m.setColumn_or_supercolumn(new ColumnOrSuperColumn().setColumn(randomColumn(r)));
        }
        return m;
    }

    private static Column randomColumn(Random r) {
        return new Column(ByteBuffer.wrap(bytes(r)), ByteBuffer.wrap(bytes(r)), r.nextLong());
    }

    private static byte[] bytes(Random r) {
        byte[] b = new byte[r.nextInt(40)];
        r.nextBytes(b);
        return b;
    }

    /**
     * Writes as TBinaryProtocol does, but now and then puts before a field one the reader must
     * skip: an unknown id, or the field's own id with another type.
     */
    private static final class NoisyProtocol extends TBinaryProtocol {
        private final Random random;
        private final double noise;

        NoisyProtocol(TMemoryBuffer buffer, Random random, double noise) {
            super(buffer);
            this.random = random;
            this.noise = noise;
        }

        @Override
        public void writeFieldBegin(TField field) throws TException {
            if (random.nextDouble() < noise) {
                boolean unknownId = random.nextBoolean();
                short id = unknownId ? (short) (100 + random.nextInt(100)) : field.id;
                byte type = field.type == TType.I32 ? TType.STRING : TType.I32;
                super.writeFieldBegin(new TField("noise", type, id));
                if (type == TType.I32) writeI32(random.nextInt());
                else writeString("noise");
            }
            super.writeFieldBegin(field);
        }
    }
}
