import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.cassandra.thrift.CfDef;
import org.apache.cassandra.thrift.Column;
import org.apache.cassandra.thrift.ColumnDef;
import org.apache.cassandra.thrift.ColumnOrSuperColumn;
import org.apache.cassandra.thrift.ColumnParent;
import org.apache.cassandra.thrift.ConsistencyLevel;
import org.apache.cassandra.thrift.IndexClause;
import org.apache.cassandra.thrift.IndexExpression;
import org.apache.cassandra.thrift.IndexOperator;
import org.apache.cassandra.thrift.IndexType;
import org.apache.cassandra.thrift.KeySlice;
import org.apache.cassandra.thrift.KsDef;
import org.apache.cassandra.thrift.Mutation;
import org.apache.cassandra.thrift.SlicePredicate;
import org.apache.cassandra.thrift.SliceRange;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TFramedTransport;
import org.apache.thrift.transport.TSocket;

/**
 * The indexed read of bench/run-index-compare, against any server of the 0.7+ dialect (Sibyl or Cassandra 3.11),
 * over one framed connection. Run with 3.11's class path, which carries the generated classes of its IDL:
 *
 *   java -cp CLASSPATH bench/cassandra311/IndexedReads.java load HOST PORT ROWS GROUPS
 *   java -cp CLASSPATH bench/cassandra311/IndexedReads.java query HOST PORT GROUPS CALLS
 *
 * load makes keyspace IndexBench with column family Users (BytesType, column "g" with a KEYS index) and writes ROWS
 * rows of two columns, g = "g" + (row % GROUPS) and a 20-byte "payload", 100 rows per batch_mutate, so that each value
 * of g matches ROWS / GROUPS rows. query makes CALLS get_indexed_slices calls, g EQ a random group, all columns,
 * count 100, and prints how many calls and rows it read.
 */
public final class IndexedReads {
    private static final String KS = "IndexBench";
    private static final String CF = "Users";

    public static void main(String[] args) throws Exception {
        if (args.length != 5 || !(args[0].equals("load") || args[0].equals("query"))) {
            System.err.println("usage: IndexedReads load HOST PORT ROWS GROUPS | query HOST PORT GROUPS CALLS");
            System.exit(2);
        }
        TFramedTransport transport = new TFramedTransport(new TSocket(args[1], Integer.parseInt(args[2]), 120_000));
        transport.open();
        try {
            Cassandra.Client client = new Cassandra.Client(new TBinaryProtocol(transport));
            if (args[0].equals("load")) load(client, Integer.parseInt(args[3]), Integer.parseInt(args[4]));
            else query(client, Integer.parseInt(args[3]), Integer.parseInt(args[4]));
        } finally {
            transport.close();
        }
    }

    private static void load(Cassandra.Client client, int rows, int groups) throws Exception {
        CfDef users = new CfDef(KS, CF).setComparator_type("BytesType").setKey_validation_class("BytesType")
                .setDefault_validation_class("BytesType")
                .setColumn_metadata(List.of(new ColumnDef(utf8("g"), "BytesType").setIndex_type(IndexType.KEYS)));
        client.system_add_keyspace(new KsDef(KS, "org.apache.cassandra.locator.SimpleStrategy", List.of(users))
                .setStrategy_options(Map.of("replication_factor", "1")));
        client.set_keyspace(KS);
        byte[] payload = new byte[20];
        for (int start = 0; start < rows; start += 100) {
            Map<ByteBuffer, Map<String, List<Mutation>>> batch = new HashMap<>();
            for (int row = start; row < Math.min(rows, start + 100); row++) {
                long ts = System.currentTimeMillis() * 1000;
                batch.put(utf8("row" + row), Map.of(CF, List.of(write(utf8("g"), utf8("g" + row % groups), ts),
                        write(utf8("payload"), ByteBuffer.wrap(payload), ts))));
            }
            client.batch_mutate(batch, ConsistencyLevel.ONE);
        }
        System.out.println("loaded " + rows + " rows in " + groups + " groups");
    }

    private static void query(Cassandra.Client client, int groups, int calls) throws Exception {
        client.set_keyspace(KS);
        Random random = new Random(1);
        SlicePredicate all = new SlicePredicate().setSlice_range(new SliceRange(utf8(""), utf8(""), false, 100));
        long rows = 0;
        for (int i = 0; i < calls; i++) {
            IndexClause clause = new IndexClause(List.of(new IndexExpression(utf8("g"), IndexOperator.EQ,
                    utf8("g" + random.nextInt(groups)))), utf8(""), 100);
            List<KeySlice> found = client.get_indexed_slices(new ColumnParent(CF), clause, all, ConsistencyLevel.ONE);
            rows += found.size();
        }
        System.out.println(calls + " calls, " + rows + " rows");
    }

    private static Mutation write(ByteBuffer name, ByteBuffer value, long ts) {
        return new Mutation().setColumn_or_supercolumn(new ColumnOrSuperColumn().setColumn(
                new Column(name).setValue(value).setTimestamp(ts)));
    }

    private static ByteBuffer utf8(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
    }
}
