package sibyl.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import ch.qos.logback.core.status.Status;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Comment;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import sibyl.testing.LogCapture;

/** The files in conf/ as shipped: they load, and say what the documentation says they say. */
class ShippedConfigurationTest {
    private static final Path HOME = Path.of(System.getProperty("sibyl.home", "..")).toAbsolutePath().normalize();
    private static final Path CONF = HOME.resolve("conf");

    private static StorageConf shipped() throws ConfigurationException {
        return StorageConfLoader.load(CONF.resolve("storage-conf.xml"));
    }

    @Test
    void globalsHaveTheShippedValues() throws Exception {
        StorageConf conf = shipped();
        assertEquals("Test Cluster", conf.clusterName());
        assertEquals(128, conf.indexInterval());
        assertEquals(ClassNames.ALLOW_ALL_AUTHENTICATOR, conf.authenticator());
        assertEquals(ClassNames.RANDOM_PARTITIONER, conf.partitioner());
        assertNull(conf.initialToken());
        assertEquals(10000, conf.rpcTimeoutInMillis());
        assertEquals(128, conf.commitLogRotationThresholdInMB());
        assertEquals("localhost", conf.listenAddress());
        assertEquals("localhost", conf.thriftAddress());
        assertEquals(9160, conf.thriftPort());
        assertEquals(DiskAccessMode.AUTO, conf.diskAccessMode());
        assertEquals(64, conf.columnIndexSizeInKB());
        assertEquals(64, conf.memtableThroughputInMB());
        assertEquals(0.3, conf.memtableOperationsInMillions());
        assertEquals(60, conf.memtableFlushAfterMinutes());
        assertEquals(8, conf.concurrentReads());
        assertEquals(32, conf.concurrentWrites());
        assertEquals(CommitLogSync.PERIODIC, conf.commitLogSync());
        assertEquals(10000, conf.commitLogSyncPeriodInMS());
        assertNull(conf.commitLogSyncBatchWindowInMS());
        assertEquals(864000, conf.gcGraceSeconds());
        assertEquals(16, conf.thriftMaxMessageLengthInMB());
        assertEquals(1024, conf.thriftMaxConnections());
        assertEquals(0, conf.thriftNetworkThreads());
        assertEquals(0, conf.thriftIdleTimeoutInSeconds());
        assertEquals(8080, conf.jmxPort());
        assertEquals(0, conf.metricsPort());
    }

    @Test
    void directoriesAreUnderTheInstallDirectory() throws Exception {
        StorageConf conf = shipped();
        assertEquals(HOME, conf.installDirectory());
        assertEquals(CONF.resolve("storage-conf.xml"), conf.configFile());
        assertEquals(HOME.resolve("var/commitlog"), conf.commitLogDirectory());
        assertEquals(List.of(HOME.resolve("var/data")), conf.dataFileDirectories());
        assertEquals(HOME.resolve("var/saved_caches"), conf.savedCachesDirectory());
    }

    @Test
    void keyspacesInFileOrder() throws Exception {
        assertEquals(List.of("Keyspace1", "Twitter", "Twissandra", "BloggyAppy"),
                shipped().keyspaces().stream().map(KeyspaceConf::name).toList());
        for (KeyspaceConf keyspace : shipped().keyspaces()) {
            assertEquals("org.apache.cassandra.locator.RackUnawareStrategy", keyspace.replicaPlacementStrategy());
            assertEquals(1, keyspace.replicationFactor());
            assertEquals("org.apache.cassandra.locator.EndPointSnitch", keyspace.endPointSnitch());
        }
    }

    @Test
    void keyspace1IsThe06Sample() throws Exception {
        KeyspaceConf ks = shipped().keyspace("Keyspace1").orElseThrow();
        assertEquals(List.of("Standard1", "Standard2", "StandardByUUID1", "Super1", "Super2"), cfNames(ks));

        ColumnFamilyConf standard1 = ks.columnFamily("Standard1").orElseThrow();
        assertStandard(standard1, ClassNames.BYTES_TYPE);
        assertEquals(CacheSize.ofCount(1000), standard1.keysCached());
        assertEquals(CacheSize.ofCount(100), standard1.rowsCached());
        assertEquals(0, standard1.rowCacheSavePeriodInSeconds());
        assertEquals(3600, standard1.keyCacheSavePeriodInSeconds());

        ColumnFamilyConf standard2 = ks.columnFamily("Standard2").orElseThrow();
        assertStandard(standard2, ClassNames.UTF8_TYPE);
        assertEquals(CacheSize.ofFraction(1.0), standard2.keysCached());
        assertEquals(CacheSize.NONE, standard2.rowsCached());

        ColumnFamilyConf byUuid = ks.columnFamily("StandardByUUID1").orElseThrow();
        assertStandard(byUuid, ClassNames.TIME_UUID_TYPE);
        assertEquals(ColumnFamilyConf.DEFAULT_KEYS_CACHED, byUuid.keysCached());

        assertSuper(ks.columnFamily("Super1").orElseThrow(), ClassNames.BYTES_TYPE, ClassNames.BYTES_TYPE);
        assertNull(ks.columnFamily("Super1").orElseThrow().comment());

        ColumnFamilyConf super2 = ks.columnFamily("Super2").orElseThrow();
        assertSuper(super2, ClassNames.UTF8_TYPE, ClassNames.UTF8_TYPE);
        assertEquals(CacheSize.ofCount(10000), super2.rowsCached());
        assertEquals(CacheSize.ofFraction(0.5), super2.keysCached());
        assertTrue(super2.comment() != null && !super2.comment().isBlank(), "Super2's Comment attribute is honoured");

        for (ColumnFamilyConf cf : ks.columnFamilies()) {
            assertNull(cf.gcGraceSeconds());
            assertNull(cf.readRepairChance());
            assertFalse(cf.preloadRowCache());
        }
    }

    /*
     * The example keyspaces are pinned whole: every attribute of every column family, in file order,
     * as the documents that defined them have it, and nothing Sibyl would add (caches, grace periods,
     * comments) beyond the defaults. Sources: the cassandra Ruby gem's conf/0.6/storage-conf.xml
     * (Twitter), Twissandra's storage-conf.xml of 2010 (Twissandra), Arin Sarkissian's
     * "WTF is a SuperColumn" (BloggyAppy).
     */

    @Test
    void twitterExampleIsTheRubyGemsTwitterKeyspace() throws Exception {
        assertExample("Twitter",
                standard("Users", ClassNames.UTF8_TYPE),
                standard("UserAudits", ClassNames.UTF8_TYPE),
                superCf("UserRelationships", ClassNames.UTF8_TYPE, ClassNames.TIME_UUID_TYPE),
                standard("Usernames", ClassNames.UTF8_TYPE),
                standard("Statuses", ClassNames.UTF8_TYPE),
                standard("StatusAudits", ClassNames.UTF8_TYPE),
                superCf("StatusRelationships", ClassNames.UTF8_TYPE, ClassNames.TIME_UUID_TYPE),
                superCf("Index", ClassNames.UTF8_TYPE, ClassNames.BYTES_TYPE),
                standard("TimelinishThings", ClassNames.BYTES_TYPE));
    }

    @Test
    void twissandraExampleIsTwissandrasKeyspace() throws Exception {
        assertExample("Twissandra",
                standard("User", ClassNames.UTF8_TYPE),
                standard("Username", ClassNames.BYTES_TYPE),
                standard("Friends", ClassNames.BYTES_TYPE),
                standard("Followers", ClassNames.BYTES_TYPE),
                standard("Tweet", ClassNames.UTF8_TYPE),
                standard("Timeline", ClassNames.LONG_TYPE),
                standard("Userline", ClassNames.LONG_TYPE));
    }

    @Test
    void bloggyAppyExampleIsTheSuperColumnArticlesKeyspace() throws Exception {
        assertExample("BloggyAppy",
                standard("Authors", ClassNames.BYTES_TYPE),
                standard("BlogEntries", ClassNames.BYTES_TYPE),
                standard("TaggedPosts", ClassNames.TIME_UUID_TYPE),
                superCf("Comments", ClassNames.TIME_UUID_TYPE, ClassNames.BYTES_TYPE));
    }

    /**
     * The comment above each global element says "No effect in Sibyl" exactly when Sibyl ignores
     * the element, so the shipped file describes no effect that nothing implements.
     */
    @Test
    void commentsSayWhichElementsHaveNoEffect() throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        Element storage = factory.newDocumentBuilder().parse(CONF.resolve("storage-conf.xml").toFile())
                .getDocumentElement();
        List<String> wrong = new ArrayList<>();
        int checked = 0;
        for (Node n = storage.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element element) {
                String comment = commentAbove(element);
                boolean saysNoEffect = comment.strip().startsWith("No effect in Sibyl");
                if (saysNoEffect != UnusedSettings.ELEMENTS.contains(element.getTagName())) {
                    wrong.add(element.getTagName() + ": " + comment.strip());
                }
                checked++;
            }
        }
        assertEquals(List.of(), wrong);
        assertTrue(checked > 30, "checked " + checked + " elements");
    }

    /** The nearest comment before {@code element} among its siblings, or "" when there is none. */
    private static String commentAbove(Element element) {
        for (Node n = element.getPreviousSibling(); n != null; n = n.getPreviousSibling()) {
            if (n instanceof Comment comment) {
                return comment.getData();
            }
        }
        return "";
    }

    @Test
    void loadsWithoutWarnings() throws Exception {
        try (LogCapture log = new LogCapture(StorageConfLoader.class)) {
            shipped();
            assertEquals(List.of(), log.messages(ch.qos.logback.classic.Level.WARN));
        }
    }

    /**
     * conf/cluster/ is the shipped configuration with the Cluster element set (for bin/cassandra-local): the same
     * schema and settings, so a node in cluster mode serves what README and the tests describe. The files agree up
     * to the Cluster element's comment, and the other files of the directory are the shipped ones.
     */
    @Test
    void clusterConfigurationIsTheShippedOneWithTheClusterElementSet() throws Exception {
        Path cluster = CONF.resolve("cluster");
        String marker = "  <!-- Sibyl: store into a real Apache Cassandra cluster";
        String shipped = Files.readString(CONF.resolve("storage-conf.xml"));
        String inCluster = Files.readString(cluster.resolve("storage-conf.xml"));
        assertTrue(shipped.contains(marker) && inCluster.contains(marker), "the Cluster element's comment starts " + marker);
        assertEquals(shipped.substring(0, shipped.indexOf(marker)), inCluster.substring(0, inCluster.indexOf(marker)),
                "conf/cluster/storage-conf.xml differs from conf/storage-conf.xml before the Cluster element");
        for (String f : List.of("logback.xml", "passwd.properties", "access.properties")) {
            assertEquals(Files.readString(CONF.resolve(f)), Files.readString(cluster.resolve(f)), f);
        }
        StorageConf conf = StorageConfLoader.load(cluster.resolve("storage-conf.xml"));
        assertEquals(shipped().keyspaces(), conf.keyspaces());
        ClusterConf c = conf.cluster().orElseThrow();
        assertEquals(List.of(new ClusterConf.ContactPoint("127.0.0.1", 9042), new ClusterConf.ContactPoint("127.0.0.2",
                9042)), c.contactPoints());
        assertEquals("datacenter1", c.localDatacenter());
        assertTrue(shipped().cluster().isEmpty(), "the shipped node stores itself");
    }

    @Test
    void sampleAuthenticationFiles() throws IOException {
        Properties passwd = properties("passwd.properties");
        assertEquals(3, passwd.size());
        assertEquals("havebadpass", passwd.getProperty("jsmith"));
        assertEquals("graceland4evar", passwd.getProperty("Elvis Presley"));
        assertEquals("nomoovertime", passwd.getProperty("dilbert"));
        Properties access = properties("access.properties");
        assertEquals(1, access.size());
        assertEquals("jsmith,Elvis Presley,dilbert", access.getProperty("Keyspace1"));
    }

    @Test
    void logbackConfigurationIsValidAndLogsUnderSibylHome(@TempDir Path home) throws Exception {
        LoggerContext context = new LoggerContext();
        context.setMDCAdapter(new LogbackMDCAdapter());
        context.putProperty("sibyl.home", home.toString());
        JoranConfigurator configurator = new JoranConfigurator();
        configurator.setContext(context);
        configurator.doConfigure(CONF.resolve("logback.xml").toFile());
        List<Status> problems = context.getStatusManager().getCopyOfStatusList().stream()
                .filter(s -> s.getLevel() >= Status.WARN)
                .toList();
        context.getLogger("test").info("hello");
        context.stop();
        assertEquals(List.of(), problems);
        String logged = Files.readString(home.resolve("var/log/system.log"));
        assertTrue(logged.contains("hello"), logged);
    }

    private static Properties properties(String name) throws IOException {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(CONF.resolve(name))) {
            properties.load(reader);
        }
        return properties;
    }

    private static List<String> cfNames(KeyspaceConf ks) {
        return ks.columnFamilies().stream().map(ColumnFamilyConf::name).toList();
    }

    /** All three sources define RackUnawareStrategy with one replica and the stock snitch. */
    private static void assertExample(String keyspace, ColumnFamilyConf... columnFamilies) throws Exception {
        KeyspaceConf ks = shipped().keyspace(keyspace).orElseThrow();
        assertEquals("org.apache.cassandra.locator.RackUnawareStrategy", ks.replicaPlacementStrategy(), keyspace);
        assertEquals(1, ks.replicationFactor(), keyspace);
        assertEquals("org.apache.cassandra.locator.EndPointSnitch", ks.endPointSnitch(), keyspace);
        List<ColumnFamilyConf> expected = List.of(columnFamilies);
        assertEquals(expected.stream().map(ColumnFamilyConf::name).toList(), cfNames(ks), keyspace);
        for (int i = 0; i < expected.size(); i++) {
            assertEquals(expected.get(i), ks.columnFamilies().get(i), keyspace);
        }
    }

    /** A column family as written with only Name, ColumnType and comparators: every other setting its default. */
    private static ColumnFamilyConf example(String name, ColumnType type, String compareWith, String subcolumns) {
        return new ColumnFamilyConf(name, type, compareWith, subcolumns, null, ColumnFamilyConf.DEFAULT_KEYS_CACHED,
                ColumnFamilyConf.DEFAULT_ROWS_CACHED, 0, 0, null, null, false);
    }

    private static ColumnFamilyConf standard(String name, String compareWith) {
        return example(name, ColumnType.STANDARD, compareWith, null);
    }

    private static ColumnFamilyConf superCf(String name, String compareWith, String compareSubcolumnsWith) {
        return example(name, ColumnType.SUPER, compareWith, compareSubcolumnsWith);
    }

    private static void assertStandard(ColumnFamilyConf cf, String compareWith) {
        assertEquals(ColumnType.STANDARD, cf.type(), cf.name());
        assertEquals(compareWith, cf.compareWith(), cf.name());
        assertNull(cf.compareSubcolumnsWith(), cf.name());
    }

    private static void assertSuper(ColumnFamilyConf cf, String compareWith, String compareSubcolumnsWith) {
        assertEquals(ColumnType.SUPER, cf.type(), cf.name());
        assertEquals(compareWith, cf.compareWith(), cf.name());
        assertEquals(compareSubcolumnsWith, cf.compareSubcolumnsWith(), cf.name());
    }
}
