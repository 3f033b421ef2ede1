package sibyl.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static sibyl.config.ConfXml.MINIMAL;
import static sibyl.config.ConfXml.minimalPlus;
import static sibyl.config.ConfXml.minimalWith;
import static sibyl.config.ConfXml.minimalWithColumnFamilies;
import static sibyl.config.ConfXml.replace;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The comparison a reload makes between the running configuration and the file as it reads now
 * (docs/configuration.md §Reloading without a restart): each change applied live is one line naming its
 * element; each change that takes a restart refuses the file as a whole, naming the file, the element,
 * what changed and why.
 */
class ConfigDiffTest {
    private static final String KS = "Storage/Keyspaces/Keyspace[@Name='Keyspace1']";
    private static final String CF = KS + "/ColumnFamily[@Name='Standard1']";
    private static final String KEYSPACE2 = """
            <Keyspace Name="Keyspace2">
              <ColumnFamily Name="Users" CompareWith="UTF8Type"/>
              <ColumnFamily Name="Posts" ColumnType="Super" CompareWith="LongType"/>
              <ReplicaPlacementStrategy>org.apache.cassandra.locator.RackUnawareStrategy</ReplicaPlacementStrategy>
              <ReplicationFactor>1</ReplicationFactor>
              <EndPointSnitch>org.apache.cassandra.locator.EndPointSnitch</EndPointSnitch>
            </Keyspace>
            """;

    @TempDir
    Path dir;

    /** Loads the two texts as the same file at two moments, and compares them. */
    private ConfigDiff diff(String running, String reloaded) throws ConfigurationException {
        StorageConf before = ConfXml.load(dir, running);
        StorageConf after = ConfXml.load(dir, reloaded);
        return ConfigDiff.between(before, after);
    }

    private List<String> changes(String running, String reloaded) throws ConfigurationException {
        return diff(running, reloaded).changes().stream().map(ConfigChange::toString).toList();
    }

    /** The refusal of {@code reloaded}: it names the file, {@code element}, and says what changed and why. */
    private ConfigurationException refused(String running, String reloaded, String element, String what) {
        ConfigurationException e = assertThrows(ConfigurationException.class, () -> diff(running, reloaded));
        Path file = dir.resolve("conf/storage-conf.xml");
        assertEquals(file, e.file());
        assertEquals(element, e.element(), e::getMessage);
        assertTrue(e.getMessage().startsWith(file + ": " + element + ": " + what + "; "), e::getMessage);
        assertTrue(e.problem().length() > what.length() + 20, () -> "says why: " + e.getMessage());
        assertTrue(!e.getMessage().contains("\n"), () -> "one line: " + e.getMessage());
        return e;
    }

    @Test
    void theSameFileChangesNothing() throws Exception {
        assertTrue(diff(MINIMAL, MINIMAL).isEmpty());
    }

    @Test
    void settingsWithoutEffectAreNotChanges() throws Exception {
        String more = minimalWith("<Seed>127.0.0.1</Seed>", "<Seed>127.0.0.1</Seed><Seed>10.0.0.2</Seed>");
        assertEquals(List.of(), changes(MINIMAL, minimalPlus("<HintedHandoffEnabled>false</HintedHandoffEnabled>")));
        assertEquals(List.of(), changes(MINIMAL, more));
    }

    @Test
    void aNewKeyspaceIsOneChangeListingItsColumnFamilies() throws Exception {
        String reloaded = minimalWith("</Keyspaces>", KEYSPACE2 + "</Keyspaces>");
        assertEquals(List.of("Storage/Keyspaces/Keyspace[@Name='Keyspace2']: new keyspace with column families Users,"
                + " Posts"), changes(MINIMAL, reloaded));
    }

    @Test
    void aNewColumnFamilySaysItsTypeAndComparators() throws Exception {
        String reloaded = minimalWithColumnFamilies("<ColumnFamily Name=\"Standard1\"/>"
                + "<ColumnFamily Name=\"Super9\" ColumnType=\"Super\" CompareWith=\"UTF8Type\"/>");
        assertEquals(List.of(KS + "/ColumnFamily[@Name='Super9']: new Super column family, CompareWith UTF8Type,"
                + " CompareSubcolumnsWith BytesType"), changes(MINIMAL, reloaded));
    }

    @Test
    void removalsAreChangesTheBackendJudges() throws Exception {
        String two = minimalWith("</Keyspaces>", KEYSPACE2 + "</Keyspaces>");
        String withoutUsers = replace(two, "<ColumnFamily Name=\"Users\" CompareWith=\"UTF8Type\"/>", "");
        assertEquals(List.of("Storage/Keyspaces/Keyspace[@Name='Keyspace2']/ColumnFamily[@Name='Users']: column family"
                + " removed"), changes(two, withoutUsers));
        assertEquals(List.of("Storage/Keyspaces/Keyspace[@Name='Keyspace2']: keyspace removed"), changes(two, MINIMAL));
    }

    @Test
    void cachesAndGraceOfAColumnFamilyChangeLive() throws Exception {
        String reloaded = minimalWithColumnFamilies("<ColumnFamily Name=\"Standard1\" KeysCached=\"50%\""
                + " RowsCached=\"1000\" KeyCacheSavePeriodInSeconds=\"60\" GCGraceSeconds=\"0\" Comment=\"users\""
                + " DefaultTimeToLive=\"3600\"/>");
        assertEquals(List.of(
                CF + "/Comment: changed (describe_keyspace shows the new text)",
                CF + "/@KeysCached: changed from 200000 to 50%",
                CF + "/@RowsCached: changed from 0 to 1000",
                CF + "/@KeyCacheSavePeriodInSeconds: changed from 0 to 60",
                CF + "/@GCGraceSeconds: set to 0 (was not set)",
                CF + "/@DefaultTimeToLive: changed from 0 to 3600 (for writes from then on)"), changes(MINIMAL, reloaded));
    }

    @Test
    void memtableThresholdsAndGraceOfTheNodeChangeLive() throws Exception {
        String reloaded = minimalPlus("<MemtableThroughputInMB>1</MemtableThroughputInMB>"
                + "<MemtableOperationsInMillions>0.001</MemtableOperationsInMillions>"
                + "<MemtableFlushAfterMinutes>5</MemtableFlushAfterMinutes><GCGraceSeconds>10</GCGraceSeconds>");
        assertEquals(List.of(
                "Storage/MemtableThroughputInMB: changed from 64 to 1",
                "Storage/MemtableOperationsInMillions: changed from 0.1 to 0.001",
                "Storage/MemtableFlushAfterMinutes: changed from 60 to 5",
                "Storage/GCGraceSeconds: changed from 864000 to 10"), changes(MINIMAL, reloaded));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            ThriftPort           | <ThriftPort>9161</ThriftPort>                   | changed from 9160 to 9161
            JmxPort              | <JmxPort>0</JmxPort>                            | changed from 8080 to 0
            RpcTimeoutInMillis   | <RpcTimeoutInMillis>5</RpcTimeoutInMillis>      | changed from 10000 to 5
            ClusterName          | <ClusterName>Other</ClusterName>                | changed from Test Cluster to Other
            InitialToken         | <InitialToken>42</InitialToken>                 | set to 42 (was not set)
            ConcurrentReads      | <ConcurrentReads>4</ConcurrentReads>            | changed from 8 to 4
            IndexInterval        | <IndexInterval>64</IndexInterval>               | changed from 128 to 64
            SnapshotBeforeCompaction | <SnapshotBeforeCompaction>true</SnapshotBeforeCompaction> | changed from false to true
            """)
    void nodeSettingsTakeARestart(String element, String added, String what) {
        refused(MINIMAL, minimalPlus(added), "Storage/" + element, what);
    }

    @Test
    void partitionerDirectoriesCommitLogAndAuthenticatorTakeARestart() {
        refused(MINIMAL, minimalWith("RandomPartitioner", "OrderPreservingPartitioner"), "Storage/Partitioner",
                "changed from org.apache.cassandra.dht.RandomPartitioner to"
                        + " org.apache.cassandra.dht.OrderPreservingPartitioner");
        refused(MINIMAL, minimalWith("<DataFileDirectory>var/data</DataFileDirectory>",
                "<DataFileDirectory>var/data2</DataFileDirectory>"), "Storage/DataFileDirectories",
                "changed from " + dir.resolve("var/data") + " to " + dir.resolve("var/data2"));
        refused(MINIMAL, minimalWith("var/commitlog", "var/log2"), "Storage/CommitLogDirectory",
                "changed from " + dir.resolve("var/commitlog") + " to " + dir.resolve("var/log2"));
        refused(MINIMAL, minimalWith("<CommitLogSyncPeriodInMS>10000", "<CommitLogSyncPeriodInMS>500"),
                "Storage/CommitLogSyncPeriodInMS", "changed from 10000 to 500");
        ConfigurationException e = refused(MINIMAL, minimalPlus("<Authenticator>SimpleAuthenticator</Authenticator>"),
                "Storage/Authenticator", "changed from org.apache.cassandra.auth.AllowAllAuthenticator to"
                        + " org.apache.cassandra.auth.SimpleAuthenticator");
        assertTrue(e.problem().contains("restart"), e::getMessage);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            CompareWith           | <ColumnFamily Name="Standard1" CompareWith="UTF8Type"/> | changed from BytesType to UTF8Type
            ColumnType            | <ColumnFamily Name="Standard1" ColumnType="Super"/>     | changed from Standard to Super
            """)
    void aColumnFamilyKeepsItsShape(String attribute, String reloadedCf, String what) {
        ConfigurationException e = refused(MINIMAL, minimalWithColumnFamilies(reloadedCf), CF + "/@" + attribute,
                what);
        assertTrue(e.problem().contains("add a column family of another name instead"), e::getMessage);
    }

    @Test
    void aSuperColumnFamilyKeepsItsSubcomparator() {
        String was = minimalWithColumnFamilies("<ColumnFamily Name=\"S\" ColumnType=\"Super\"/>");
        String is = minimalWithColumnFamilies("<ColumnFamily Name=\"S\" ColumnType=\"Super\""
                + " CompareSubcolumnsWith=\"TimeUUIDType\"/>");
        refused(was, is, KS + "/ColumnFamily[@Name='S']/@CompareSubcolumnsWith",
                "changed from BytesType to TimeUUIDType");
    }

    @Test
    void aKeyspaceKeepsItsReplicationFactor() {
        refused(MINIMAL, minimalWith("<ReplicationFactor>1", "<ReplicationFactor>3"), KS + "/ReplicationFactor",
                "changed from 1 to 3");
    }

    /** One refused change among live ones refuses them all: the diff gives no changes, only the refusal. */
    @Test
    void aFileWithOneRefusedChangeIsRefusedAsAWhole() {
        String reloaded = replace(minimalWith("</Keyspaces>", KEYSPACE2 + "</Keyspaces>"), "</Storage>",
                "<MemtableThroughputInMB>1</MemtableThroughputInMB><ThriftPort>1</ThriftPort></Storage>");
        refused(MINIMAL, reloaded, "Storage/ThriftPort", "changed from 9160 to 1");
    }

    private static final String CLUSTER = "<Cluster><ContactPoints><ContactPoint>10.0.0.1</ContactPoint></ContactPoints>"
            + "<LocalDatacenter>dc1</LocalDatacenter>%s</Cluster>";

    private static String inCluster(String xml, String inside) {
        return replace(xml, "</Storage>", CLUSTER.formatted(inside) + "</Storage>");
    }

    @Test
    void theClusterElementTakesARestartButANewKeyspaceBringsItsReplication() throws Exception {
        refused(MINIMAL, inCluster(MINIMAL, ""), "Storage/Cluster", "added");
        refused(inCluster(MINIMAL, ""), MINIMAL, "Storage/Cluster", "removed");
        refused(inCluster(MINIMAL, ""), inCluster(MINIMAL, "<KeyspacePrefix>x_</KeyspacePrefix>"),
                "Storage/Cluster/KeyspacePrefix", "changed from '' to x_");
        refused(inCluster(MINIMAL, ""),
                inCluster(MINIMAL, "<ThriftEndpoints><ThriftEndpoint>10.0.0.5</ThriftEndpoint></ThriftEndpoints>"),
                "Storage/Cluster/ThriftEndpoints", "changed from none to 10.0.0.5");
        ConfigurationException secret = refused(inCluster(MINIMAL, "<Username>u</Username><Password>old</Password>"),
                inCluster(MINIMAL, "<Username>u</Username><Password>new</Password>"), "Storage/Cluster/Password",
                "changed");
        assertTrue(!secret.getMessage().contains("old") && !secret.getMessage().contains("new"), secret::getMessage);
        String dc = "<DatacenterReplication Keyspace=\"%s\"><Datacenter Name=\"dc1\">%d</Datacenter>"
                + "</DatacenterReplication>";
        refused(inCluster(MINIMAL, ""), inCluster(MINIMAL, dc.formatted("Keyspace1", 3)),
                "Storage/Cluster/DatacenterReplication[@Keyspace='Keyspace1']", "set to {dc1=3} (was not set)");
        String two = minimalWith("</Keyspaces>", KEYSPACE2 + "</Keyspaces>");
        assertEquals(List.of("Storage/Keyspaces/Keyspace[@Name='Keyspace2']: new keyspace with column families Users,"
                + " Posts"), changes(inCluster(MINIMAL, ""), inCluster(two, dc.formatted("Keyspace2", 2))));
    }

    /** The running configuration came from the file as it was; a refusal names the file as it is now. */
    @Test
    void refusalsNameTheFileReloaded() throws Exception {
        StorageConf before = ConfXml.load(dir, MINIMAL);
        Path other = Files.createDirectories(dir.resolve("other"));
        StorageConf after = ConfXml.load(other, minimalPlus("<ThriftPort>1</ThriftPort>"));
        ConfigurationException e = assertThrows(ConfigurationException.class, () -> ConfigDiff.between(before, after));
        assertEquals(after.configFile(), e.file());
    }
}
