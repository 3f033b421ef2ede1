package sibyl.db.marshal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static sibyl.db.marshal.Names.EMPTY;
import static sibyl.db.marshal.Names.aliased;
import static sibyl.db.marshal.Names.assertOrdered;
import static sibyl.db.marshal.Names.bytes;
import static sibyl.db.marshal.Names.composite;
import static sibyl.db.marshal.Names.concat;
import static sibyl.db.marshal.Names.named;
import static sibyl.db.marshal.Names.ofLong;
import static sibyl.db.marshal.Names.refusal;
import static sibyl.db.marshal.Names.utf8;

import org.junit.jupiter.api.Test;

/** CompositeType and DynamicCompositeType as Cassandra 3.11.19 orders, checks and prints them. */
class CompositeTypeTest {
    private static final AbstractType TEXT_LONG = MarshalTypes.forName("CompositeType(UTF8Type,LongType)");
    private static final AbstractType DYNAMIC = MarshalTypes.forName("DynamicCompositeType(a=>UTF8Type,b=>LongType)");

    @Test
    void componentsInOrderThenEndOfComponentThenShorterFirst() {
        assertOrdered(TEXT_LONG,
                EMPTY,
                composite(-1, utf8("a")),              // a slice's start before everything under "a"
                composite(utf8("a")),
                composite(utf8("a"), ofLong(-5)),
                composite(utf8("a"), ofLong(1)),
                composite(1, utf8("a"), ofLong(1)),    // the end of everything under ("a", 1)
                composite(utf8("a"), ofLong(2)),
                composite(1, utf8("a")),               // a slice's end after everything under "a"
                composite(utf8("b")),
                composite(utf8("b"), EMPTY),
                composite(utf8("b"), ofLong(0)));
    }

    @Test
    void eachComponentByItsOwnType() {
        AbstractType t = MarshalTypes.forName("CompositeType(ReversedType(LongType),UTF8Type)");
        assertOrdered(t, composite(ofLong(9), utf8("z")), composite(ofLong(2), utf8("a")), composite(ofLong(2), utf8("b")),
                composite(ofLong(-1), utf8("a")));
    }

    @Test
    void aNameTakenApartAndPutBackTogether() {
        CompositeType t = (CompositeType) TEXT_LONG;
        CompositeType.Components bound = t.components(composite(1, utf8("a")));
        assertEquals(1, bound.values().size());
        assertEquals("a", new String(bound.values().get(0), java.nio.charset.StandardCharsets.UTF_8));
        assertEquals(1, bound.endOfComponent());
        byte[] stored = composite(utf8("a"), ofLong(7));
        CompositeType.Components parts = t.components(stored);
        assertEquals(0, parts.endOfComponent());
        assertEquals(false, parts.isStatic());
        org.junit.jupiter.api.Assertions.assertArrayEquals(stored, CompositeType.name(parts.values()));
        assertEquals(true, t.components(concat(bytes(0xff, 0xff), composite(utf8("z")))).isStatic());
        assertEquals(0, t.components(EMPTY).values().size());
    }

    @Test
    void aStaticNameSortsFirst() {
        assertOrdered(TEXT_LONG, EMPTY, concat(bytes(0xff, 0xff), composite(utf8("z"))), composite(utf8("a")));
    }

    @Test
    void refusalsIn311sWords() {
        assertEquals("Not enough bytes to read value size of component 0", refusal(TEXT_LONG, bytes(1)));
        assertEquals("Not enough bytes to read value of component 0", refusal(TEXT_LONG, bytes(0, 1)));
        assertEquals("Not enough bytes to read the end-of-component byte of component0",
                refusal(TEXT_LONG, bytes(0, 1, 0x41)));
        assertEquals("Too many bytes for comparator",
                refusal(TEXT_LONG, composite(utf8("a"), ofLong(1), EMPTY)));
        assertEquals("Invalid bytes remaining after an end-of-component at component0",
                refusal(TEXT_LONG, concat(composite(1, utf8("a")), composite(ofLong(1)))));
        assertEquals("Expected 8 or 0 byte long (2)", refusal(TEXT_LONG, composite(utf8("a"), bytes(1, 2))));
        assertEquals("String didn't validate.", refusal(TEXT_LONG, composite(bytes(0xff))));
        assertEquals("accepted", refusal(TEXT_LONG, composite(1, utf8("a"))));
    }

    @Test
    void printedAs311PrintsThem() {
        assertEquals("a\\:b:7", TEXT_LONG.getString(composite(utf8("a:b"), ofLong(7))));
        assertEquals("a:!", TEXT_LONG.getString(composite(1, utf8("a"))));
        assertEquals("a:_", TEXT_LONG.getString(composite(-1, utf8("a"))));
        assertEquals("a@x:b@5", DYNAMIC.getString(concat(aliased('a', utf8("x")), aliased('b', ofLong(5)))));
        assertEquals("IntegerType@3", DYNAMIC.getString(named("IntegerType", bytes(3))));
    }

    @Test
    void dynamicComponentsOfDifferentTypesOrderByTypeName() {
        byte[] integer = named("IntegerType", bytes(100));
        byte[] longOne = aliased('b', ofLong(1));
        byte[] longTwo = named("org.apache.cassandra.db.marshal.LongType", ofLong(2));
        byte[] text = aliased('a', utf8("a"));
        byte[] reversedLong = named("ReversedType(LongType)", ofLong(1));
        assertOrdered(DYNAMIC, EMPTY, integer, longOne, longTwo, reversedLong, text, concat(text, longOne));
    }

    @Test
    void dynamicRefusals() {
        assertEquals("Not enough bytes to header of the comparator part of component 0", refusal(DYNAMIC, bytes(0x80)));
        assertEquals("Cannot find comparator for component 0", refusal(DYNAMIC, aliased('z', utf8("x"))));
        assertEquals("Cannot find comparator for component 0", refusal(DYNAMIC, named("NoSuchType", utf8("x"))));
        assertEquals("Not enough bytes to read comparator name of component 0", refusal(DYNAMIC, bytes(0, 9, 0x41)));
        assertEquals("Expected 8 or 0 byte long (1)", refusal(DYNAMIC, aliased('b', bytes(1))));
    }
}
