package sibyl.thrift20;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static sibyl.db.TestSchema.KS;
import static sibyl.db.TestSchema.STD;
import static sibyl.db.TestSchema.SUPER;
import static sibyl.thrift20.Text.b;
import static sibyl.thrift20.Text.s;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import sibyl.auth.AllowAllAuthenticator;
import sibyl.iface.v20.Cassandra;
import sibyl.iface.v20.Column;
import sibyl.iface.v20.ColumnOrSuperColumn;
import sibyl.iface.v20.ColumnParent;
import sibyl.iface.v20.ColumnPath;
import sibyl.iface.v20.ConsistencyLevel;
import sibyl.iface.v20.InvalidRequestException;
import sibyl.iface.v20.KeyRange;
import sibyl.iface.v20.KeySlice;
import sibyl.iface.v20.SlicePredicate;
import sibyl.iface.v20.SliceRange;

/**
 * get_paged_slice over a real socket: up to count rows (not columns, as 3.11 counts them) in ring order, the start
 * row from the start column, the others whole, deleted rows listed empty as get_range_slices lists them.
 */
class Dialect20PagedSliceTest {
    private static final ConsistencyLevel ONE = ConsistencyLevel.ONE;
    private static final List<String> COLUMNS = List.of("a", "b", "c", "d");

    @ParameterizedTest(name = "deferring={0}")
    @ValueSource(booleans = {false, true})
    void rowsFromTheStartColumnOfTheStartRow(boolean deferring) throws Exception {
        try (Dialect20Server server = new Dialect20Server(deferring, new AllowAllAuthenticator())) {
            Cassandra.Client c = server.client();
            c.set_keyspace(KS);
            for (int k = 0; k < 5; k++) {
                for (String name : COLUMNS) {
                    c.insert(b("k" + k), new ColumnParent(STD), new Column(b(name)).setValue(b("v")).setTimestamp(1),
                            ONE);
                }
            }
            List<String> ring = new ArrayList<>();
            for (KeySlice s : c.get_range_slices(new ColumnParent(STD), new SlicePredicate().setSlice_range(
                    new SliceRange(b(""), b(""), false, 1)), whole(100), ONE)) {
                ring.add(s(s.key));
            }
            assertEquals(5, ring.size());

            KeyRange fromSecond = new KeyRange(3).setStart_key(b(ring.get(1))).setEnd_key(b(""));
            assertEquals(List.of(ring.get(1) + "=c,d", ring.get(2) + "=a,b,c,d", ring.get(3) + "=a,b,c,d"),
                    rows(c.get_paged_slice(STD, fromSecond, b("c"), ONE)), "three rows, however many columns");
            assertEquals(List.of(ring.get(1) + "=a,b,c,d"),
                    rows(c.get_paged_slice(STD, fromSecond.setCount(1), b(""), ONE)));

            c.remove(b(ring.get(0)), new ColumnPath(STD), 2, ONE);
            KeyRange tokens = new KeyRange(10).setStart_token("0").setEnd_token("0");
            List<String> all = rows(c.get_paged_slice(STD, tokens, b("c"), ONE));
            assertEquals(5, all.size());
            assertEquals(ring.get(0) + "=", all.get(0), "a deleted row is listed, empty");
            assertEquals(ring.get(1) + "=a,b,c,d", all.get(1), "a range of tokens has no start row");

            assertEquals("unconfigured table Nope", assertThrows(InvalidRequestException.class,
                    () -> c.get_paged_slice("Nope", tokens, b(""), ONE)).getWhy());
            assertEquals("maxRows must be positive", assertThrows(InvalidRequestException.class,
                    () -> c.get_paged_slice(STD, whole(0), b(""), ONE)).getWhy());
        }
    }

    /** A super column family's rows come back with their super columns, each with its subcolumns. */
    @ParameterizedTest(name = "deferring={0}")
    @ValueSource(booleans = {false, true})
    void superColumnsComeWhole(boolean deferring) throws Exception {
        try (Dialect20Server server = new Dialect20Server(deferring, new AllowAllAuthenticator())) {
            Cassandra.Client c = server.client();
            c.set_keyspace(KS);
            for (String key : List.of("k1", "k2")) {
                for (String sc : List.of("s1", "s2")) {
                    c.insert(b(key), new ColumnParent(SUPER).setSuper_column(b(sc)),
                            new Column(b("c")).setValue(b("v")).setTimestamp(1), ONE);
                }
            }
            List<KeySlice> rows = c.get_paged_slice(SUPER, whole(10), b(""), ONE);
            assertEquals(2, rows.size());
            for (KeySlice row : rows) {
                assertEquals(2, row.columns.size(), s(row.key) + " has its two super columns");
                assertEquals(1, row.columns.get(0).super_column.columns.size());
            }
        }
    }

    private static KeyRange whole(int count) {
        return new KeyRange(count).setStart_key(b("")).setEnd_key(b(""));
    }

    private static List<String> rows(List<KeySlice> slices) {
        List<String> rows = new ArrayList<>();
        for (KeySlice s : slices) {
            List<String> names = new ArrayList<>();
            for (ColumnOrSuperColumn cosc : s.columns) names.add(s(cosc.column.name));
            rows.add(s(s.key) + "=" + String.join(",", names));
        }
        return rows;
    }
}
