package sibyl.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import sibyl.db.CFMetaData;
import sibyl.db.CacheConfig;
import sibyl.db.Cell;
import sibyl.db.Column;
import sibyl.db.ColumnSelection;
import sibyl.db.Validators;
import sibyl.db.marshal.AbstractType;
import sibyl.db.marshal.BytesType;
import sibyl.db.marshal.CounterColumnType;
import sibyl.db.marshal.DateType;
import sibyl.db.marshal.Int32Type;
import sibyl.db.marshal.LongType;
import sibyl.db.marshal.TypeParser;
import sibyl.db.marshal.UTF8Type;

/** Which declared columns become static columns, under which names and types, and how a row's two parts merge. */
class StaticColumnsTest {
    @Test
    void namesAreTheComparatorsTextAndTypesTheValidationClasses() {
        Map<ByteBuffer, AbstractType> columns = new LinkedHashMap<>();
        columns.put(utf8("name"), UTF8Type.instance);
        columns.put(utf8("Mixed Case"), Int32Type.instance);
        columns.put(utf8("key"), UTF8Type.instance); // the partition key's name: stays in (column1, value)
        columns.put(utf8("value"), UTF8Type.instance);
        columns.put(utf8("column1"), UTF8Type.instance);
        columns.put(utf8("born"), DateType.instance); // no CQL type here
        assertEquals(List.of("name text", "Mixed Case int"), described(cf(UTF8Type.instance, columns)));

        Map<ByteBuffer, AbstractType> bytes = new LinkedHashMap<>();
        bytes.put(ByteBuffer.wrap(new byte[] {0, (byte) 0xff}), LongType.instance);
        assertEquals(List.of("00ff bigint"), described(cf(BytesType.instance, bytes)));

        Map<ByteBuffer, AbstractType> longs = Map.of(ByteBuffer.allocate(8).putLong(0, 5), UTF8Type.instance);
        assertEquals(List.of("5 text"), described(cf(LongType.instance, longs)));
    }

    @Test
    void compositeReversedAndCounterColumnFamiliesHaveNone() {
        Map<ByteBuffer, AbstractType> columns = Map.of(utf8("name"), UTF8Type.instance);
        assertEquals(List.of(), described(cf(TypeParser.parse("CompositeType(UTF8Type,LongType)"), columns)));
        assertEquals(List.of(), described(cf(TypeParser.parse("ReversedType(UTF8Type)"), columns)));
        CFMetaData counters = new CFMetaData("ks", "cf", false, UTF8Type.instance, null, null, CacheConfig.NONE,
                OptionalInt.empty(), new Validators(BytesType.instance, CounterColumnType.instance,
                Map.of(utf8("hits"), UTF8Type.instance))); // a type that would have a column elsewhere
        assertEquals(List.of(), described(counters));
    }

    @Test
    void aNameInBothPlacesIsGivenOnceAsTheVersionThatWins() {
        StaticColumns statics = new StaticColumns("\"ks\".\"cf\"", UTF8Type.instance, List.of(
                new StaticColumn(bytes("b"), "b", CqlType.TEXT), new StaticColumn(bytes("d"), "d", CqlType.TEXT)));
        List<Cell> dynamic = List.of(Column.live(bytes("a"), bytes("1"), 1), Column.live(bytes("b"), bytes("old"), 1),
                Column.live(bytes("c"), bytes("1"), 1));
        List<Column> fixed = List.of(Column.live(bytes("b"), bytes("new"), 2), Column.live(bytes("d"), bytes("1"), 1));
        assertEquals(List.of("a", "b=new", "c", "d"), rendered(statics.merge(dynamic, fixed,
                ColumnSelection.range(new byte[0], new byte[0], false, 10))));
        assertEquals(List.of("a", "b=new", "c"), rendered(statics.merge(dynamic, fixed,
                ColumnSelection.range(new byte[0], new byte[0], false, 3))));
        List<Cell> older = List.of(Column.live(bytes("b"), bytes("newest"), 3));
        assertEquals(List.of("d", "b=newest"), rendered(statics.merge(older, List.of(fixed.get(1), fixed.get(0)),
                ColumnSelection.range(new byte[0], new byte[0], true, 10))));
    }

    private static List<String> rendered(List<Cell> cells) {
        return cells.stream().map(c -> {
            String name = new String(c.name(), StandardCharsets.UTF_8);
            String value = new String(((Column) c).value(), StandardCharsets.UTF_8);
            return value.equals("1") ? name : name + "=" + value;
        }).toList();
    }

    private static List<String> described(CFMetaData cf) {
        return StaticColumns.declared(cf).stream().map(c -> c.column() + " " + c.type().cql()).toList();
    }

    private static CFMetaData cf(AbstractType comparator, Map<ByteBuffer, AbstractType> columns) {
        return new CFMetaData("ks", "cf", false, comparator, null, null, CacheConfig.NONE, OptionalInt.empty(),
                new Validators(BytesType.instance, BytesType.instance, columns));
    }

    private static ByteBuffer utf8(String s) {
        return ByteBuffer.wrap(bytes(s));
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
