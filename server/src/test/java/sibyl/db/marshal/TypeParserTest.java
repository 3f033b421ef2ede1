package sibyl.db.marshal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** Type strings as CfDef and storage-conf.xml give them, and the canonical names Cassandra 3.11.19 prints back. */
class TypeParserTest {
    private static final String P = "org.apache.cassandra.db.marshal.";

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "CompositeType(UTF8Type,LongType)|CompositeType(UTF8Type,LongType)",
        "org.apache.cassandra.db.marshal.ReversedType(LongType)|ReversedType(LongType)",
        "DynamicCompositeType(a=>UTF8Type,b=>LongType)|DynamicCompositeType(a=>UTF8Type,b=>LongType)",
        "' CompositeType( UTF8Type , ReversedType(LongType) ) '|CompositeType(UTF8Type,ReversedType(LongType))",
        "DynamicCompositeType(c=>LongType,B=>LongType,a=>UTF8Type)|DynamicCompositeType(a=>UTF8Type,B=>LongType,c=>LongType)",
        "DynamicCompositeType(z=>LongType,Z=>UTF8Type,1=>BytesType)|DynamicCompositeType(1=>BytesType,z=>LongType,Z=>UTF8Type)",
        "CompositeType(CompositeType(IntegerType),DynamicCompositeType(x=>TimeUUIDType))"
                + "|CompositeType(CompositeType(IntegerType),DynamicCompositeType(x=>TimeUUIDType))",
        "CompositeType|CompositeType()",
        "DynamicCompositeType|DynamicCompositeType()",
        "UUIDType|UUIDType",
    })
    void printsTheFullNameAs311(String text, String expected) {
        String full = expected.replaceAll("([A-Za-z0-9]+Type)", P + "$1");
        assertEquals(full, TypeParser.parse(text).className());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "Foo|Unable to find abstract-type class 'org.apache.cassandra.db.marshal.Foo'",
        "CompositeType(UTF8Type|Invalid definition for comparator org.apache.cassandra.db.marshal.CompositeType.",
        "CompositeType(Foo)|Invalid definition for comparator org.apache.cassandra.db.marshal.CompositeType.",
        "DynamicCompositeType(ab=>UTF8Type)|Invalid definition for comparator org.apache.cassandra.db.marshal.DynamicCompositeType.",
        "'ReversedType(a, b)'|Invalid definition for comparator org.apache.cassandra.db.marshal.ReversedType.",
        "ReversedType|Invalid definition for comparator org.apache.cassandra.db.marshal.ReversedType.",
    })
    void refusesWith311sWords(String text, String why) {
        assertEquals(why, assertThrows(IllegalArgumentException.class, () -> TypeParser.parse(text)).getMessage());
    }

    /** 3.11 took these, ignoring what follows the name; Sibyl says what is wrong instead. */
    @ParameterizedTest
    @ValueSource(strings = {"UTF8Type)", "LongType(UTF8Type)", "", "UTF8Type LongType"})
    void refusesWhat311Ignored(String text) {
        assertThrows(IllegalArgumentException.class, () -> TypeParser.parse(text));
    }

    @Test
    void simpleNamesAreTheSingletons() {
        assertSame(LongType.instance, TypeParser.parse("LongType"));
        assertSame(UTF8Type.instance, TypeParser.parse(P + "UTF8Type"));
    }
}
