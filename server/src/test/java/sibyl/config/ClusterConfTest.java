package sibyl.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static sibyl.config.ConfXml.load;
import static sibyl.config.ConfXml.minimalPlus;
import static sibyl.config.ConfXml.minimalWith;
import static sibyl.config.ConfXml.refused;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Sibyl's Cluster element: what it loads into, and each refusal naming file, element and problem. */
class ClusterConfTest {
    private static final String CLUSTER = "Storage/Cluster";

    @TempDir
    Path dir;

    private static String cluster(String inside) {
        return minimalPlus("<Cluster>" + inside + "</Cluster>");
    }

    private static final String POINT = "<ContactPoints><ContactPoint>10.0.0.1</ContactPoint></ContactPoints>";
    private static final String DC = "<LocalDatacenter>dc1</LocalDatacenter>";

    @Test
    void absentMeansTheEmbeddedEngine() throws Exception {
        assertTrue(load(dir, ConfXml.MINIMAL).cluster().isEmpty());
    }

    @Test
    void settingsAndDefaults() throws Exception {
        ClusterConf c = load(dir, cluster("<ContactPoints><ContactPoint>10.0.0.1</ContactPoint>"
                + "<ContactPoint>db2:9142</ContactPoint><ContactPoint>[::1]:9043</ContactPoint></ContactPoints>" + DC
                + "<DatacenterReplication Keyspace=\"Keyspace1\"><Datacenter Name=\"dc1\">3</Datacenter>"
                + "<Datacenter Name=\"dc2\">2</Datacenter></DatacenterReplication>")).cluster().orElseThrow();
        assertEquals(List.of(new ClusterConf.ContactPoint("10.0.0.1", 9042), new ClusterConf.ContactPoint("db2", 9142),
                new ClusterConf.ContactPoint("::1", 9043)), c.contactPoints());
        assertEquals("dc1", c.localDatacenter());
        assertNull(c.username());
        assertNull(c.trustStore());
        assertEquals(10_000, c.requestTimeoutInMillis(), "RpcTimeoutInMillis' shipped value when absent");
        assertEquals(30, c.connectTimeoutInSeconds());
        assertEquals("", c.keyspacePrefix());
        assertEquals(Map.of("dc1", 3, "dc2", 2), c.datacenterReplication("Keyspace1").orElseThrow());
    }

    @Test
    void requestTimeoutFollowsRpcTimeoutUnlessGiven() throws Exception {
        String rpc = "<RpcTimeoutInMillis>1500</RpcTimeoutInMillis>";
        assertEquals(1500, load(dir, minimalPlus(rpc + "<Cluster>" + POINT + DC + "</Cluster>")).cluster()
                .orElseThrow().requestTimeoutInMillis());
        assertEquals(700, load(dir, minimalPlus(rpc + "<Cluster>" + POINT + DC
                + "<RequestTimeoutInMillis>700</RequestTimeoutInMillis></Cluster>")).cluster().orElseThrow()
                .requestTimeoutInMillis());
    }

    @Test
    void noContactPoint() {
        refused(dir, cluster(DC), CLUSTER + "/ContactPoints/ContactPoint", "name at least one node");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "db1:port | expected host:port with a port number",
            "db1:0 | port must be between 1 and 65535",
            "::1 | write it in brackets",
            "[::1 | lacks the ]",
            ":9042 | no host"})
    void badContactPoint(String point, String problem) {
        refused(dir, cluster("<ContactPoints><ContactPoint>" + point + "</ContactPoint></ContactPoints>" + DC),
                CLUSTER + "/ContactPoints/ContactPoint[1]", problem);
    }

    @Test
    void noLocalDatacenter() {
        refused(dir, cluster(POINT), CLUSTER + "/LocalDatacenter", "required element is missing");
    }

    @Test
    void usernameWithoutPassword() {
        refused(dir, cluster(POINT + DC + "<Username>u</Username>"), CLUSTER + "/Password", "go together");
    }

    @Test
    void missingTrustStore() {
        refused(dir, cluster(POINT + DC + "<TrustStore>conf/none.jks</TrustStore>"), CLUSTER + "/TrustStore",
                "is not a readable file");
    }

    @Test
    void trustStorePasswordWithoutTrustStore() {
        refused(dir, cluster(POINT + DC + "<TrustStorePassword>x</TrustStorePassword>"),
                CLUSTER + "/TrustStorePassword", "without a TrustStore");
    }

    @Test
    void trustStoreRelativeToTheInstall() throws Exception {
        Files.createDirectories(dir.resolve("conf"));
        Files.writeString(dir.resolve("conf/trust.p12"), "not checked here");
        assertEquals(dir.toAbsolutePath().resolve("conf/trust.p12"), load(dir,
                cluster(POINT + DC + "<TrustStore>conf/trust.p12</TrustStore>")).cluster().orElseThrow().trustStore());
    }

    @Test
    void badTimeouts() {
        refused(dir, cluster(POINT + DC + "<RequestTimeoutInMillis>0</RequestTimeoutInMillis>"),
                CLUSTER + "/RequestTimeoutInMillis", "must be positive");
        refused(dir, cluster(POINT + DC + "<ConnectTimeoutInSeconds>soon</ConnectTimeoutInSeconds>"),
                CLUSTER + "/ConnectTimeoutInSeconds", "expected a whole number");
    }

    @Test
    void keyspacePrefixMustBeACqlName() {
        refused(dir, cluster(POINT + DC + "<KeyspacePrefix>my-app</KeyspacePrefix>"), CLUSTER + "/KeyspacePrefix",
                "only letters, digits and _");
    }

    @Test
    void keyspaceAndColumnFamilyNamesMustBeCqlNames() {
        refused(dir, minimalWith("Keyspace1", "Key.space").replace("</Storage>",
                        "<Cluster>" + POINT + DC + "</Cluster></Storage>"),
                "Storage/Keyspaces/Keyspace[@Name='Key.space']/@Name", "a CQL keyspace name");
        refused(dir, cluster(POINT + DC + "<KeyspacePrefix>" + "p".repeat(40) + "</KeyspacePrefix>"),
                "Storage/Keyspaces/Keyspace[@Name='Keyspace1']/@Name", "at most 48");
        refused(dir, minimalWith("Standard1", "Std.1").replace("</Storage>",
                        "<Cluster>" + POINT + DC + "</Cluster></Storage>"),
                "Storage/Keyspaces/Keyspace[@Name='Keyspace1']/ColumnFamily[@Name='Std.1']/@Name", "CQL table name");
    }

    @Test
    void datacenterReplicationNamesAConfiguredKeyspace() {
        refused(dir, cluster(POINT + DC + "<DatacenterReplication Keyspace=\"Nope\"><Datacenter Name=\"dc1\">3"
                        + "</Datacenter></DatacenterReplication>"),
                CLUSTER + "/DatacenterReplication[1]/@Keyspace", "no keyspace 'Nope'");
        refused(dir, cluster(POINT + DC + "<DatacenterReplication><Datacenter Name=\"dc1\">3</Datacenter>"
                        + "</DatacenterReplication>"),
                CLUSTER + "/DatacenterReplication[1]/@Keyspace", "required attribute");
        refused(dir, cluster(POINT + DC + "<DatacenterReplication Keyspace=\"Keyspace1\"><Datacenter Name=\"dc1\">"
                        + "three</Datacenter></DatacenterReplication>"),
                CLUSTER + "/DatacenterReplication[1]/Datacenter[@Name='dc1']", "expected a whole number");
        refused(dir, cluster(POINT + DC + "<DatacenterReplication Keyspace=\"Keyspace1\"/>"),
                CLUSTER + "/DatacenterReplication[1]/Datacenter", "give at least one");
    }
}
