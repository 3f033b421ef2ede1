package sibyl.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static sibyl.config.ConfXml.MINIMAL;
import static sibyl.config.ConfXml.load;
import static sibyl.config.ConfXml.minimalPlus;
import static sibyl.config.ConfXml.minimalWith;
import static sibyl.config.ConfXml.minimalWithColumnFamilies;

import ch.qos.logback.classic.Level;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sibyl.testing.LogCapture;

/** Files that load: what the model holds after defaults, aliases and path resolution. */
class StorageConfLoaderTest {
    @TempDir
    Path dir;

    @Test
    void minimal06FileGetsCodeDefaults() throws Exception {
        StorageConf conf = load(dir, MINIMAL);
        assertFalse(conf.autoBootstrap());
        assertTrue(conf.hintedHandoffEnabled());
        assertEquals(128, conf.indexInterval());
        assertEquals(ClassNames.ALLOW_ALL_AUTHENTICATOR, conf.authenticator());
        assertNull(conf.initialToken());
        assertEquals(8, conf.phiConvictThreshold());
        assertEquals(128, conf.commitLogRotationThresholdInMB());
        assertNull(conf.listenAddress());
        assertEquals(7000, conf.storagePort());
        assertNull(conf.thriftAddress());
        assertEquals(9160, conf.thriftPort());
        assertFalse(conf.thriftFramedTransport());
        assertEquals(512, conf.rowWarningThresholdInMB());
        assertEquals(64, conf.slicedBufferSizeInKB());
        assertEquals(32, conf.flushDataBufferSizeInMB());
        assertEquals(8, conf.flushIndexBufferSizeInMB());
        assertEquals(64, conf.columnIndexSizeInKB());
        assertEquals(64, conf.memtableThroughputInMB());
        assertEquals(256, conf.binaryMemtableThroughputInMB());
        assertEquals(0.1, conf.memtableOperationsInMillions());
        assertEquals(60, conf.memtableFlushAfterMinutes());
        assertEquals(8, conf.concurrentReads());
        assertEquals(32, conf.concurrentWrites());
        assertEquals(864000, conf.gcGraceSeconds());
        assertTrue(conf.doConsistencyChecks());
        assertFalse(conf.snapshotBeforeCompaction());
        assertEquals(16, conf.thriftMaxMessageLengthInMB());
        assertEquals(1024, conf.thriftMaxConnections());
        assertEquals(0, conf.thriftIdleTimeoutInSeconds());
        assertEquals(8080, conf.jmxPort());
    }

    @Test
    void absentClusterNameAndRpcTimeoutUseTheShippedValuesAndSaySo() throws Exception {
        try (LogCapture log = new LogCapture(StorageConfLoader.class)) {
            StorageConf conf = load(dir, MINIMAL);
            assertEquals("Test Cluster", conf.clusterName());
            assertEquals(10000, conf.rpcTimeoutInMillis());
            List<String> info = log.messages(Level.INFO);
            assertTrue(info.stream().anyMatch(m -> m.contains("ClusterName") && m.contains("Test Cluster")), info::toString);
            assertTrue(info.stream().anyMatch(m -> m.contains("RpcTimeoutInMillis") && m.contains("10000")), info::toString);
        }
    }

    @Test
    void emptyElementCountsAsAbsent() throws Exception {
        StorageConf conf = load(dir, minimalPlus(
                "<ClusterName>  </ClusterName><InitialToken></InitialToken><ThriftPort/><AutoBootstrap/>"));
        assertEquals("Test Cluster", conf.clusterName());
        assertNull(conf.initialToken());
        assertEquals(9160, conf.thriftPort());
        assertFalse(conf.autoBootstrap());
    }

    @Test
    void relativeDirectoriesResolveAgainstTheInstallDirectory() throws Exception {
        Path absolute = dir.resolve("elsewhere/data2").toAbsolutePath();
        StorageConf conf = load(dir, minimalWith("<DataFileDirectory>var/data</DataFileDirectory>",
                "<DataFileDirectory>var/data</DataFileDirectory><DataFileDirectory>" + absolute
                        + "</DataFileDirectory><DataFileDirectory>var/../more</DataFileDirectory>"));
        Path install = dir.toAbsolutePath();
        assertEquals(install, conf.installDirectory());
        assertEquals(install.resolve("var/commitlog"), conf.commitLogDirectory());
        assertEquals(List.of(install.resolve("var/data"), absolute, install.resolve("more")),
                conf.dataFileDirectories());
        assertEquals(install.resolve("var/saved_caches"), conf.savedCachesDirectory(),
                "an 0.6.0-0.6.5 file without SavedCachesDirectory gets var/saved_caches");
    }

    @Test
    void installDirectoryIsTheParentOfConf() throws Exception {
        Path file = ConfXml.write(dir, MINIMAL);
        StorageConf conf = StorageConfLoader.load(file);
        assertEquals(dir.toAbsolutePath(), conf.installDirectory());
        assertEquals(dir.toAbsolutePath(), InstallDirectory.ofConfDirectory(dir.resolve("conf")));
        assertEquals(dir.toAbsolutePath().resolve("var/data"), conf.dataFileDirectories().get(0));
    }

    @Test
    void shortAndFullClassNamesAreNormalized() throws Exception {
        StorageConf conf = load(dir, minimalWith(
                "<Partitioner>org.apache.cassandra.dht.RandomPartitioner</Partitioner>",
                "<Partitioner>OrderPreservingPartitioner</Partitioner>"
                        + "<Authenticator>SimpleAuthenticator</Authenticator>")
                .replace("<ColumnFamily Name=\"Standard1\"/>",
                        "<ColumnFamily Name=\"A\" CompareWith=\"LongType\"/>"
                                + "<ColumnFamily Name=\"B\" CompareWith=\"org.apache.cassandra.db.marshal.AsciiType\"/>"
                                + "<ColumnFamily Name=\"C\" ColumnType=\"Super\" CompareWith=\"LexicalUUIDType\""
                                + " CompareSubcolumnsWith=\"org.apache.cassandra.db.marshal.TimeUUIDType\"/>"));
        assertEquals(ClassNames.ORDER_PRESERVING_PARTITIONER, conf.partitioner());
        assertEquals(ClassNames.SIMPLE_AUTHENTICATOR, conf.authenticator());
        KeyspaceConf ks = conf.keyspace("Keyspace1").orElseThrow();
        assertEquals(ClassNames.LONG_TYPE, ks.columnFamily("A").orElseThrow().compareWith());
        assertEquals(ClassNames.ASCII_TYPE, ks.columnFamily("B").orElseThrow().compareWith());
        assertEquals(ClassNames.LEXICAL_UUID_TYPE, ks.columnFamily("C").orElseThrow().compareWith());
        assertEquals(ClassNames.TIME_UUID_TYPE, ks.columnFamily("C").orElseThrow().compareSubcolumnsWith());
    }

    @Test
    void columnFamilyDefaults() throws Exception {
        StorageConf conf = load(dir, minimalWithColumnFamilies(
                "<ColumnFamily Name=\"Plain\"/><ColumnFamily Name=\"Sup\" ColumnType=\"Super\"/>"));
        ColumnFamilyConf plain = conf.keyspace("Keyspace1").orElseThrow().columnFamily("Plain").orElseThrow();
        assertEquals(ColumnType.STANDARD, plain.type());
        assertEquals(ClassNames.BYTES_TYPE, plain.compareWith());
        assertNull(plain.compareSubcolumnsWith());
        assertNull(plain.comment());
        assertEquals(CacheSize.ofCount(200000), plain.keysCached());
        assertEquals(CacheSize.NONE, plain.rowsCached());
        assertEquals(0, plain.rowCacheSavePeriodInSeconds());
        assertEquals(0, plain.keyCacheSavePeriodInSeconds());
        assertNull(plain.gcGraceSeconds());
        assertNull(plain.readRepairChance());
        assertFalse(plain.preloadRowCache());
        ColumnFamilyConf sup = conf.keyspace("Keyspace1").orElseThrow().columnFamily("Sup").orElseThrow();
        assertEquals(ClassNames.BYTES_TYPE, sup.compareWith());
        assertEquals(ClassNames.BYTES_TYPE, sup.compareSubcolumnsWith());
        assertEquals("Super", sup.type().wireName());
    }

    @Test
    void savePeriodsAreNotSwapped() throws Exception {
        ColumnFamilyConf cf = load(dir, minimalWithColumnFamilies(
                "<ColumnFamily Name=\"C\" RowCacheSavePeriodInSeconds=\"60\" KeyCacheSavePeriodInSeconds=\"3600\"/>"))
                .keyspace("Keyspace1").orElseThrow().columnFamily("C").orElseThrow();
        assertEquals(60, cf.rowCacheSavePeriodInSeconds());
        assertEquals(3600, cf.keyCacheSavePeriodInSeconds());
    }

    @Test
    void cacheSizesAsCountsFractionsAndPercentages() throws Exception {
        KeyspaceConf ks = load(dir, minimalWithColumnFamilies("""
                <ColumnFamily Name="Count" KeysCached="1000" RowsCached="2"/>
                <ColumnFamily Name="Fraction" KeysCached="0.25" RowsCached="1"/>
                <ColumnFamily Name="Percent" KeysCached="100%" RowsCached="12.5%"/>
                <ColumnFamily Name="Off" KeysCached="0" RowsCached="0%"/>
                """)).keyspace("Keyspace1").orElseThrow();
        assertEquals(CacheSize.ofCount(1000), ks.columnFamily("Count").orElseThrow().keysCached());
        assertEquals(CacheSize.ofCount(2), ks.columnFamily("Count").orElseThrow().rowsCached());
        assertEquals(CacheSize.ofFraction(0.25), ks.columnFamily("Fraction").orElseThrow().keysCached());
        assertEquals(CacheSize.ofFraction(1), ks.columnFamily("Fraction").orElseThrow().rowsCached());
        assertEquals(CacheSize.ofFraction(1), ks.columnFamily("Percent").orElseThrow().keysCached());
        assertEquals(CacheSize.ofFraction(0.125), ks.columnFamily("Percent").orElseThrow().rowsCached());
        assertTrue(ks.columnFamily("Off").orElseThrow().keysCached().isNone());
        assertTrue(ks.columnFamily("Off").orElseThrow().rowsCached().isNone());
    }

    @Test
    void keysCachedFractionIsADeprecatedAlias() throws Exception {
        try (LogCapture log = new LogCapture(StorageConfLoader.class)) {
            ColumnFamilyConf cf = load(dir, minimalWithColumnFamilies(
                    "<ColumnFamily Name=\"C\" KeysCachedFraction=\"0.1\"/>"))
                    .keyspace("Keyspace1").orElseThrow().columnFamily("C").orElseThrow();
            assertEquals(CacheSize.ofFraction(0.1), cf.keysCached());
            assertTrue(log.messages(Level.WARN).stream().anyMatch(m -> m.contains("KeysCachedFraction")
                    && m.contains("deprecated")), () -> log.messages(Level.WARN).toString());
        }
    }

    @Test
    void era07FileLoads() throws Exception {
        String xml = minimalWithColumnFamilies("""
                <ColumnFamily Name="Standard1" CompareWith="BytesType" KeysCached="1000" RowsCached="100"
                              GCGraceSeconds="3600" ReadRepairChance="0.25" PreloadRowCache="true"
                              Comment="kept as an attribute"/>
                <ColumnFamily Name="Super1" ColumnType="Super" CompareWith="UTF8Type"
                              CompareSubcolumnsWith="LongType" ReadRepairChance="1.0" PreloadRowCache="false">
                  <Comment>kept as an element</Comment>
                </ColumnFamily>
                """);
        StorageConf conf = load(dir, replaceCommitLogSyncWithBatch(xml));
        KeyspaceConf ks = conf.keyspace("Keyspace1").orElseThrow();
        ColumnFamilyConf standard = ks.columnFamily("Standard1").orElseThrow();
        assertEquals(3600, standard.gcGraceSeconds());
        assertEquals(0.25, standard.readRepairChance());
        assertTrue(standard.preloadRowCache());
        assertEquals("kept as an attribute", standard.comment());
        ColumnFamilyConf sup = ks.columnFamily("Super1").orElseThrow();
        assertEquals(ClassNames.LONG_TYPE, sup.compareSubcolumnsWith());
        assertEquals(1.0, sup.readRepairChance());
        assertFalse(sup.preloadRowCache());
        assertEquals("kept as an element", sup.comment());
        assertEquals(CommitLogSync.BATCH, conf.commitLogSync());
        assertEquals(1.5, conf.commitLogSyncBatchWindowInMS());
        assertNull(conf.commitLogSyncPeriodInMS());
    }

    private static String replaceCommitLogSyncWithBatch(String xml) {
        return ConfXml.replace(xml,
                "<CommitLogSync>periodic</CommitLogSync>\n  <CommitLogSyncPeriodInMS>10000</CommitLogSyncPeriodInMS>",
                "<CommitLogSync>batch</CommitLogSync><CommitLogSyncBatchWindowInMS>1.5</CommitLogSyncBatchWindowInMS>");
    }

    @Test
    void everyGlobalElementIsRead() throws Exception {
        StorageConf conf = load(dir, minimalPlus("""
                <ClusterName>Prod</ClusterName>
                <AutoBootstrap>TRUE</AutoBootstrap>
                <HintedHandoffEnabled>false</HintedHandoffEnabled>
                <IndexInterval>256</IndexInterval>
                <InitialToken>42</InitialToken>
                <SavedCachesDirectory>/srv/caches</SavedCachesDirectory>
                <RpcTimeoutInMillis>5000</RpcTimeoutInMillis>
                <PhiConvictThreshold>12</PhiConvictThreshold>
                <CommitLogRotationThresholdInMB>64</CommitLogRotationThresholdInMB>
                <ListenAddress>10.0.0.1</ListenAddress>
                <StoragePort>7001</StoragePort>
                <ThriftAddress>0.0.0.0</ThriftAddress>
                <ThriftPort>0</ThriftPort>
                <ThriftFramedTransport>true</ThriftFramedTransport>
                <RowWarningThresholdInMB>10</RowWarningThresholdInMB>
                <SlicedBufferSizeInKB>16</SlicedBufferSizeInKB>
                <FlushDataBufferSizeInMB>4</FlushDataBufferSizeInMB>
                <FlushIndexBufferSizeInMB>2</FlushIndexBufferSizeInMB>
                <ColumnIndexSizeInKB>128</ColumnIndexSizeInKB>
                <MemtableThroughputInMB>32</MemtableThroughputInMB>
                <BinaryMemtableThroughputInMB>128</BinaryMemtableThroughputInMB>
                <MemtableOperationsInMillions>0.5</MemtableOperationsInMillions>
                <MemtableFlushAfterMinutes>30</MemtableFlushAfterMinutes>
                <ConcurrentReads>2</ConcurrentReads>
                <ConcurrentWrites>4</ConcurrentWrites>
                <GCGraceSeconds>0</GCGraceSeconds>
                <DoConsistencyChecksBoolean>false</DoConsistencyChecksBoolean>
                <SnapshotBeforeCompaction>true</SnapshotBeforeCompaction>
                <JobTrackerHost>tracker</JobTrackerHost>
                <JobJarFileLocation>/jobs</JobJarFileLocation>
                <ThriftMaxMessageLengthInMB>64</ThriftMaxMessageLengthInMB>
                <ThriftMaxConnections>10</ThriftMaxConnections>
                <ThriftIdleTimeoutInSeconds>300</ThriftIdleTimeoutInSeconds>
                <JmxPort>9090</JmxPort>
                """).replace("<DiskAccessMode>auto</DiskAccessMode>", "<DiskAccessMode>mmap_index_only</DiskAccessMode>"));
        assertEquals("Prod", conf.clusterName());
        assertTrue(conf.autoBootstrap());
        assertFalse(conf.hintedHandoffEnabled());
        assertEquals(256, conf.indexInterval());
        assertEquals("42", conf.initialToken());
        assertEquals(Path.of("/srv/caches"), conf.savedCachesDirectory());
        assertEquals(5000, conf.rpcTimeoutInMillis());
        assertEquals(12, conf.phiConvictThreshold());
        assertEquals(64, conf.commitLogRotationThresholdInMB());
        assertEquals("10.0.0.1", conf.listenAddress());
        assertEquals(7001, conf.storagePort());
        assertEquals("0.0.0.0", conf.thriftAddress());
        assertEquals(0, conf.thriftPort());
        assertTrue(conf.thriftFramedTransport());
        assertEquals(DiskAccessMode.MMAP_INDEX_ONLY, conf.diskAccessMode());
        assertEquals(10, conf.rowWarningThresholdInMB());
        assertEquals(16, conf.slicedBufferSizeInKB());
        assertEquals(4, conf.flushDataBufferSizeInMB());
        assertEquals(2, conf.flushIndexBufferSizeInMB());
        assertEquals(128, conf.columnIndexSizeInKB());
        assertEquals(32, conf.memtableThroughputInMB());
        assertEquals(128, conf.binaryMemtableThroughputInMB());
        assertEquals(0.5, conf.memtableOperationsInMillions());
        assertEquals(30, conf.memtableFlushAfterMinutes());
        assertEquals(2, conf.concurrentReads());
        assertEquals(4, conf.concurrentWrites());
        assertEquals(0, conf.gcGraceSeconds());
        assertFalse(conf.doConsistencyChecks());
        assertTrue(conf.snapshotBeforeCompaction());
        assertEquals("tracker", conf.jobTrackerHost());
        assertEquals("/jobs", conf.jobJarFileLocation());
        assertEquals(64, conf.thriftMaxMessageLengthInMB());
        assertEquals(10, conf.thriftMaxConnections());
        assertEquals(300, conf.thriftIdleTimeoutInSeconds());
        assertEquals(9090, conf.jmxPort());
    }

    @Test
    void unknownElementsAndAttributesAreWarnedAboutOnceEachAndSkipped() throws Exception {
        String xml = minimalPlus("<FlushPeriodInMinutes>5</FlushPeriodInMinutes><Shiny/>")
                .replace("<Keyspace Name=\"Keyspace1\">", "<Keyspace Name=\"Keyspace1\" Colour=\"blue\">")
                .replace("<ColumnFamily Name=\"Standard1\"/>",
                        "<ColumnFamily Name=\"Standard1\" FlushPeriodInMinutes=\"5\"><Extra/></ColumnFamily>");
        try (LogCapture log = new LogCapture(StorageConfLoader.class)) {
            StorageConf conf = load(dir, xml);
            assertTrue(conf.keyspace("Keyspace1").orElseThrow().columnFamily("Standard1").isPresent());
            List<String> warnings = log.messages(Level.WARN);
            assertEquals(5, warnings.size(), warnings::toString);
            assertWarned(warnings, "Storage/FlushPeriodInMinutes");
            assertWarned(warnings, "Storage/Shiny");
            assertWarned(warnings, "Storage/Keyspaces/Keyspace[@Name='Keyspace1']/@Colour");
            assertWarned(warnings,
                    "Storage/Keyspaces/Keyspace[@Name='Keyspace1']/ColumnFamily[@Name='Standard1']/@FlushPeriodInMinutes");
            assertWarned(warnings, "Storage/Keyspaces/Keyspace[@Name='Keyspace1']/ColumnFamily[@Name='Standard1']/Extra");
        }
    }

    private static void assertWarned(List<String> warnings, String element) {
        assertEquals(1, warnings.stream().filter(w -> w.contains(element + " ")).count(),
                () -> "one warning naming " + element + " in " + warnings);
    }

    @Test
    void keyspaceAndColumnFamilyLookups() throws Exception {
        StorageConf conf = load(dir, MINIMAL);
        assertTrue(conf.keyspace("Keyspace1").isPresent());
        assertTrue(conf.keyspace("keyspace1").isEmpty());
        assertTrue(conf.keyspace("system").isEmpty());
        assertTrue(conf.keyspace("Keyspace1").orElseThrow().columnFamily("Nope").isEmpty());
    }

    @Test
    void modelListsAreImmutable() throws Exception {
        StorageConf conf = load(dir, MINIMAL);
        assertThrows(UnsupportedOperationException.class, () -> conf.keyspaces().clear());
        assertThrows(UnsupportedOperationException.class, () -> conf.seeds().add("x"));
        assertThrows(UnsupportedOperationException.class, () -> conf.dataFileDirectories().clear());
        assertThrows(UnsupportedOperationException.class,
                () -> conf.keyspaces().get(0).columnFamilies().clear());
    }
}
