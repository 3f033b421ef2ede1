package sibyl.client.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import org.apache.thrift.TException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sibyl.iface.v20.Cassandra;
import sibyl.iface.v20.CfDef;
import sibyl.iface.v20.Column;
import sibyl.iface.v20.ColumnDef;
import sibyl.iface.v20.ColumnOrSuperColumn;
import sibyl.iface.v20.ColumnParent;
import sibyl.iface.v20.ConsistencyLevel;
import sibyl.iface.v20.KsDef;
import sibyl.iface.v20.Mutation;
import sibyl.iface.v20.NotFoundException;
import sibyl.iface.v20.SlicePredicate;
import sibyl.iface.v20.SliceRange;
import sibyl.iface.v20.SuperColumn;

/**
 * The types of 0.7 to 3.11 through a real Cassandra 3.11 ({@link Cassandra311Peer}) and through Sibyl, the same
 * schema declared to 3.11 by system_add_keyspace and to Sibyl in storage-conf.xml: the definitions describe_keyspace
 * gives back, the order of random composite names and of slices between random composite bounds (end-of-component
 * bytes -1, 0 and 1, forwards and reversed), and the refusals of names, keys and values that do not validate.
 */
class TypesAgainst311IT {
    private static final String KS = "Types311";
    private static final ConsistencyLevel ONE = ConsistencyLevel.ONE;

    /** A column family of the run: its CfDef for 3.11 and its element for storage-conf.xml. */
    private record Family(String name, String comparator, String subcomparator, String keyType, String valueType,
                          Map<String, String> columns) {
        CfDef cfDef() {
            CfDef def = new CfDef(KS, name).setColumn_type(subcomparator == null ? "Standard" : "Super")
                    .setComparator_type(comparator).setKey_validation_class(keyType).setDefault_validation_class(valueType);
            if (subcomparator != null) def.setSubcomparator_type(subcomparator);
            List<ColumnDef> metadata = new ArrayList<>();
            columns.forEach((n, t) -> metadata.add(new ColumnDef(utf8(n), t)));
            return def.setColumn_metadata(metadata);
        }

        String xml() {
            StringBuilder x = new StringBuilder("      <ColumnFamily Name=\"" + name + "\" CompareWith=\"" + comparator + "\""
                    + (subcomparator == null ? "" : " ColumnType=\"Super\" CompareSubcolumnsWith=\"" + subcomparator + "\"")
                    + " KeyValidationClass=\"" + keyType + "\" DefaultValidationClass=\"" + valueType + "\">\n");
            columns.forEach((n, t) -> x.append("        <Column Name=\"" + n + "\" ValidationClass=\"" + t + "\"/>\n"));
            return x.append("      </ColumnFamily>\n").toString();
        }
    }

    private static final List<Family> FAMILIES = List.of(
            new Family("Comp", "CompositeType(UTF8Type,LongType)", null, "BytesType", "BytesType", Map.of()),
            new Family("CompRev", "CompositeType(ReversedType(Int32Type), AsciiType)", null, "BytesType", "BytesType",
                    Map.of()),
            new Family("Dyn", "DynamicCompositeType(a=>UTF8Type,b=>LongType)", null, "BytesType", "BytesType", Map.of()),
            new Family("Checked", "UTF8Type", null, "LongType", "UTF8Type", Map.of("age", "Int32Type", "ip", "InetAddressType")),
            new Family("Typed", "IntegerType", null, "UUIDType", "TimestampType", Map.of()),
            new Family("SuperChecked", "UTF8Type", "UTF8Type", "AsciiType", "DoubleType", Map.of("b", "BooleanType")));

    private static Cassandra311Peer c311;
    private static LocalNode sibyl;
    private static Cassandra.Client reference;
    private static Cassandra.Client subject;

    @BeforeAll
    static void start(@TempDir Path dir) throws Exception {
        c311 = Cassandra311Peer.shared();
        Cassandra.Client admin = c311.client();
        try {
            try {
                admin.describe_keyspace(KS);
                admin.system_drop_keyspace(KS);
            } catch (NotFoundException absent) {
                // a fresh node
            }
            List<CfDef> defs = new ArrayList<>();
            for (Family f : FAMILIES) defs.add(f.cfDef());
            admin.system_add_keyspace(new KsDef(KS, "org.apache.cassandra.locator.SimpleStrategy", defs)
                    .setStrategy_options(Map.of("replication_factor", "1")));
        } finally {
            Cassandra311Peer.close(admin);
        }
        sibyl = LocalNode.configuredBy(dir, storageConf(Files.readString(LocalNode.home().resolve("conf/storage-conf.xml"))));
        sibyl.start("sibyl");
        reference = Cassandra311Peer.framedClient(c311.thriftPort());
        reference.set_keyspace(KS);
        subject = Cassandra311Peer.framedClient(sibyl.thriftPort());
        subject.set_keyspace(KS);
    }

    @AfterAll
    static void stop() throws InterruptedException {
        if (reference != null) Cassandra311Peer.close(reference);
        if (subject != null) Cassandra311Peer.close(subject);
        if (sibyl != null) sibyl.stop();
    }

    private static String storageConf(String shipped) {
        StringBuilder families = new StringBuilder();
        for (Family f : FAMILIES) families.append(f.xml());
        return Diff07Schema.withKeyspace(shipped, KS, families.toString());
    }

    @Test
    void describeKeyspaceGivesTheTypesAs311() throws TException {
        for (Family f : FAMILIES) {
            CfDef mine = cf(subject, f.name());
            CfDef theirs = cf(reference, f.name());
            assertEquals(theirs.getComparator_type(), mine.getComparator_type(), f.name());
            assertEquals(theirs.getSubcomparator_type(), mine.getSubcomparator_type(), f.name());
            assertEquals(theirs.getKey_validation_class(), mine.getKey_validation_class(), f.name());
            assertEquals(theirs.getDefault_validation_class(), mine.getDefault_validation_class(), f.name());
            assertEquals(columns(theirs), columns(mine), f.name());
        }
    }

    private static CfDef cf(Cassandra.Client client, String name) throws TException {
        return client.describe_keyspace(KS).getCf_defs().stream().filter(d -> d.getName().equals(name)).findFirst()
                .orElseThrow();
    }

    /**
     * The column_metadata, but the entry of empty name 3.11 adds to a super column family's (its subcolumns' map, as
     * 3.11 stores them), which Sibyl leaves out (docs/differences.md §The 0.7+ dialect).
     */
    private static List<String> columns(CfDef def) {
        List<String> columns = new ArrayList<>();
        for (ColumnDef c : def.getColumn_metadata()) {
            if (!c.name.hasRemaining() && "Super".equals(def.getColumn_type())) continue;
            columns.add(StandardCharsets.UTF_8.decode(c.name.duplicate()) + "=" + c.getValidation_class());
        }
        columns.sort(null);
        return columns;
    }

    /** Random composite names into one row of each server; then the whole row and random slices of it, compared. */
    @Test
    void compositeNamesAndSlicesOrderAs311() throws TException {
        long seed = new SecureRandom().nextLong();
        Random random = new Random(seed);
        compareComposites(seed, random, "Comp", r -> composite(r, 2, TypesAgainst311IT::text, TypesAgainst311IT::longValue));
        compareComposites(seed, random, "CompRev", r -> composite(r, 2, TypesAgainst311IT::intValue, TypesAgainst311IT::ascii));
    }

    private static void compareComposites(long seed, Random random, String cf, Function<Random, byte[]> names)
            throws TException {
        ByteBuffer key = utf8("row-" + seed);
        List<Mutation> writes = new ArrayList<>();
        for (int i = 0; i < 120; i++) {
            writes.add(new Mutation().setColumn_or_supercolumn(new ColumnOrSuperColumn().setColumn(
                    new Column(ByteBuffer.wrap(names.apply(random))).setValue(utf8("v" + i)).setTimestamp(i))));
        }
        Map<ByteBuffer, Map<String, List<Mutation>>> batch = Map.of(key, Map.of(cf, writes));
        reference.batch_mutate(batch, ONE);
        subject.batch_mutate(batch, ONE);
        assertEquals(slice(reference, key, cf, new byte[0], new byte[0], false), slice(subject, key, cf, new byte[0], new byte[0], false),
                "seed " + seed + ": the whole row of " + cf);
        for (int i = 0; i < 60; i++) {
            byte[] start = bound(random, names);
            byte[] finish = bound(random, names);
            boolean reversed = random.nextBoolean();
            assertEquals(slice(reference, key, cf, start, finish, reversed), slice(subject, key, cf, start, finish, reversed),
                    "seed " + seed + ": " + cf + " from " + hex(start) + " to " + hex(finish) + (reversed ? " reversed" : ""));
        }
    }

    /** A name of the column family's, or a prefix of one whose last end-of-component byte is -1, 0 or 1; or empty. */
    private static byte[] bound(Random random, Function<Random, byte[]> names) {
        if (random.nextInt(8) == 0) return new byte[0];
        byte[] name = names.apply(random);
        name[name.length - 1] = (byte) (random.nextInt(3) - 1);
        return name;
    }

    /** The names of a slice as hex, in the order the server gave them; or its refusal. */
    private static String slice(Cassandra.Client client, ByteBuffer key, String cf, byte[] start, byte[] finish,
                                boolean reversed) {
        try {
            List<String> names = new ArrayList<>();
            for (ColumnOrSuperColumn c : client.get_slice(key, new ColumnParent(cf), new SlicePredicate().setSlice_range(
                    new SliceRange(ByteBuffer.wrap(start), ByteBuffer.wrap(finish), reversed, 1000)), ONE)) {
                names.add(hex(c.getColumn().getName()));
            }
            return String.join(" ", names);
        } catch (TException e) {
            return e.getClass().getSimpleName() + ": " + why(e);
        }
    }

    private static byte[] composite(Random random, int maxComponents, Function<Random, byte[]> first,
                                    Function<Random, byte[]> second) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int components = 1 + random.nextInt(maxComponents);
        for (int i = 0; i < components; i++) component(out, (i == 0 ? first : second).apply(random), 0);
        return out.toByteArray();
    }

    private static void component(ByteArrayOutputStream out, byte[] value, int eoc) {
        out.write(value.length >> 8);
        out.write(value.length);
        out.writeBytes(value);
        out.write(eoc);
    }

    private static byte[] text(Random random) {
        String[] words = {"", "a", "ab", "b", "é", "z"};
        return words[random.nextInt(words.length)].getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] ascii(Random random) {
        String[] words = {"", "a", "ab", "b", "z"};
        return words[random.nextInt(words.length)].getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] longValue(Random random) {
        long[] values = {Long.MIN_VALUE, -2, -1, 0, 1, 2, 300, Long.MAX_VALUE};
        return ByteBuffer.allocate(8).putLong(values[random.nextInt(values.length)]).array();
    }

    private static byte[] intValue(Random random) {
        int[] values = {Integer.MIN_VALUE, -1, 0, 1, 7, Integer.MAX_VALUE};
        return ByteBuffer.allocate(4).putInt(values[random.nextInt(values.length)]).array();
    }

    /** Writes each server refuses (or takes), with what it says, by insert and by batch_mutate. */
    @Test
    void refusalsAreWordedAs311() throws TException {
        byte[] goodComposite = compositeOf(utf8Bytes("a"), ByteBuffer.allocate(8).putLong(1).array());
        List<String> differences = new ArrayList<>();
        Object[][] writes = {
            // column family, key, super column, name, value
            {"Comp", utf8Bytes("k"), null, new byte[] {0, 5, 'a'}, utf8Bytes("v")},
            {"Comp", utf8Bytes("k"), null, compositeOf(utf8Bytes("a"), new byte[3]), utf8Bytes("v")},
            {"Comp", utf8Bytes("k"), null, compositeOf(new byte[] {(byte) 0xff}), utf8Bytes("v")},
            {"Comp", utf8Bytes("k"), null, compositeOf(utf8Bytes("a"), new byte[8], utf8Bytes("x")), utf8Bytes("v")},
            {"Comp", utf8Bytes("k"), null, new byte[] {0, 1, 'a', 1, 0, 1, 'b', 0}, utf8Bytes("v")},
            {"Comp", utf8Bytes("k"), null, goodComposite, utf8Bytes("v")},
            {"Dyn", utf8Bytes("k"), null, new byte[] {(byte) 0x80, 'z', 0, 1, 'a', 0}, utf8Bytes("v")},
            {"Dyn", utf8Bytes("k"), null, new byte[] {(byte) 0x80, 'b', 0, 1, 'a', 0}, utf8Bytes("v")},
            {"Dyn", utf8Bytes("k"), null, new byte[] {(byte) 0x80}, utf8Bytes("v")},
            {"Checked", new byte[3], null, utf8Bytes("name"), utf8Bytes("v")},
            {"Checked", new byte[8], null, utf8Bytes("name"), new byte[] {(byte) 0xff}},
            {"Checked", new byte[8], null, utf8Bytes("age"), new byte[3]},
            {"Checked", new byte[8], null, utf8Bytes("age"), new byte[4]},
            {"Checked", new byte[8], null, utf8Bytes("ip"), new byte[5]},
            {"Checked", new byte[8], null, new byte[] {(byte) 0xc3}, utf8Bytes("v")},
            {"Typed", new byte[16], null, new byte[] {1}, new byte[3]},
            {"Typed", new byte[15], null, new byte[] {1}, new byte[8]},
            {"SuperChecked", new byte[] {(byte) 0x80}, utf8Bytes("s"), utf8Bytes("x"), new byte[8]},
            {"SuperChecked", utf8Bytes("k"), utf8Bytes("s"), utf8Bytes("x"), new byte[7]},
            {"SuperChecked", utf8Bytes("k"), utf8Bytes("s"), utf8Bytes("b"), new byte[2]},
            {"SuperChecked", utf8Bytes("k"), utf8Bytes("s"), utf8Bytes("b"), new byte[1]},
        };
        for (Object[] w : writes) {
            String what = w[0] + " key " + hex((byte[]) w[1]) + " name " + hex((byte[]) w[3]) + " value " + hex((byte[]) w[4]);
            String theirs = insert(reference, w);
            String mine = insert(subject, w);
            if (!theirs.equals(mine)) differences.add("insert " + what + ": 3.11 " + theirs + ", Sibyl " + mine);
            theirs = batch(reference, w);
            mine = batch(subject, w);
            if (!theirs.equals(mine)) differences.add("batch_mutate " + what + ": 3.11 " + theirs + ", Sibyl " + mine);
        }
        for (byte[] key : List.of(new byte[3], new byte[8])) {
            String theirs = read(reference, key);
            String mine = read(subject, key);
            if (!theirs.equals(mine)) differences.add("get_slice key " + hex(key) + ": 3.11 " + theirs + ", Sibyl " + mine);
        }
        assertEquals(List.of(), differences);
        assertTrue(insert(subject, writes[5]).equals("taken"), "a valid composite name is taken");
    }

    private static String insert(Cassandra.Client client, Object[] w) {
        ColumnParent parent = new ColumnParent((String) w[0]);
        if (w[2] != null) parent.setSuper_column((byte[]) w[2]);
        try {
            client.insert(ByteBuffer.wrap((byte[]) w[1]), parent, column(w), ONE);
            return "taken";
        } catch (TException e) {
            return e.getClass().getSimpleName() + ": " + why(e);
        }
    }

    private static String batch(Cassandra.Client client, Object[] w) {
        ColumnOrSuperColumn cosc = w[2] == null ? new ColumnOrSuperColumn().setColumn(column(w))
                : new ColumnOrSuperColumn().setSuper_column(new SuperColumn(ByteBuffer.wrap((byte[]) w[2]), List.of(column(w))));
        try {
            client.batch_mutate(Map.of(ByteBuffer.wrap((byte[]) w[1]), Map.of((String) w[0],
                    List.of(new Mutation().setColumn_or_supercolumn(cosc)))), ONE);
            return "taken";
        } catch (TException e) {
            return e.getClass().getSimpleName() + ": " + why(e);
        }
    }

    /** A read of a key of Checked (LongType keys): its refusal, or how many columns it found. */
    private static String read(Cassandra.Client client, byte[] key) {
        try {
            return client.get_slice(ByteBuffer.wrap(key), new ColumnParent("Checked"), new SlicePredicate().setSlice_range(
                    new SliceRange(ByteBuffer.allocate(0), ByteBuffer.allocate(0), false, 10)), ONE).size() + " columns";
        } catch (TException e) {
            return e.getClass().getSimpleName() + ": " + why(e);
        }
    }

    private static Column column(Object[] w) {
        return new Column(ByteBuffer.wrap((byte[]) w[3])).setValue((byte[]) w[4]).setTimestamp(1);
    }

    private static String why(TException e) {
        if (e instanceof sibyl.iface.v20.InvalidRequestException ire) return ire.getWhy();
        return String.valueOf(e.getMessage());
    }

    private static byte[] compositeOf(byte[]... components) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] c : components) component(out, c, 0);
        return out.toByteArray();
    }

    private static byte[] utf8Bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static ByteBuffer utf8(String s) {
        return ByteBuffer.wrap(utf8Bytes(s));
    }

    private static String hex(byte[] b) {
        return HexFormat.of().formatHex(b);
    }

    private static String hex(ByteBuffer b) {
        byte[] copy = new byte[b.remaining()];
        b.duplicate().get(copy);
        return hex(copy);
    }
}
