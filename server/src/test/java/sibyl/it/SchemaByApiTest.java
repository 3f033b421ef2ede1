package sibyl.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.layered.TFramedTransport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;
import sibyl.iface.v20.Cassandra;
import sibyl.iface.v20.CfDef;
import sibyl.iface.v20.Column;
import sibyl.iface.v20.ColumnParent;
import sibyl.iface.v20.ColumnPath;
import sibyl.iface.v20.ConsistencyLevel;
import sibyl.iface.v20.KsDef;
import sibyl.iface.v20.NotFoundException;
import sibyl.iface.v20.SlicePredicate;
import sibyl.iface.v20.SliceRange;

/**
 * Keyspaces made by API on a real node (docs/configuration.md §Keyspaces made by API): served to both dialects on
 * both backends; and, on the embedded engine, kept across restarts, beside a reload of storage-conf.xml, dropped
 * without their data coming back, and a damaged schema file stopping the start.
 */
@ParameterizedClass
@MethodSource("sibyl.it.TestNode#backends")
class SchemaByApiTest {
    private static final String KS = "ApiKs";

    @Parameter
    TestNode.Backend backend;

    @TempDir
    Path dir;

    @Test
    void aKeyspaceMadeByApiServesBothDialects() throws Exception {
        try (TestNode node = TestNode.start(backend, dir, UnaryOperator.identity(), null)) {
            Cassandra.Client client = v20(node);
            client.system_add_keyspace(keyspace(KS, standard("Cf1", "UTF8Type"), standard("Cf2", "LongType")));
            client.set_keyspace(KS);
            client.insert(utf8("row"), new ColumnParent("Cf1"), column("b", "2"), ConsistencyLevel.ONE);
            client.insert(utf8("row"), new ColumnParent("Cf1"), column("a", "1"), ConsistencyLevel.ONE);
            assertEquals(List.of("a", "b"), names(client, "Cf1"));
            assertEquals(1, client.describe_schema_versions().size());

            org.apache.cassandra.thrift.Cassandra.Client v06 = node.client();
            assertTrue(v06.describe_keyspaces().contains(KS), "0.6's describe_keyspaces lists it");
            assertArrayEquals(bytes("1"), v06.get(KS, "row", new org.apache.cassandra.thrift.ColumnPath("Cf1")
                    .setColumn(bytes("a")), org.apache.cassandra.thrift.ConsistencyLevel.ONE).getColumn().getValue());

            client.system_drop_column_family("Cf2");
            if (backend == TestNode.Backend.CLUSTER) {
                // The cluster's data is the cluster's: a table holding rows is not dropped.
                String why = assertThrows(sibyl.iface.v20.InvalidRequestException.class,
                        () -> client.system_drop_keyspace(KS)).getWhy();
                assertTrue(why.startsWith("Sibyl does not drop ApiKs.Cf1: the cluster's table ") && why.contains("holds rows"),
                        why);
                assertEquals(List.of("Cf1"), client.describe_keyspace(KS).getCf_defs().stream().map(CfDef::getName).toList());
            } else {
                client.system_drop_keyspace(KS);
                assertThrows(NotFoundException.class, () -> client.describe_keyspace(KS));
            }
        }
    }

    @Test
    void madeByApiSurvivesARestartAndADropKeepsItsDataOutOfAColumnFamilyMadeAgain() throws Exception {
        assumeTrue(backend == TestNode.Backend.EMBEDDED, "a cluster node's restart is a new node of the shared cluster");
        try (TestNode node = TestNode.start(dir)) {
            Cassandra.Client client = v20(node);
            client.system_add_keyspace(keyspace(KS, standard("Cf1", "UTF8Type")));
            client.set_keyspace(KS);
            client.system_update_column_family(standard("Cf1", "UTF8Type").setComment("kept"));
            client.insert(utf8("row"), new ColumnParent("Cf1"), column("a", "1"), ConsistencyLevel.ONE);
        }
        try (TestNode node = TestNode.start(dir)) {
            Cassandra.Client client = v20(node);
            CfDef cf = client.describe_keyspace(KS).getCf_defs().get(0);
            assertEquals("org.apache.cassandra.db.marshal.UTF8Type", cf.getComparator_type());
            assertEquals("kept", cf.getComment());
            client.set_keyspace(KS);
            assertArrayEquals(bytes("1"), client.get(utf8("row"), new ColumnPath("Cf1").setColumn(utf8("a")),
                    ConsistencyLevel.ONE).getColumn().getValue());
            client.insert(utf8("row"), new ColumnParent("Cf1"), column("b", "2"), ConsistencyLevel.ONE);
            // An unflushed write of another keyspace keeps the log segment holding "b" until the next start.
            client.set_keyspace("Keyspace1");
            client.insert(utf8("row"), new ColumnParent("Standard1"), column("x", "9"), ConsistencyLevel.ONE);
            client.set_keyspace(KS);

            client.system_drop_column_family("Cf1");
            client.system_add_column_family(standard("Cf1", "UTF8Type"));
            assertEquals(List.of(), names(client, "Cf1"), "made again, empty");
        }
        try (TestNode node = TestNode.start(dir)) {
            Cassandra.Client client = v20(node);
            client.set_keyspace(KS);
            assertEquals(List.of(), names(client, "Cf1"), "the log's entries of the dropped one are not replayed");
        }
        try (Stream<Path> files = Files.walk(dir.resolve("var/data/" + KS + "/snapshots"))) {
            assertTrue(files.anyMatch(f -> f.getParent().getFileName().toString().endsWith("-dropped-Cf1")
                    && f.getFileName().toString().startsWith("Cf1-")), "the dropped data is kept in a snapshot");
        }
    }

    @Test
    void aReloadKeepsTheKeyspacesMadeByApiAndTheFileMayNotTakeTheirNames() throws Exception {
        assumeTrue(backend == TestNode.Backend.EMBEDDED, "the embedded engine's files");
        try (TestNode node = TestNode.start(dir)) {
            v20(node).system_add_keyspace(keyspace(KS, standard("Cf1", "BytesType")));
            Path file = node.confDir().resolve("storage-conf.xml");
            String original = Files.readString(file);
            Files.writeString(file, ConfEdits.addKeyspace(ConfEdits.keyspace("FromFile", 1,
                    "<ColumnFamily Name=\"Std\"/>")).apply(original));
            node.invoke("sibyl:type=Configuration", "reload");
            List<String> names = v20(node).describe_keyspaces().stream().map(KsDef::getName).toList();
            assertTrue(names.contains(KS) && names.contains("FromFile"), names::toString);

            Files.writeString(file, ConfEdits.addKeyspace(ConfEdits.keyspace(KS, 1, "<ColumnFamily Name=\"Std\"/>"))
                    .apply(original));
            String refusal = assertThrows(Exception.class, () -> node.invoke("sibyl:type=Configuration", "reload"))
                    .getMessage();
            assertTrue(refusal.contains("was made by API"), refusal);
            assertEquals(List.of("Cf1"), v20(node).describe_keyspace(KS).getCf_defs().stream().map(CfDef::getName).toList());
        }
    }

    @Test
    void aFileWithoutKeyspacesStartsAndTakesItsSchemaByApi() throws Exception {
        assumeTrue(backend == TestNode.Backend.EMBEDDED, "the embedded engine's files");
        UnaryOperator<String> noKeyspaces = xml -> xml.substring(0, xml.indexOf("<Keyspaces>"))
                + xml.substring(xml.indexOf("</Keyspaces>") + "</Keyspaces>".length());
        try (TestNode node = TestNode.start(dir, noKeyspaces)) {
            Cassandra.Client client = v20(node);
            assertEquals(List.of("system"), client.describe_keyspaces().stream().map(KsDef::getName).toList());
            client.system_add_keyspace(keyspace(KS, standard("Cf1", "BytesType")));
            client.set_keyspace(KS);
            client.insert(utf8("row"), new ColumnParent("Cf1"), column("a", "1"), ConsistencyLevel.ONE);
            assertEquals(List.of("a"), names(client, "Cf1"));
        }
    }

    @Test
    void aDamagedSchemaFileStopsTheStartNamingIt() throws Exception {
        assumeTrue(backend == TestNode.Backend.EMBEDDED, "the embedded engine's files");
        try (TestNode node = TestNode.start(dir)) {
            v20(node).system_add_keyspace(keyspace(KS, standard("Cf1", "BytesType")));
        }
        Path schema = dir.resolve("var/data/system/schema");
        byte[] bytes = Files.readAllBytes(schema);
        bytes[bytes.length / 2] ^= 0x40;
        Files.write(schema, bytes);
        IOException e = assertThrows(IOException.class, () -> TestNode.start(dir));
        assertTrue(e.getMessage().contains(schema.toString()) && e.getMessage().contains("checksum"), e.getMessage());
    }

    private static Cassandra.Client v20(TestNode node) throws Exception {
        TTransport t = new TFramedTransport(new TSocket("127.0.0.1", node.port(), 30_000));
        t.open();
        Cassandra.Client client = new Cassandra.Client(new TBinaryProtocol(t));
        // A call of the 0.7+ dialect only, so that the calls both have answer in it (ThriftDialect is 0.6's).
        client.describe_schema_versions();
        return client;
    }

    private static KsDef keyspace(String name, CfDef... families) {
        for (CfDef cf : families) cf.setKeyspace(name);
        return new KsDef(name, "SimpleStrategy", List.of(families)).setStrategy_options(Map.of("replication_factor", "1"));
    }

    private static CfDef standard(String name, String comparator) {
        return new CfDef(KS, name).setComparator_type(comparator);
    }

    private static List<String> names(Cassandra.Client client, String cf) throws Exception {
        return client.get_slice(utf8("row"), new ColumnParent(cf), new SlicePredicate().setSlice_range(
                        new SliceRange(utf8(""), utf8(""), false, 100)), ConsistencyLevel.ONE).stream()
                .map(c -> new String(c.getColumn().getName(), StandardCharsets.UTF_8)).toList();
    }

    private static Column column(String name, String value) {
        return new Column(utf8(name)).setValue(utf8(value)).setTimestamp(System.currentTimeMillis() * 1000);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static ByteBuffer utf8(String s) {
        return ByteBuffer.wrap(bytes(s));
    }
}
