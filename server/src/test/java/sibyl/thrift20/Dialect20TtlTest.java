package sibyl.thrift20;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static sibyl.db.TestSchema.KS;
import static sibyl.db.TestSchema.STD;
import static sibyl.db.TestSchema.SUPER;
import static sibyl.thrift20.Dialect20Server.EXPIRING;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import sibyl.auth.AllowAllAuthenticator;
import sibyl.iface.v20.CfDef;
import sibyl.iface.v20.Column;
import sibyl.iface.v20.ColumnOrSuperColumn;
import sibyl.iface.v20.ColumnParent;
import sibyl.iface.v20.ColumnPath;
import sibyl.iface.v20.ConsistencyLevel;
import sibyl.iface.v20.InvalidRequestException;
import sibyl.iface.v20.KeyRange;
import sibyl.iface.v20.KeySlice;
import sibyl.iface.v20.Mutation;
import sibyl.iface.v20.NotFoundException;
import sibyl.iface.v20.SlicePredicate;
import sibyl.iface.v20.SliceRange;
import sibyl.iface.v20.SuperColumn;

/**
 * Column ttls and default_time_to_live over a real socket in the 0.7+ dialect, with the answers and refusals a
 * real Cassandra 3.11 gives (docs/semantics.md §Expiring columns).
 */
class Dialect20TtlTest extends Dialect20Connection {
    private static final ConsistencyLevel ONE = ConsistencyLevel.ONE;
    private static final String TOO_LATE = " seconds exceeds maximum supported expiration date of 2038-01-19T03:14:06+00:00."
            + " In order to avoid this use a lower TTL, change the expiration date overflow policy or upgrade to a version"
            + " where this limitation is fixed. See CASSANDRA-14092 for more details.";

    private static ByteBuffer b(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
    }

    private static Column column(String name) {
        return new Column(b(name)).setValue(b("v")).setTimestamp(1);
    }

    private static SlicePredicate all() {
        return new SlicePredicate().setSlice_range(new SliceRange(b(""), b(""), false, 100));
    }

    private static Mutation write(Column c) {
        return new Mutation().setColumn_or_supercolumn(new ColumnOrSuperColumn().setColumn(c));
    }

    private static void refused(String why, Executable call) {
        assertEquals(why, assertThrows(InvalidRequestException.class, call).getWhy());
    }

    @Test
    void everyReadAnswersTheTtlAColumnWasWrittenWith() throws Exception {
        client.set_keyspace(KS);
        ColumnParent parent = new ColumnParent(STD);
        client.insert(b("k"), parent, column("a").setTtl(3600), ONE);
        client.batch_mutate(Map.of(b("k"), Map.of(STD, List.of(write(column("b").setTtl(7200)), write(column("c"))))), ONE);
        client.batch_mutate(Map.of(b("k"), Map.of(SUPER, List.of(new Mutation().setColumn_or_supercolumn(
                new ColumnOrSuperColumn().setSuper_column(new SuperColumn(b("sc"), List.of(column("s").setTtl(60)))))))),
                ONE);

        assertEquals(3600, client.get(b("k"), new ColumnPath(STD).setColumn(b("a")), ONE).column.getTtl());
        assertEquals(List.of(3600, 7200, -1), ttls(client.get_slice(b("k"), parent, all(), ONE)));
        assertEquals(List.of(3600, 7200, -1), ttls(client.multiget_slice(List.of(b("k")), parent, all(), ONE).get(b("k"))));
        List<KeySlice> rows = client.get_range_slices(parent, all(), new KeyRange(10).setStart_key(b("")).setEnd_key(b("")), ONE);
        assertEquals(List.of(3600, 7200, -1), ttls(rows.get(0).columns));
        SuperColumn sc = client.get(b("k"), new ColumnPath(SUPER).setSuper_column(b("sc")), ONE).super_column;
        assertEquals(60, sc.columns.get(0).getTtl());
        assertEquals(60, client.get(b("k"), new ColumnPath(SUPER).setSuper_column(b("sc")).setColumn(b("s")), ONE)
                .column.getTtl());
    }

    @Test
    void insertGivesAColumnWithoutTtlTheTablesDefaultAndBatchMutateDoesNot() throws Exception {
        client.set_keyspace(EXPIRING);
        client.insert(b("k"), new ColumnParent(STD), column("plain"), ONE);
        client.insert(b("k"), new ColumnParent(STD), column("zero").setTtl(0), ONE);
        client.insert(b("k"), new ColumnParent(STD), column("own").setTtl(7), ONE);
        client.batch_mutate(Map.of(b("k"), Map.of(STD, List.of(write(column("batched"))))), ONE);
        client.insert(b("k"), new ColumnParent(SUPER).setSuper_column(b("sc")), column("sub"), ONE);
        // Names in BytesType order: batched, own, plain, zero.
        assertEquals(List.of(-1, 7, 1000, -1), ttls(client.get_slice(b("k"), new ColumnParent(STD), all(), ONE)));
        assertEquals(500, client.get(b("k"), new ColumnPath(SUPER).setSuper_column(b("sc")).setColumn(b("sub")), ONE)
                .column.getTtl());
    }

    @Test
    void describeKeyspaceShowsEachTablesDefaultTimeToLive() throws Exception {
        Map<String, Integer> defaults = new TreeMap<>();
        for (CfDef cf : client.describe_keyspace(EXPIRING).cf_defs) {
            assertEquals(true, cf.isSetDefault_time_to_live(), cf.name);
            defaults.put(cf.name, cf.getDefault_time_to_live());
        }
        assertEquals(Map.of(STD, 1000, SUPER, 500, "Far", 400_000_000), defaults);
        for (CfDef cf : client.describe_keyspace(KS).cf_defs) assertEquals(0, cf.getDefault_time_to_live(), cf.name);
    }

    @Test
    void badTtlsAreRefusedIn311sWordsAndNothingIsWritten() throws Exception {
        client.set_keyspace(KS);
        ColumnParent parent = new ColumnParent(STD);
        refused("ttl must be greater or equal to 0", () -> client.insert(b("k"), parent, column("c").setTtl(-1), ONE));
        refused("ttl must be greater or equal to 0",
                () -> client.batch_mutate(Map.of(b("k"), Map.of(STD, List.of(write(column("c").setTtl(-5))))), ONE));
        refused("ttl must be greater or equal to 0", () -> client.insert(b("k"), parent,
                new Column(b("c")).setTtl(-1), ONE));
        refused("ttl is too large. requested (630720001) maximum (630720000)",
                () -> client.insert(b("k"), parent, column("c").setTtl(630_720_001), ONE));
        refused("ttl is too large. requested (700000000) maximum (630720000)",
                () -> client.batch_mutate(Map.of(b("k"), Map.of(STD, List.of(write(column("c").setTtl(700_000_000))))), ONE));
        refused("Request on table Keyspace1.Standard1 with ttl of 630720000" + TOO_LATE,
                () -> client.insert(b("k"), parent, column("c").setTtl(630_720_000), ONE));
        refused("Request on table Keyspace1.Super1 with ttl of 400000000" + TOO_LATE,
                () -> client.batch_mutate(Map.of(b("k"), Map.of(SUPER, List.of(new Mutation().setColumn_or_supercolumn(
                        new ColumnOrSuperColumn().setSuper_column(new SuperColumn(b("sc"),
                                List.of(column("s").setTtl(400_000_000)))))))), ONE));
        assertEquals(0, client.get_count(b("k"), parent, all(), ONE), "nothing of a refused call is written");
        assertEquals(0, client.get_count(b("k"), new ColumnParent(SUPER), all(), ONE));

        client.set_keyspace(EXPIRING);
        refused("Request on table Expiring.Far with default ttl of 400000000" + TOO_LATE,
                () -> client.insert(b("k"), new ColumnParent("Far"), column("c"), ONE));
        client.insert(b("k"), new ColumnParent("Far"), column("c").setTtl(0), ONE);
        assertFalse(client.get(b("k"), new ColumnPath("Far").setColumn(b("c")), ONE).column.isSetTtl());
    }

    @Test
    void anExpiredColumnIsNotReadCountedOrListed() throws Exception {
        // A store whose clock is a day ahead of the one writes count their ttl from: an hour's ttl has run out.
        try (Dialect20Server ahead = new Dialect20Server(false, new AllowAllAuthenticator(),
                Clock.offset(Clock.systemUTC(), Duration.ofDays(1)))) {
            var c = ahead.client();
            c.set_keyspace(KS);
            ColumnParent parent = new ColumnParent(STD);
            c.insert(b("k"), parent, column("gone").setTtl(3600), ONE);
            c.insert(b("k"), parent, column("kept"), ONE);
            c.insert(b("only"), parent, column("gone").setTtl(3600), ONE);
            assertThrows(NotFoundException.class, () -> c.get(b("k"), new ColumnPath(STD).setColumn(b("gone")), ONE));
            assertEquals(List.of("kept"), names(c.get_slice(b("k"), parent, all(), ONE)));
            assertEquals(1, c.get_count(b("k"), parent, all(), ONE));
            assertEquals(List.of(), c.get_slice(b("only"), parent, all(), ONE));
            List<KeySlice> rows = c.get_range_slices(parent, all(), new KeyRange(10).setStart_key(b("")).setEnd_key(b("")),
                    ONE);
            for (KeySlice row : rows) {
                assertEquals(StandardCharsets.UTF_8.decode(row.key.duplicate()).toString().equals("k") ? List.of("kept")
                        : List.of(), names(row.columns));
            }
            assertEquals(2, rows.size(), "a row of expired columns is listed empty, as 3.11 lists it");
        }
    }

    /** Each column's ttl, -1 where none is set. */
    private static List<Integer> ttls(List<ColumnOrSuperColumn> coscs) {
        List<Integer> ttls = new ArrayList<>();
        for (ColumnOrSuperColumn c : coscs) ttls.add(c.column.isSetTtl() ? c.column.getTtl() : -1);
        return ttls;
    }

    private static List<String> names(List<ColumnOrSuperColumn> coscs) {
        List<String> names = new ArrayList<>();
        for (ColumnOrSuperColumn c : coscs) names.add(StandardCharsets.UTF_8.decode(c.column.name.duplicate()).toString());
        return names;
    }
}
