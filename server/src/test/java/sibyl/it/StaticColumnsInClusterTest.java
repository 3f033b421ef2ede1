package sibyl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.schema.ColumnMetadata;
import com.datastax.oss.driver.api.core.metadata.schema.TableMetadata;
import com.datastax.oss.driver.api.core.type.DataTypes;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.layered.TFramedTransport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sibyl.iface.v20.Cassandra;
import sibyl.iface.v20.CfDef;
import sibyl.iface.v20.ColumnDef;
import sibyl.iface.v20.Column;
import sibyl.iface.v20.ColumnOrSuperColumn;
import sibyl.iface.v20.ColumnParent;
import sibyl.iface.v20.ColumnPath;
import sibyl.iface.v20.ConsistencyLevel;
import sibyl.iface.v20.InvalidRequestException;
import sibyl.iface.v20.KsDef;
import sibyl.iface.v20.SlicePredicate;
import sibyl.iface.v20.SliceRange;

/**
 * In cluster mode a standard column family's column_metadata columns are static columns of its table, as 3.11 makes
 * them (docs/configuration.md §Cluster): a CQL user sees each under the comparator's text of its name, typed by its
 * validation class, with the Thrift client's timestamps and ttls, and a Thrift client reads what CQL writes there. A
 * table made before, without those columns, keeps its layout and serves; one whose static columns do not match the
 * declared ones stops the start with why.
 */
class StaticColumnsInClusterTest {
    private static final String KS = "Declared";
    private static final ConsistencyLevel ONE = ConsistencyLevel.ONE;
    private static final String PEOPLE = "<ColumnFamily Name=\"People\" CompareWith=\"UTF8Type\">"
            + "<Column Name=\"name\" ValidationClass=\"UTF8Type\"/><Column Name=\"age\" ValidationClass=\"LongType\"/>"
            + "<Column Name=\"Mixed Case\" ValidationClass=\"Int32Type\"/></ColumnFamily>"
            + "<ColumnFamily Name=\"Hex\" CompareWith=\"BytesType\"><Column Name=\"ab\" ValidationClass=\"LongType\"/>"
            + "</ColumnFamily>";

    static CqlSession cql;

    @BeforeAll
    static void connect() throws Exception {
        LocalCassandra cassandra = LocalCassandra.shared();
        cql = CqlSession.builder().addContactPoint(new InetSocketAddress(LocalCassandra.address(1),
                cassandra.nativePort())).withLocalDatacenter("datacenter1").build();
    }

    @AfterAll
    static void close() {
        if (cql != null) cql.close();
    }

    @Test
    void aCqlUserSeesDeclaredColumnsAsStaticColumns(@TempDir Path dir) throws Exception {
        String prefix = "st" + ProcessHandle.current().pid() + "_";
        try (TestNode node = start(dir, prefix, PEOPLE); Client thrift = new Client(node.port())) {
            thrift.insert("ada", "People", column("name", utf8("Ada"), 10).setTtl(600));
            thrift.insert("ada", "People", column("age", ByteBuffer.allocate(8).putLong(0, 36).array(), 11));
            thrift.insert("ada", "People", column("Mixed Case", ByteBuffer.allocate(4).putInt(0, 3).array(), 12));
            thrift.insert("ada", "People", column("x", utf8("dynamic"), 13));
            thrift.insert("bob", "People", column("name", utf8("Bob"), 14));
            thrift.insert("ada", "Hex", column("ab", ByteBuffer.allocate(8).putLong(0, 5).array(), 15));

            TableMetadata people = table(prefix + KS, "People");
            assertStatic(people, "name", DataTypes.TEXT);
            assertStatic(people, "age", DataTypes.BIGINT);
            assertStatic(people, "Mixed Case", DataTypes.INT);
            assertFalse(people.getColumn("x").isPresent(), "an undeclared name is no column");
            assertStatic(table(prefix + KS, "Hex"), "6162", DataTypes.BIGINT);

            String from = " FROM \"" + prefix + KS + "\".\"People\" WHERE key = ";
            List<Row> ada = cql.execute("SELECT column1, value, name, age, \"Mixed Case\", writetime(name), ttl(name),"
                    + " writetime(age)" + from + "0x616461").all();
            assertEquals(1, ada.size(), "one clustering row, x, carrying the static values");
            Row row = ada.get(0);
            assertEquals("x", row.getString("column1"));
            assertEquals("dynamic", StandardCharsets.UTF_8.decode(row.getByteBuffer("value")).toString());
            assertEquals("Ada", row.getString("name"));
            assertEquals(36L, row.getLong("age"));
            assertEquals(3, row.getInt("\"Mixed Case\""));
            assertEquals(10L, row.getLong(5));
            assertTrue(row.getInt(6) > 0 && row.getInt(6) <= 600, "ttl " + row.getInt(6));
            assertEquals(11L, row.getLong(7));
            Row bob = cql.execute("SELECT column1, name" + from + "0x626f62").one();
            assertNull(bob.getString("column1"), "a row of declared columns only has no clustering row");
            assertEquals("Bob", bob.getString("name"));

            // what CQL writes in a static column is the declared column for Thrift
            cql.execute(SimpleStatement.newInstance("UPDATE \"" + prefix + KS + "\".\"People\" USING TIMESTAMP 20 SET"
                    + " age = 37 WHERE key = 0x616461"));
            ColumnOrSuperColumn age = thrift.client.get(key("ada"), new ColumnPath("People").setColumn(utf8("age")),
                    ONE);
            assertEquals(37L, age.getColumn().bufferForValue().getLong());
            assertEquals(20L, age.getColumn().getTimestamp());
            List<String> names = thrift.client.get_slice(key("ada"), new ColumnParent("People"), new SlicePredicate()
                    .setSlice_range(new SliceRange(ByteBuffer.allocate(0), ByteBuffer.allocate(0), false, 100)), ONE)
                    .stream().map(c -> new String(c.getColumn().getName(), StandardCharsets.UTF_8)).toList();
            assertEquals(List.of("Mixed Case", "age", "name", "x"), names, "one row in the comparator's order");

            InvalidRequestException cas = assertThrows(InvalidRequestException.class, () -> thrift.client.cas(
                    key("ada"), "People", List.of(), List.of(column("x", utf8("swapped"), 30)),
                    ConsistencyLevel.SERIAL, ONE));
            assertTrue(cas.getWhy().contains("cas is not served on column family People, whose table holds its"
                    + " column_metadata's columns as static columns"), cas.getWhy());
        }
    }

    @Test
    void aTableMadeWithoutStaticColumnsKeepsItsLayout(@TempDir Path dir) throws Exception {
        String prefix = "so" + ProcessHandle.current().pid() + "_";
        String plain = "<ColumnFamily Name=\"People\" CompareWith=\"UTF8Type\"/>";
        try (TestNode node = start(dir.resolve("first"), prefix, plain); Client thrift = new Client(node.port())) {
            thrift.insert("ada", "People", column("name", utf8("before"), 5));
        }
        try (TestNode node = start(dir.resolve("second"), prefix, PEOPLE); Client thrift = new Client(node.port())) {
            assertFalse(table(prefix + KS, "People").getColumn("name").isPresent(), "Sibyl alters no table at start");
            assertEquals("before", value(thrift, "ada", "name"));
            thrift.insert("ada", "People", column("name", utf8("after"), 6));
            assertEquals("after", value(thrift, "ada", "name"));
            Row stored = cql.execute("SELECT value FROM \"" + prefix + KS + "\".\"People\" WHERE key = 0x616461 AND"
                    + " column1 = 'name'").one();
            assertEquals("after", StandardCharsets.UTF_8.decode(stored.getByteBuffer(0)).toString());

            thrift.client.system_add_keyspace(new KsDef("Other", "org.apache.cassandra.locator.SimpleStrategy",
                    List.of(new CfDef("Other", "Things"))).setStrategy_options(Map.of("replication_factor", "1")));
            assertFalse(table(prefix + KS, "People").getColumn("name").isPresent(),
                    "a schema change of another column family alters no table of an entry declared before");
        }

        String table = "\"" + prefix + KS + "\".\"People\"";
        cql.execute(SimpleStatement.newInstance("ALTER TABLE " + table + " ADD stray text STATIC")
                .setTimeout(java.time.Duration.ofSeconds(30)));
        String why = refusal(dir.resolve("third"), prefix);
        assertTrue(why.contains("ColumnFamily[@Name='People']") && why.contains("has the static column stray text,"
                + " which no column_metadata entry of the column family declares"), why);

        cql.execute(SimpleStatement.newInstance("ALTER TABLE " + table + " DROP stray")
                .setTimeout(java.time.Duration.ofSeconds(30)));
        cql.execute(SimpleStatement.newInstance("ALTER TABLE " + table + " ADD age text STATIC")
                .setTimeout(java.time.Duration.ofSeconds(30)));
        why = refusal(dir.resolve("fourth"), prefix);
        assertTrue(why.contains("has the column age text where column_metadata's column age needs bigint STATIC"),
                why);
    }

    @Test
    void aColumnFamilyChangedByApiGainsItsColumnsOrIsRefusedWithWhy(@TempDir Path dir) throws Exception {
        String prefix = "sa" + ProcessHandle.current().pid() + "_";
        try (TestNode node = start(dir, prefix, PEOPLE); Client thrift = new Client(node.port())) {
            CfDef def = new CfDef("ByApi", "Cards").setComparator_type("UTF8Type").setColumn_metadata(List.of(
                    new ColumnDef(ByteBuffer.wrap(utf8("title")), "UTF8Type")));
            thrift.client.system_add_keyspace(new KsDef("ByApi", "org.apache.cassandra.locator.SimpleStrategy",
                    List.of(def)).setStrategy_options(Map.of("replication_factor", "1")));
            thrift.client.set_keyspace("ByApi");
            assertStatic(table(prefix + "ByApi", "Cards"), "title", DataTypes.TEXT);
            thrift.client.insert(key("c"), new ColumnParent("Cards"), column("due", utf8("before"), 5), ONE);

            thrift.client.system_update_column_family(def.deepCopy().setColumn_metadata(List.of(
                    new ColumnDef(ByteBuffer.wrap(utf8("title")), "UTF8Type"),
                    new ColumnDef(ByteBuffer.wrap(utf8("due")), "UTF8Type"))));
            assertStatic(table(prefix + "ByApi", "Cards"), "due", DataTypes.TEXT);
            ColumnPath due = new ColumnPath("Cards").setColumn(utf8("due"));
            assertEquals("before", new String(thrift.client.get(key("c"), due, ONE).getColumn().getValue(),
                    StandardCharsets.UTF_8), "what the name held before its column is still read");
            thrift.client.insert(key("c"), new ColumnParent("Cards"), column("due", utf8("older"), 4), ONE);
            assertEquals("before", new String(thrift.client.get(key("c"), due, ONE).getColumn().getValue(),
                    StandardCharsets.UTF_8), "an older write loses");
            thrift.client.insert(key("c"), new ColumnParent("Cards"), column("due", utf8("newer"), 6), ONE);
            assertEquals("newer", new String(thrift.client.get(key("c"), due, ONE).getColumn().getValue(),
                    StandardCharsets.UTF_8));

            InvalidRequestException retyped = assertThrows(InvalidRequestException.class,
                    () -> thrift.client.system_update_column_family(def.deepCopy().setColumn_metadata(List.of(
                            new ColumnDef(ByteBuffer.wrap(utf8("title")), "LongType"),
                            new ColumnDef(ByteBuffer.wrap(utf8("due")), "UTF8Type")))));
            assertTrue(retyped.getWhy().contains("has the column title text where column_metadata's column title"
                    + " needs bigint STATIC"), retyped.getWhy());
            InvalidRequestException dropped = assertThrows(InvalidRequestException.class,
                    () -> thrift.client.system_update_column_family(def));
            assertTrue(dropped.getWhy().contains("has the static column due text, which no column_metadata entry"),
                    dropped.getWhy());
            assertEquals("newer", new String(thrift.client.get(key("c"), due, ONE).getColumn().getValue(),
                    StandardCharsets.UTF_8), "a refused change changes nothing");
        }
    }

    private static String refusal(Path dir, String prefix) {
        Exception refused = assertThrows(Exception.class, () -> start(dir, prefix, PEOPLE).close());
        return String.valueOf(refused.getMessage());
    }

    private static TestNode start(Path dir, String prefix, String columnFamilies) throws Exception {
        UnaryOperator<String> schema = xml -> xml.replaceFirst("(?s)<Keyspaces>.*</Keyspaces>", "<Keyspaces>"
                + ConfEdits.keyspace(KS, 1, columnFamilies) + "</Keyspaces>");
        return TestNode.start(TestNode.Backend.EMBEDDED, dir, ConfEdits.all(schema,
                ConfEdits.inCluster(LocalCassandra.shared().contactPoint(1), prefix)), null);
    }

    private static TableMetadata table(String keyspace, String name) {
        cql.refreshSchema();
        return cql.getMetadata().getKeyspace(CqlIdentifier.fromInternal(keyspace))
                .flatMap(k -> k.getTable(CqlIdentifier.fromInternal(name))).orElseThrow();
    }

    private static void assertStatic(TableMetadata table, String column, Object type) {
        ColumnMetadata c = table.getColumn(CqlIdentifier.fromInternal(column)).orElseThrow(() -> new AssertionError(
                table.getName() + " has no column " + column + ": " + table.getColumns().keySet()));
        assertTrue(c.isStatic(), column + " is static");
        assertEquals(type, c.getType(), column);
    }

    private static String value(Client thrift, String key, String name) throws Exception {
        return new String(thrift.client.get(key(key), new ColumnPath("People").setColumn(utf8(name)), ONE).getColumn()
                .getValue(), StandardCharsets.UTF_8);
    }

    private static Column column(String name, byte[] value, long timestamp) {
        return new Column(ByteBuffer.wrap(utf8(name))).setValue(value).setTimestamp(timestamp);
    }

    private static ByteBuffer key(String k) {
        return ByteBuffer.wrap(utf8(k));
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** A 0.7+ client with the keyspace set. */
    private static final class Client implements AutoCloseable {
        private final TTransport transport;
        final Cassandra.Client client;

        Client(int port) throws Exception {
            transport = new TFramedTransport(new TSocket("127.0.0.1", port, 30_000));
            transport.open();
            client = new Cassandra.Client(new TBinaryProtocol(transport));
            client.set_keyspace(KS);
        }

        void insert(String key, String cf, Column column) throws Exception {
            client.insert(key(key), new ColumnParent(cf), column, ONE);
        }

        @Override
        public void close() {
            transport.close();
        }
    }
}
