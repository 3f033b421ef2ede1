package sibyl.thrift20;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static sibyl.db.TestSchema.KS;
import static sibyl.db.TestSchema.STD;
import static sibyl.db.TestSchema.SUPER;
import static sibyl.thrift20.Text.b;
import static sibyl.thrift20.Text.s;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import sibyl.auth.AllowAllAuthenticator;
import sibyl.iface.v20.Cassandra;
import sibyl.iface.v20.Column;
import sibyl.iface.v20.ColumnOrSuperColumn;
import sibyl.iface.v20.ColumnParent;
import sibyl.iface.v20.ColumnSlice;
import sibyl.iface.v20.ConsistencyLevel;
import sibyl.iface.v20.InvalidRequestException;
import sibyl.iface.v20.MultiSliceRequest;

/**
 * get_multi_slice over a real socket: the union of the slices, each column once, in order or reversed, count of
 * them in all; and 3.11's refusals.
 */
class Dialect20MultiSliceTest {
    @ParameterizedTest(name = "deferring={0}")
    @ValueSource(booleans = {false, true})
    void theUnionOfTheSlicesInOrderUpToTheCount(boolean deferring) throws Exception {
        try (Dialect20Server server = new Dialect20Server(deferring, new AllowAllAuthenticator())) {
            Cassandra.Client c = server.client();
            c.set_keyspace(KS);
            for (String name : List.of("a", "b", "c", "d", "e", "f", "g")) {
                c.insert(b("k"), new ColumnParent(STD), new Column(b(name)).setValue(b("v")).setTimestamp(1),
                        ConsistencyLevel.ONE);
            }
            MultiSliceRequest overlapping = request(false, 100, slice("e", "f"), slice("a", "b"), slice("b", "c"));
            assertEquals(List.of("a", "b", "c", "e", "f"), names(c.get_multi_slice(overlapping)));
            assertEquals(List.of("a", "b", "c"), names(c.get_multi_slice(overlapping.setCount(3))));
            assertEquals(List.of("f", "c", "b"), names(c.get_multi_slice(request(true, 4, slice("g", "e"),
                    slice("d", "a")))), "reversed, each slice without its bounds, as 3.11 reads it");
            assertEquals(List.of("a", "f", "g"), names(c.get_multi_slice(request(false, 3,
                    new ColumnSlice().setStart(b("f")), new ColumnSlice().setFinish(b("a"))))),
                    "open-ended slices; the order is the comparator's, not the slices'");

            assertEquals("Column slice at index 1 had start greater than finish", assertThrows(
                    InvalidRequestException.class, () -> c.get_multi_slice(request(false, 3, slice("a", "b"),
                            slice("c", "b")))).getWhy());
            for (ColumnSlice refused : List.of(slice("a", "b"), slice("a", "a"), new ColumnSlice().setStart(b("c")),
                    new ColumnSlice().setFinish(b("c")))) {
                assertEquals("Reversed column slice at index 0 had start less than finish", assertThrows(
                        InvalidRequestException.class, () -> c.get_multi_slice(request(true, 3, refused))).getWhy(),
                        "3.11 compares a reversed slice's bounds as a forward one's: " + refused);
            }
            assertEquals("get_multi_slice does not support super columns", assertThrows(
                    InvalidRequestException.class, () -> c.get_multi_slice(request(false, 3, slice("a", "b"))
                            .setColumn_parent(new ColumnParent(SUPER)))).getWhy());
            assertEquals("column_slices is required", assertThrows(InvalidRequestException.class,
                    () -> c.get_multi_slice(new MultiSliceRequest().setKey(b("k"))
                            .setColumn_parent(new ColumnParent(STD)))).getWhy());
        }
    }

    private static ColumnSlice slice(String start, String finish) {
        return new ColumnSlice().setStart(b(start)).setFinish(b(finish));
    }

    private static MultiSliceRequest request(boolean reversed, int count, ColumnSlice... slices) {
        return new MultiSliceRequest().setKey(b("k")).setColumn_parent(new ColumnParent(STD))
                .setColumn_slices(new ArrayList<>(List.of(slices))).setReversed(reversed).setCount(count)
                .setConsistency_level(ConsistencyLevel.ONE);
    }

    private static List<String> names(List<ColumnOrSuperColumn> columns) {
        List<String> names = new ArrayList<>();
        for (ColumnOrSuperColumn cosc : columns) names.add(s(cosc.column.name));
        return names;
    }
}
