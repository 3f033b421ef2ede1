package sibyl.thrift20;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import sibyl.iface.v20.CfDef;
import sibyl.iface.v20.Column;
import sibyl.iface.v20.ColumnDef;
import sibyl.iface.v20.ColumnParent;
import sibyl.iface.v20.ConsistencyLevel;
import sibyl.iface.v20.IndexType;
import sibyl.iface.v20.InvalidRequestException;
import sibyl.iface.v20.KsDef;
import sibyl.iface.v20.SlicePredicate;
import sibyl.iface.v20.SliceRange;

/**
 * The schema calls of the 0.7+ dialect over a socket (docs/thrift-api-0.7.md §Schema calls): what they answer, the
 * schema version clients wait on, what Sibyl refuses where 3.11 accepts (the differential SchemaCallsIT compares
 * the rest with a real 3.11), and what a drop leaves.
 */
class Dialect20SchemaTest extends Dialect20Connection {
    private static final String KS = "MadeByApi";

    @Test
    void eachChangeAnswersTheNewVersionWhichStaysUntilTheNextChange() throws Exception {
        String before = onlyVersion();
        assertEquals(before, onlyVersion(), "the same schema, the same version");
        String added = client.system_add_keyspace(keyspace(KS, standard(KS, "Cf1", "UTF8Type")));
        assertNotEquals(before, added);
        assertEquals(added, onlyVersion());
        assertEquals(added, onlyVersion());
        client.set_keyspace(KS);
        String second = client.system_add_column_family(standard(KS, "Cf2", "LongType"));
        assertNotEquals(added, second);
        assertEquals(second, onlyVersion());
    }

    @Test
    void aColumnFamilyMadeByApiTakesWritesAndReads() throws Exception {
        client.system_add_keyspace(keyspace(KS, standard(KS, "Cf1", "UTF8Type")));
        client.set_keyspace(KS);
        client.insert(utf8("row"), new ColumnParent("Cf1"), column("b", "2"), ConsistencyLevel.ONE);
        client.insert(utf8("row"), new ColumnParent("Cf1"), column("a", "1"), ConsistencyLevel.ONE);
        assertEquals(List.of("a", "b"), names("Cf1"));
        assertEquals("UTF8Type", server.engine.keyspace(KS).orElseThrow().columnFamily("Cf1").orElseThrow()
                .comparator().getClass().getSimpleName());
    }

    @Test
    void theKeyspacesOfTheFileAreChangedInTheFileOnly() throws Exception {
        client.set_keyspace("Keyspace1");
        for (InvalidRequestException e : List.of(
                assertThrows(InvalidRequestException.class,
                        () -> client.system_add_column_family(standard("Keyspace1", "New", "BytesType"))),
                assertThrows(InvalidRequestException.class, () -> client.system_drop_column_family("Standard1")),
                assertThrows(InvalidRequestException.class, () -> client.system_drop_keyspace("Keyspace1")),
                assertThrows(InvalidRequestException.class, () -> client.system_update_keyspace(
                        keyspace("Keyspace1").setStrategy_options(Map.of("replication_factor", "2")))))) {
            assertTrue(e.getWhy().startsWith("keyspace Keyspace1 is defined in ") && e.getWhy().contains("reloadconf"),
                    e.getWhy());
        }
        assertTrue(server.engine.keyspace("Keyspace1").orElseThrow().columnFamily("Standard1").isPresent());
        assertThrows(InvalidRequestException.class, () -> client.system_add_keyspace(keyspace("keyspace1")),
                "case-insensitively unique, as in 3.11");
    }

    @Test
    void typeAndComparatorsOfAColumnFamilyStay() throws Exception {
        client.system_add_keyspace(keyspace(KS, standard(KS, "Cf1", "UTF8Type")));
        InvalidRequestException e = assertThrows(InvalidRequestException.class,
                () -> client.system_update_column_family(standard(KS, "Cf1", "LongType")));
        assertTrue(e.getWhy().contains("comparator"), e.getWhy());
        e = assertThrows(InvalidRequestException.class,
                () -> client.system_update_column_family(standard(KS, "Cf1", "UTF8Type").setColumn_type("Super")));
        assertTrue(e.getWhy().contains("column type"), e.getWhy());
        client.system_update_column_family(standard(KS, "Cf1", "UTF8Type").setComment("now").setGc_grace_seconds(5));
        CfDef cf = client.describe_keyspace(KS).getCf_defs().get(0);
        assertEquals("now", cf.getComment());
        assertEquals(5, cf.getGc_grace_seconds());
    }

    @Test
    void fieldsSibylDoesNotServeAreRefusedByName() throws Exception {
        client.system_add_keyspace(keyspace(KS));
        // KEYS indexes are served (docs/thrift-api-0.7.md §Secondary indexes); the other kinds are refused by name.
        CfDef indexed = standard(KS, "Indexed", "UTF8Type").setColumn_metadata(List.of(
                new ColumnDef(utf8("c"), "BytesType").setIndex_type(IndexType.COMPOSITES)));
        assertTrue(assertThrows(InvalidRequestException.class, () -> client.system_add_column_family(indexed))
                .getWhy().startsWith("Sibyl serves KEYS secondary indexes only, not COMPOSITES"));
        CfDef composite = standard(KS, "Composite", "NoSuchType(UTF8Type)");
        assertEquals("Unable to find abstract-type class 'org.apache.cassandra.db.marshal.NoSuchType'",
                assertThrows(InvalidRequestException.class, () -> client.system_add_column_family(composite)).getWhy());
        CfDef foreign = standard(KS, "Foreign", "java.lang.Object");
        assertTrue(assertThrows(InvalidRequestException.class, () -> client.system_add_column_family(foreign))
                .getWhy().startsWith("Unable to find abstract-type class"), "no class of the client's choosing is loaded");
        CfDef nested = standard(KS, "Nested", "CompositeType(UTF8Type,java.lang.Object)");
        assertEquals("Unable to find abstract-type class 'java.lang.Object'", assertThrows(InvalidRequestException.class,
                () -> client.system_add_column_family(nested)).getWhy(), "nor one named as a parameter");
        CfDef foreignValidator = standard(KS, "ForeignValidator", "UTF8Type").setKey_validation_class("java.lang.Object");
        assertEquals("Unable to find abstract-type class 'java.lang.Object'", assertThrows(InvalidRequestException.class,
                () -> client.system_add_column_family(foreignValidator)).getWhy(), "nor one named as a validator");
        KsDef topology = new KsDef("Topology", "NetworkTopologyStrategy", List.of())
                .setStrategy_options(Map.of("datacenter1", "1"));
        assertTrue(assertThrows(InvalidRequestException.class, () -> client.system_add_keyspace(topology))
                .getWhy().contains("SimpleStrategy"));
        KsDef noReplicas = keyspace("NoReplicas").setStrategy_options(Map.of("replication_factor", "0"));
        assertTrue(assertThrows(InvalidRequestException.class, () -> client.system_add_keyspace(noReplicas))
                .getWhy().contains("replication_factor 1 or more"));
        assertEquals(List.of(), client.describe_keyspace(KS).getCf_defs());
    }

    /** The validation classes of a CfDef apply to the 0.7+ dialect's writes and survive in describe_keyspace. */
    @Test
    void validationClassesOfACfDefAreKeptAndApplied() throws Exception {
        client.system_add_keyspace(keyspace(KS));
        client.set_keyspace(KS);
        client.system_add_column_family(standard(KS, "Typed", "UTF8Type").setKey_validation_class("LongType")
                .setDefault_validation_class("UTF8Type")
                .setColumn_metadata(List.of(new ColumnDef(utf8("age"), "Int32Type"))));
        CfDef described = client.describe_keyspace(KS).getCf_defs().get(0);
        assertEquals("org.apache.cassandra.db.marshal.LongType", described.getKey_validation_class());
        assertEquals("org.apache.cassandra.db.marshal.Int32Type",
                described.getColumn_metadata().get(0).getValidation_class());
        ByteBuffer key = ByteBuffer.allocate(8).putLong(0, 7);
        client.insert(key, new ColumnParent("Typed"), column("name", "Dana"), ConsistencyLevel.ONE);
        assertTrue(assertThrows(InvalidRequestException.class, () -> client.insert(utf8("abc"),
                new ColumnParent("Typed"), column("name", "Dana"), ConsistencyLevel.ONE)).getWhy()
                .contains("Expected 8 or 0 byte long"), "a key LongType refuses");
        assertTrue(assertThrows(InvalidRequestException.class, () -> client.insert(key, new ColumnParent("Typed"),
                column("age", "old"), ConsistencyLevel.ONE)).getWhy().endsWith("[" + KS + "][Typed][age] failed"
                + " validation"), "a value its column's class refuses");
    }

    @Test
    void aColumnFamilyMadeAgainAfterADropStartsEmpty() throws Exception {
        client.system_add_keyspace(keyspace(KS, standard(KS, "Cf1", "UTF8Type")));
        client.set_keyspace(KS);
        client.insert(utf8("row"), new ColumnParent("Cf1"), column("a", "1"), ConsistencyLevel.ONE);
        client.system_drop_column_family("Cf1");
        assertEquals("unconfigured table Cf1", assertThrows(InvalidRequestException.class, () -> names("Cf1")).getWhy());
        client.system_add_column_family(standard(KS, "Cf1", "UTF8Type"));
        assertEquals(List.of(), names("Cf1"));
        client.system_drop_keyspace(KS);
        assertFalse(server.engine.keyspace(KS).isPresent());
        client.system_add_keyspace(keyspace(KS, standard(KS, "Cf1", "UTF8Type")));
        assertEquals(List.of(), names("Cf1"));
    }

    private String onlyVersion() throws Exception {
        Map<String, List<String>> versions = client.describe_schema_versions();
        assertEquals(1, versions.size(), versions::toString);
        String version = versions.keySet().iterator().next();
        assertTrue(version.matches("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"), version);
        return version;
    }

    private List<String> names(String cf) throws Exception {
        return client.get_slice(utf8("row"), new ColumnParent(cf), new SlicePredicate().setSlice_range(
                        new SliceRange(utf8(""), utf8(""), false, 100)), ConsistencyLevel.ONE).stream()
                .map(c -> new String(c.getColumn().getName(), StandardCharsets.UTF_8)).toList();
    }

    static KsDef keyspace(String name, CfDef... families) {
        return new KsDef(name, "org.apache.cassandra.locator.SimpleStrategy", List.of(families))
                .setStrategy_options(Map.of("replication_factor", "1"));
    }

    static CfDef standard(String keyspace, String name, String comparator) {
        return new CfDef(keyspace, name).setComparator_type(comparator);
    }

    private static Column column(String name, String value) {
        return new Column(utf8(name)).setValue(utf8(value)).setTimestamp(1);
    }

    private static ByteBuffer utf8(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
    }
}
