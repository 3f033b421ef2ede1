package sibyl.client.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import sibyl.client.Bytes;
import sibyl.iface.v20.CfDef;
import sibyl.iface.v20.IndexType;
import sibyl.iface.v20.KsDef;

/** create/update keyspace and column family attributes as they land in KsDef and CfDef. */
class SchemaAttributes07Test {

    private static List<Statement07.Attribute> attributes(String statement) {
        Statement07 s = StatementParser07.parse(statement);
        return s instanceof Statement07.ColumnFamilyDefinition d ? d.attributes()
                : ((Statement07.KeyspaceDefinition) s).attributes();
    }

    @Test
    void columnFamilyAttributesByTheClisNamesAndCfDefsOwn() {
        CfDef cf = new CfDef("Demo", "Tweets");
        SchemaAttributes07.apply(cf, attributes("create column family Tweets with column_type = Super "
                + "and comparator = LongType and subcomparator = UTF8Type and gc_grace = 60 "
                + "and read_repair_chance = 0.5 and default_time_to_live = 30 and comment = 'the tweets' "
                + "and compression_options = {sstable_compression: ''} "
                + "and column_metadata = [{column_name: body, validation_class: UTF8Type, index_type: KEYS}]"));
        assertEquals("Super", cf.getColumn_type());
        assertEquals("LongType", cf.getComparator_type());
        assertEquals("UTF8Type", cf.getSubcomparator_type());
        assertEquals(60, cf.getGc_grace_seconds());
        assertEquals(0.5, cf.getRead_repair_chance());
        assertEquals(30, cf.getDefault_time_to_live());
        assertEquals("the tweets", cf.getComment());
        assertEquals(Map.of("sstable_compression", ""), cf.getCompression_options());
        // a super column family's column_metadata names subcolumns: converted by its subcomparator
        assertEquals("626f6479", Bytes.toHex(cf.getColumn_metadata().get(0).getName()));
        assertEquals(IndexType.KEYS, cf.getColumn_metadata().get(0).getIndex_type());
    }

    @Test
    void columnMetadataNamesFollowTheComparatorGivenInTheSameStatement() {
        CfDef cf = new CfDef("Demo", "Scores");
        SchemaAttributes07.apply(cf, attributes("create column family Scores with column_metadata = "
                + "[{column_name: 7, validation_class: LongType}] and comparator = LongType"));
        assertEquals("0000000000000007", Bytes.toHex(cf.getColumn_metadata().get(0).getName()));
    }

    @Test
    void unknownOrMistypedAttributesAreRefused() {
        CfDef cf = new CfDef("Demo", "U");
        CliError unknown = assertThrows(CliError.class, () -> SchemaAttributes07.apply(cf,
                attributes("create column family U with colour = blue")));
        assertTrue(unknown.getMessage().startsWith("unknown column family attribute 'colour'; the attributes are "),
                unknown.getMessage());
        assertTrue(unknown.getMessage().contains("comparator"), unknown.getMessage());
        CliError number = assertThrows(CliError.class, () -> SchemaAttributes07.apply(cf,
                attributes("create column family U with gc_grace = soon")));
        assertEquals("gc_grace is a whole number, not 'soon'", number.getMessage());
        CliError name = assertThrows(CliError.class, () -> SchemaAttributes07.apply(cf,
                attributes("create column family U with comparator = LongType and column_metadata = "
                        + "[{column_name: age, validation_class: LongType}]")));
        assertTrue(name.getMessage().contains("bad column_name: 'age' is not a decimal 64-bit number"), name.getMessage());
        CliError ks = assertThrows(CliError.class, () -> SchemaAttributes07.newKeyspace("K",
                attributes("create keyspace K with replicas = 3")));
        assertTrue(ks.getMessage().startsWith("unknown keyspace attribute 'replicas'"), ks.getMessage());
    }

    @Test
    void keyspacesDefaultToSimpleStrategyWithOneReplica() {
        KsDef plain = SchemaAttributes07.newKeyspace("K", List.of());
        assertEquals(SchemaAttributes07.SIMPLE_STRATEGY, plain.getStrategy_class());
        assertEquals(Map.of("replication_factor", "1"), plain.getStrategy_options());
        KsDef nts = SchemaAttributes07.newKeyspace("K", attributes("create keyspace K with placement_strategy = "
                + "'NetworkTopologyStrategy' and strategy_options = [{DC1:2, DC2:1}] and durable_writes = false"));
        assertEquals("NetworkTopologyStrategy", nts.getStrategy_class());
        assertEquals(Map.of("DC1", "2", "DC2", "1"), nts.getStrategy_options());
        assertEquals(false, nts.isDurable_writes());
        KsDef rf = SchemaAttributes07.newKeyspace("K", attributes("create keyspace K with replication_factor = 3"));
        assertEquals(Map.of("replication_factor", "3"), rf.getStrategy_options());
    }
}
