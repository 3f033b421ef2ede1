package sibyl.thrift20;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import sibyl.db.CFMetaData;
import sibyl.db.Validators;
import sibyl.db.marshal.BytesType;
import sibyl.db.marshal.Int32Type;
import sibyl.db.marshal.LongType;
import sibyl.db.marshal.MarshalTypes;
import sibyl.db.marshal.UTF8Type;
import sibyl.iface.v20.CfDef;
import sibyl.iface.v20.ColumnDef;
import sibyl.iface.v20.InvalidRequestException;

/** A column family's validators to CfDef and back, as describe_keyspace and system_add_column_family carry them. */
class ValidatorDefsTest {
    private static final String P = "org.apache.cassandra.db.marshal.";

    private static ByteBuffer utf8(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void describedAndReadBackAlike() throws Exception {
        Validators validators = new Validators(LongType.instance, MarshalTypes.forName("CompositeType(UTF8Type,LongType)"),
                Map.of(utf8("age"), Int32Type.instance));
        CFMetaData cf = CFMetaData.standard("K", "C", UTF8Type.instance).withValidators(validators);
        CfDef def = new CfDef("K", "C");
        ValidatorDefs.describe(cf, def);
        assertEquals(P + "LongType", def.getKey_validation_class());
        assertEquals(P + "CompositeType(" + P + "UTF8Type," + P + "LongType)", def.getDefault_validation_class());
        assertEquals(List.of(new ColumnDef(utf8("age"), P + "Int32Type")), def.getColumn_metadata());
        Validators read = ValidatorDefs.read(def, UTF8Type.instance);
        assertSame(LongType.instance, read.key());
        assertEquals(validators.defaultValue().className(), read.defaultValue().className());
        assertSame(Int32Type.instance, read.valueOf(utf8("age")));
        assertEquals(validators.defaultValue().className(), read.valueOf(utf8("other")).className());
    }

    @Test
    void unsetFieldsAreBytes() throws Exception {
        Validators read = ValidatorDefs.read(new CfDef("K", "C"), UTF8Type.instance);
        assertSame(BytesType.instance, read.key());
        assertSame(BytesType.instance, read.defaultValue());
        assertEquals(Map.of(), read.columns());
    }

    @Test
    void aBadTypeOrNameIsRefusedIn311sWords() {
        assertEquals("Unable to find abstract-type class 'org.apache.cassandra.db.marshal.Nope'",
                assertThrows(InvalidRequestException.class, () -> ValidatorDefs.read(
                        new CfDef("K", "C").setKey_validation_class("Nope"), UTF8Type.instance)).getWhy());
        assertEquals("Expected 8 or 0 byte long (3)", assertThrows(InvalidRequestException.class, () -> ValidatorDefs.read(
                new CfDef("K", "C").setColumn_metadata(List.of(new ColumnDef(utf8("age"), "Int32Type"))),
                LongType.instance)).getWhy());
    }
}
