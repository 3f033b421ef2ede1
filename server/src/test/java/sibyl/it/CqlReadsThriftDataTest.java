package sibyl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static sibyl.it.Requests.b;
import static sibyl.it.Requests.longName;
import static sibyl.it.Requests.timeUuid;
import static sibyl.it.Requests.uuid;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.type.DataType;
import com.datastax.oss.driver.api.core.type.DataTypes;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.UnaryOperator;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.cassandra.thrift.Column;
import org.apache.cassandra.thrift.ColumnOrSuperColumn;
import org.apache.cassandra.thrift.ColumnPath;
import org.apache.cassandra.thrift.ConsistencyLevel;
import org.apache.cassandra.thrift.Mutation;
import org.apache.cassandra.thrift.SuperColumn;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a 0.6 application writes through Sibyl in cluster mode is an ordinary CQL table: a plain
 * SELECT through the CQL driver, on the shared local Cassandra, reads back what a Thrift client
 * wrote, with names typed by the column family's comparators (UTF8Type text, LongType bigint,
 * TimeUUIDType timeuuid, BytesType blob), in the comparators' order, values as blobs and the
 * client's timestamps as the cells' write times; deletions made over Thrift hide the cells from
 * CQL too. Standard tables are (key, column1, value), super ones (key, column1, column2, value).
 */
class CqlReadsThriftDataTest {
    private static final String KS = "Cql";
    private static final String PREFIX = "cql" + ProcessHandle.current().pid() + "_";
    private static final ConsistencyLevel ONE = ConsistencyLevel.ONE;
    /*
     * Version 1 UUIDs whose bytes sort otherwise than their times (B, C, A as bytes): CQL's
     * timeuuid must order them by time, as 0.6's TimeUUIDType did.
     */
    private static final UUID TIME_A = timeUuid(0x0_FFFF_FF00L, 1);
    private static final UUID TIME_B = timeUuid(0x1_0000_0100L, 1);
    private static final UUID TIME_C = timeUuid(0x1_8000_0000L, 1);

    @TempDir
    static Path dir;
    static TestNode node;
    static Cassandra.Client thrift;
    static CqlSession cql;

    @BeforeAll
    static void start() throws Exception {
        LocalCassandra cassandra = LocalCassandra.shared();
        node = TestNode.start(dir, schema().andThen(ConfEdits.inCluster(cassandra.contactPoint(1), PREFIX))::apply);
        thrift = node.client();
        cql = CqlSession.builder().addContactPoint(new InetSocketAddress(LocalCassandra.address(1),
                cassandra.nativePort())).withLocalDatacenter("datacenter1").build();
    }

    @AfterAll
    static void stop() {
        if (cql != null) cql.close();
        node.close();
    }

    /** Only this test's keyspace: a standard column family per comparator, and two super ones. */
    private static UnaryOperator<String> schema() {
        return xml -> xml.replaceFirst("(?s)<Keyspaces>.*</Keyspaces>", "<Keyspaces>" + ConfEdits.keyspace(KS, 1,
                standard("ByText", "UTF8Type"), standard("ByLong", "LongType"), standard("ByTime", "TimeUUIDType"),
                standard("ByBytes", "BytesType"), standard("Timeline", "CompositeType(UTF8Type,ReversedType(LongType))"),
                "<ColumnFamily Name=\"Posts\" ColumnType=\"Super\" CompareWith=\"UTF8Type\""
                        + " CompareSubcolumnsWith=\"TimeUUIDType\"/>",
                "<ColumnFamily Name=\"Tallies\" ColumnType=\"Super\" CompareWith=\"LongType\""
                        + " CompareSubcolumnsWith=\"BytesType\"/>") + "</Keyspaces>");
    }

    private static String standard(String name, String comparator) {
        return "<ColumnFamily Name=\"" + name + "\" CompareWith=\"" + comparator + "\"/>";
    }

    @Test
    void standardColumnFamiliesAreTablesWithTypedColumnNames() throws Exception {
        write("ByText", "ada", b("zeta"), "last", 10);
        write("ByText", "ada", b("alpha"), "first", 11);
        write("ByText", "ada", b("Ωmega"), "greek", 12); // UTF-8 bytes above ASCII: after "zeta", as 0.6 sorted
        List<Row> text = select("ByText", "ada");
        assertEquals(DataTypes.TEXT, column1Type(text));
        assertEquals(List.of("alpha", "zeta", "Ωmega"), text.stream().map(r -> r.getString("column1")).toList());
        assertEquals(List.of("first", "last", "greek"), values(text));
        assertEquals(List.of(11L, 10L, 12L), writeTimes(text));

        write("ByLong", "ada", longName(3), "three", 20);
        write("ByLong", "ada", longName(-5), "minus five", 21);
        write("ByLong", "ada", longName(Long.MAX_VALUE), "max", 22);
        List<Row> longs = select("ByLong", "ada");
        assertEquals(DataTypes.BIGINT, column1Type(longs));
        assertEquals(List.of(-5L, 3L, Long.MAX_VALUE), longs.stream().map(r -> r.getLong("column1")).toList());
        assertEquals(List.of("minus five", "three", "max"), values(longs));

        write("ByTime", "ada", uuid(TIME_B), "b", 30);
        write("ByTime", "ada", uuid(TIME_C), "c", 31);
        write("ByTime", "ada", uuid(TIME_A), "a", 32);
        List<Row> times = select("ByTime", "ada");
        assertEquals(DataTypes.TIMEUUID, column1Type(times));
        assertEquals(List.of(TIME_A, TIME_B, TIME_C), times.stream().map(r -> r.getUuid("column1")).toList());
        assertEquals(List.of("a", "b", "c"), values(times));

        write("ByBytes", "ada", b((byte) 0x80), "high", 40);
        write("ByBytes", "ada", b((byte) 0x01, (byte) 0x02), "low", 41);
        write("ByBytes", "ada", b((byte) 0x01), "prefix", 42);
        List<Row> bytes = select("ByBytes", "ada");
        assertEquals(DataTypes.BLOB, column1Type(bytes));
        assertEquals(List.of("01", "0102", "80"), bytes.stream().map(r -> hex(r.getByteBuffer("column1"))).toList());
        assertEquals(List.of("prefix", "low", "high"), values(bytes));

        // A column removed over Thrift is gone for CQL too; a row removed leaves no row.
        thrift.remove(KS, "ada", new ColumnPath("ByLong").setColumn(longName(3)), 23, ONE);
        assertEquals(List.of(-5L, Long.MAX_VALUE), select("ByLong", "ada").stream().map(r -> r.getLong("column1"))
                .toList());
        thrift.remove(KS, "ada", new ColumnPath("ByText"), 50, ONE);
        assertEquals(List.of(), select("ByText", "ada"));
    }

    /** As a 3.x table of that Thrift column family after DROP COMPACT STORAGE: a column per component. */
    @Test
    void aCompositeComparatorsComponentsAreClusteringColumnsInTheirOrders() throws Exception {
        write("Timeline", "ada", composite(b("news"), longName(1)), "old news", 80);
        write("Timeline", "ada", composite(b("news"), longName(7)), "new news", 81);
        write("Timeline", "ada", composite(b("mail"), longName(3)), "mail", 82);
        ResultSet rows = cql.execute(SimpleStatement.newInstance("SELECT column1, column2, value FROM \"" + PREFIX + KS
                + "\".\"Timeline\" WHERE key = ?", ByteBuffer.wrap("ada".getBytes(StandardCharsets.UTF_8))));
        List<String> cells = new ArrayList<>();
        for (Row r : rows) {
            cells.add(r.getString("column1") + "/" + r.getLong("column2") + "=" + text(r.getByteBuffer("value")));
        }
        assertEquals(List.of("mail/3=mail", "news/7=new news", "news/1=old news"), cells);
        assertEquals(List.of(com.datastax.oss.driver.api.core.metadata.schema.ClusteringOrder.ASC,
                com.datastax.oss.driver.api.core.metadata.schema.ClusteringOrder.DESC), List.copyOf(cql.getMetadata()
                .getKeyspace("\"" + PREFIX + KS + "\"").flatMap(k -> k.getTable("\"Timeline\"")).orElseThrow()
                .getClusteringColumns().values()));
    }

    private static ByteBuffer composite(ByteBuffer... components) {
        ByteBuffer name = ByteBuffer.allocate(java.util.Arrays.stream(components).mapToInt(c -> c.remaining() + 3).sum());
        for (ByteBuffer c : components) name.putShort((short) c.remaining()).put(c.duplicate()).put((byte) 0);
        return name.flip();
    }

    @Test
    void superColumnFamiliesAreTablesWithTwoTypedClusteringColumns() throws Exception {
        // One batch_mutate: super columns "drafts" and "posted" of a row of Posts, subcolumns by time.
        Map<String, Map<String, List<Mutation>>> batch = Map.of("grace", Map.of("Posts", List.of(
                superColumn("posted", column(uuid(TIME_C), "third", 60), column(uuid(TIME_A), "first", 61)),
                superColumn("drafts", column(uuid(TIME_B), "idea", 62)))));
        thrift.batch_mutate(KS, batch, ONE);
        List<Row> posts = select("Posts", "grace");
        assertEquals(DataTypes.TEXT, column1Type(posts));
        assertEquals(DataTypes.TIMEUUID, posts.get(0).getColumnDefinitions().get("column2").getType());
        List<String> cells = new ArrayList<>();
        for (Row r : posts) {
            cells.add(r.getString("column1") + "/" + r.getUuid("column2") + "=" + text(r.getByteBuffer("value"))
                    + "@" + r.getLong("writetime(value)"));
        }
        assertEquals(List.of("drafts/" + TIME_B + "=idea@62", "posted/" + TIME_A + "=first@61",
                "posted/" + TIME_C + "=third@60"), cells);

        ColumnPath tally = new ColumnPath("Tallies").setSuper_column(longName(2010)).setColumn(b((byte) 0x0a));
        thrift.insert(KS, "grace", tally, b("ten"), 70, ONE);
        thrift.insert(KS, "grace", tally.deepCopy().setSuper_column(longName(-1)), b("minus one"), 71, ONE);
        List<Row> tallies = select("Tallies", "grace");
        assertEquals(DataTypes.BIGINT, column1Type(tallies));
        assertEquals(DataTypes.BLOB, tallies.get(0).getColumnDefinitions().get("column2").getType());
        assertEquals(List.of(-1L, 2010L), tallies.stream().map(r -> r.getLong("column1")).toList());
        assertEquals(List.of("0a", "0a"), tallies.stream().map(r -> hex(r.getByteBuffer("column2"))).toList());

        // A super column removed over Thrift is a range of rows gone for CQL.
        thrift.remove(KS, "grace", new ColumnPath("Posts").setSuper_column(b("posted")), 63, ONE);
        assertEquals(List.of("drafts"), select("Posts", "grace").stream().map(r -> r.getString("column1")).toList());
    }

    // ---- Thrift

    private static void write(String cf, String key, ByteBuffer name, String value, long timestamp) throws Exception {
        thrift.insert(KS, key, new ColumnPath(cf).setColumn(name), b(value), timestamp, ONE);
    }

    private static Column column(ByteBuffer name, String value, long timestamp) {
        return new Column(name, b(value), timestamp);
    }

    private static Mutation superColumn(String name, Column... columns) {
        return new Mutation().setColumn_or_supercolumn(new ColumnOrSuperColumn()
                .setSuper_column(new SuperColumn(b(name), List.of(columns))));
    }

    // ---- CQL

    /** Every row of one key of the column family's table, in clustering order, with the value's write time. */
    private static List<Row> select(String cf, String key) {
        String columns = cf.equals("Posts") || cf.equals("Tallies") ? "column1, column2" : "column1";
        ResultSet rows = cql.execute(SimpleStatement.newInstance("SELECT " + columns + ", value, writetime(value) FROM \""
                + PREFIX + KS + "\".\"" + cf + "\" WHERE key = ?", ByteBuffer.wrap(key.getBytes(StandardCharsets.UTF_8))));
        return rows.all();
    }

    private static DataType column1Type(List<Row> rows) {
        return rows.get(0).getColumnDefinitions().get("column1").getType();
    }

    private static List<String> values(List<Row> rows) {
        return rows.stream().map(r -> text(r.getByteBuffer("value"))).toList();
    }

    private static List<Long> writeTimes(List<Row> rows) {
        return rows.stream().map(r -> r.getLong("writetime(value)")).toList();
    }

    private static String text(ByteBuffer b) {
        return StandardCharsets.UTF_8.decode(b.duplicate()).toString();
    }

    private static String hex(ByteBuffer b) {
        byte[] bytes = new byte[b.remaining()];
        b.duplicate().get(bytes);
        return HexFormat.of().formatHex(bytes);
    }
}
