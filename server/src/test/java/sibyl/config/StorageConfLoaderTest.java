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
import java.util.Map;
import java.util.function.ToIntFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import sibyl.testing.LogCapture;

/** Files that load: what the model holds after defaults, aliases and path resolution. */
class StorageConfLoaderTest {
    @TempDir
    Path dir;

    @Test
    void minimal06FileGetsCodeDefaults() throws Exception {
        StorageConf conf = load(dir, MINIMAL);
        assertEquals(128, conf.indexInterval());
        assertEquals(ClassNames.ALLOW_ALL_AUTHENTICATOR, conf.authenticator());
        assertNull(conf.initialToken());
        assertEquals(128, conf.commitLogRotationThresholdInMB());
        assertNull(conf.listenAddress());
        assertNull(conf.thriftAddress());
        assertEquals(9160, conf.thriftPort());
        assertEquals(64, conf.columnIndexSizeInKB());
        assertEquals(64, conf.memtableThroughputInMB());
        assertEquals(0.1, conf.memtableOperationsInMillions());
        assertEquals(60, conf.memtableFlushAfterMinutes());
        assertEquals(8, conf.concurrentReads());
        assertEquals(32, conf.concurrentWrites());
        assertEquals(864000, conf.gcGraceSeconds());
        assertFalse(conf.snapshotBeforeCompaction());
        assertEquals(16, conf.thriftMaxMessageLengthInMB());
        assertEquals(1024, conf.thriftMaxConnections());
        assertEquals(0, conf.thriftNetworkThreads());
        assertEquals(0, conf.thriftIdleTimeoutInSeconds());
        assertEquals(8080, conf.jmxPort());
        assertEquals(0, conf.metricsPort());
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
                "<ClusterName>  </ClusterName><InitialToken></InitialToken><ThriftPort/><IndexInterval/>"
                        + "<AutoBootstrap/><FlushIndexBufferSizeInMB> </FlushIndexBufferSizeInMB>"));
        assertEquals("Test Cluster", conf.clusterName());
        assertNull(conf.initialToken());
        assertEquals(9160, conf.thriftPort());
        assertEquals(128, conf.indexInterval());
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

    /** As 0.6 did: a count above 1 is cut to a whole count, and a number may have an exponent. */
    @Test
    void cacheSizesTakeWhat06sParserTook() throws Exception {
        KeyspaceConf ks = load(dir, minimalWithColumnFamilies("""
                <ColumnFamily Name="Cut" KeysCached="1000.7" RowsCached="10.5"/>
                <ColumnFamily Name="Exponent" KeysCached="1e3" RowsCached="2.5E-1"/>
                """)).keyspace("Keyspace1").orElseThrow();
        assertEquals(CacheSize.ofCount(1000), ks.columnFamily("Cut").orElseThrow().keysCached());
        assertEquals(CacheSize.ofCount(10), ks.columnFamily("Cut").orElseThrow().rowsCached());
        assertEquals(CacheSize.ofCount(1000), ks.columnFamily("Exponent").orElseThrow().keysCached());
        assertEquals(CacheSize.ofFraction(0.25), ks.columnFamily("Exponent").orElseThrow().rowsCached());
    }

    /** 0.6 scheduled a save only for a positive period, so a negative one meant never, as 0 does. */
    @Test
    void negativeSavePeriodsMeanNever() throws Exception {
        ColumnFamilyConf cf = load(dir, minimalWithColumnFamilies(
                "<ColumnFamily Name=\"C\" RowCacheSavePeriodInSeconds=\"-1\" KeyCacheSavePeriodInSeconds=\"-3600\"/>"))
                .keyspace("Keyspace1").orElseThrow().columnFamily("C").orElseThrow();
        assertEquals(0, cf.rowCacheSavePeriodInSeconds());
        assertEquals(0, cf.keyCacheSavePeriodInSeconds());
    }

    /** 0.7's converter read ReadRepairChance as a fraction or a percentage; so does Sibyl. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {"0|0.0", "0.25|0.25", "25%|0.25", "1|1.0", "100%|1.0", "2.5e-1|0.25"})
    void readRepairChanceIsAFractionOrAPercentage(String text, double expected) throws Exception {
        ColumnFamilyConf cf = load(dir, minimalWithColumnFamilies(
                "<ColumnFamily Name=\"C\" ReadRepairChance=\"" + text + "\"/>"))
                .keyspace("Keyspace1").orElseThrow().columnFamily("C").orElseThrow();
        assertEquals(expected, cf.readRepairChance());
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
                              Comment="kept as an attribute" DefaultTimeToLive="86400"/>
                <ColumnFamily Name="Super1" ColumnType="Super" CompareWith="UTF8Type"
                              CompareSubcolumnsWith="LongType" ReadRepairChance="1.0" PreloadRowCache="false">
                  <Comment>kept as an element</Comment>
                </ColumnFamily>
                """);
        StorageConf conf = load(dir, replaceCommitLogSyncWithBatch(xml));
        KeyspaceConf ks = conf.keyspace("Keyspace1").orElseThrow();
        ColumnFamilyConf standard = ks.columnFamily("Standard1").orElseThrow();
        assertEquals(3600, standard.gcGraceSeconds());
        assertEquals(86400, standard.defaultTimeToLive());
        assertEquals(0.25, standard.readRepairChance());
        assertTrue(standard.preloadRowCache());
        assertEquals("kept as an attribute", standard.comment());
        ColumnFamilyConf sup = ks.columnFamily("Super1").orElseThrow();
        assertEquals(ClassNames.LONG_TYPE, sup.compareSubcolumnsWith());
        assertEquals(1.0, sup.readRepairChance());
        assertFalse(sup.preloadRowCache());
        assertEquals(0, sup.defaultTimeToLive(), "none unless given");
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

    /** Every global element 0.6 knew, and Sibyl's own: none is unknown, and those Sibyl uses are kept. */
    @Test
    void everyGlobalElementIsRead() throws Exception {
        StorageConf conf;
        try (LogCapture log = new LogCapture(StorageConfLoader.class)) {
            conf = load(dir, minimalPlus("""
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
                <ThriftNetworkThreads>1</ThriftNetworkThreads>
                <ThriftIdleTimeoutInSeconds>300</ThriftIdleTimeoutInSeconds>
                <JmxPort>9090</JmxPort>
                <ControlPort>7002</ControlPort>
                <MetricsPort>9091</MetricsPort>
                """).replace("<DiskAccessMode>auto</DiskAccessMode>", "<DiskAccessMode>mmap_index_only</DiskAccessMode>"));
            assertEquals(List.of(), log.messages(Level.WARN));
        }
        assertEquals("Prod", conf.clusterName());
        assertEquals(256, conf.indexInterval());
        assertEquals("42", conf.initialToken());
        assertEquals(Path.of("/srv/caches"), conf.savedCachesDirectory());
        assertEquals(5000, conf.rpcTimeoutInMillis());
        assertEquals(64, conf.commitLogRotationThresholdInMB());
        assertEquals("10.0.0.1", conf.listenAddress());
        assertEquals("0.0.0.0", conf.thriftAddress());
        assertEquals(0, conf.thriftPort());
        assertEquals(DiskAccessMode.MMAP_INDEX_ONLY, conf.diskAccessMode());
        assertEquals(128, conf.columnIndexSizeInKB());
        assertEquals(32, conf.memtableThroughputInMB());
        assertEquals(0.5, conf.memtableOperationsInMillions());
        assertEquals(30, conf.memtableFlushAfterMinutes());
        assertEquals(2, conf.concurrentReads());
        assertEquals(4, conf.concurrentWrites());
        assertEquals(0, conf.gcGraceSeconds());
        assertEquals(64, conf.thriftMaxMessageLengthInMB());
        assertEquals(10, conf.thriftMaxConnections());
        assertEquals(1, conf.thriftNetworkThreads());
        assertEquals(300, conf.thriftIdleTimeoutInSeconds());
        assertEquals(9090, conf.jmxPort());
        assertTrue(conf.snapshotBeforeCompaction());
        assertEquals(9091, conf.metricsPort());
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

    // ---- accepted forms of each kind of global setting: what 0.6's parsers took loads here

    private static final Map<String, ToIntFunction<StorageConf>> WHOLE_NUMBERS = Map.ofEntries(
            Map.entry("IndexInterval", StorageConf::indexInterval),
            Map.entry("RpcTimeoutInMillis", StorageConf::rpcTimeoutInMillis),
            Map.entry("CommitLogRotationThresholdInMB", StorageConf::commitLogRotationThresholdInMB),
            Map.entry("ThriftPort", StorageConf::thriftPort),
            Map.entry("ColumnIndexSizeInKB", StorageConf::columnIndexSizeInKB),
            Map.entry("MemtableThroughputInMB", StorageConf::memtableThroughputInMB),
            Map.entry("MemtableFlushAfterMinutes", StorageConf::memtableFlushAfterMinutes),
            Map.entry("ConcurrentReads", StorageConf::concurrentReads),
            Map.entry("ConcurrentWrites", StorageConf::concurrentWrites),
            Map.entry("GCGraceSeconds", StorageConf::gcGraceSeconds),
            Map.entry("ThriftMaxMessageLengthInMB", StorageConf::thriftMaxMessageLengthInMB),
            Map.entry("ThriftMaxConnections", StorageConf::thriftMaxConnections),
            Map.entry("ThriftNetworkThreads", StorageConf::thriftNetworkThreads),
            Map.entry("ThriftIdleTimeoutInSeconds", StorageConf::thriftIdleTimeoutInSeconds),
            Map.entry("JmxPort", StorageConf::jmxPort));

    /** Whole numbers as 0.6 read them (Integer.parseInt: a sign or leading zeros are fine), at the ends of their ranges. */
    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(delimiter = '|', value = {
        "IndexInterval|1|1",
        "IndexInterval|+128|128",
        "IndexInterval|0128|128",
        "IndexInterval|2147483647|2147483647",
        "RpcTimeoutInMillis|1|1",
        "CommitLogRotationThresholdInMB|1|1",
        "CommitLogRotationThresholdInMB|4096|4096",
        "ThriftPort|0|0",
        "ThriftPort|65535|65535",
        "ColumnIndexSizeInKB|1|1",
        "ColumnIndexSizeInKB|2097151|2097151",
        "MemtableThroughputInMB|1|1",
        "MemtableFlushAfterMinutes|1|1",
        "ConcurrentReads|2|2",
        "ConcurrentWrites|2|2",
        "GCGraceSeconds|0|0",
        "ThriftMaxMessageLengthInMB|1|1",
        "ThriftMaxMessageLengthInMB|2047|2047",
        "ThriftMaxConnections|1|1",
        "ThriftIdleTimeoutInSeconds|0|0",
        "JmxPort|0|0",
        "JmxPort|65535|65535"})
    void wholeNumberSettings(String element, String text, int expected) throws Exception {
        StorageConf conf = load(dir, minimalPlus("<" + element + ">" + text + "</" + element + ">"));
        assertEquals(expected, WHOLE_NUMBERS.get(element).applyAsInt(conf));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {"1|1", "+10000|10000", "2147483647|2147483647"})
    void commitLogSyncPeriodIsAWholeNumber(String text, int expected) throws Exception {
        StorageConf conf = load(dir, minimalWith("<CommitLogSyncPeriodInMS>10000</CommitLogSyncPeriodInMS>",
                "<CommitLogSyncPeriodInMS>" + text + "</CommitLogSyncPeriodInMS>"));
        assertEquals(expected, conf.commitLogSyncPeriodInMS());
    }

    /** Decimals as 0.6 read them (Double.parseDouble: an exponent, a leading dot, even a type suffix). */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "0.1|0.1", ".5|0.5", "1|1.0", "3e-1|0.3", "2.5E+0|2.5", "0.3d|0.3", "0.000001|0.000001"})
    void memtableOperationsInMillionsIsADecimal(String text, double expected) throws Exception {
        StorageConf conf = load(dir, minimalPlus(
                "<MemtableOperationsInMillions>" + text + "</MemtableOperationsInMillions>"));
        assertEquals(expected, conf.memtableOperationsInMillions());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {"0|0.0", "1|1.0", "0.5|0.5", ".25|0.25", "1e1|10.0"})
    void commitLogSyncBatchWindowIsADecimal(String text, double expected) throws Exception {
        StorageConf conf = load(dir, ConfXml.replace(MINIMAL,
                "<CommitLogSync>periodic</CommitLogSync>\n  <CommitLogSyncPeriodInMS>10000</CommitLogSyncPeriodInMS>",
                "<CommitLogSync>batch</CommitLogSync><CommitLogSyncBatchWindowInMS>" + text
                        + "</CommitLogSyncBatchWindowInMS>"));
        assertEquals(expected, conf.commitLogSyncBatchWindowInMS());
    }

    /**
     * The settings that have no effect in Sibyl load in every form 0.6 started with, without a
     * warning: FlushDataBufferSizeInMB and FlushIndexBufferSizeInMB are decimals (0.6's own test
     * configuration sets FlushIndexBufferSizeInMB to 0.1); where 0.6 checked no range, there is none.
     */
    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(delimiter = '|', value = {
        "FlushIndexBufferSizeInMB|0.1",
        "FlushIndexBufferSizeInMB|8",
        "FlushIndexBufferSizeInMB|1e-1",
        "FlushDataBufferSizeInMB|32",
        "FlushDataBufferSizeInMB|2.5",
        "FlushDataBufferSizeInMB|0",
        "SlicedBufferSizeInKB|64",
        "SlicedBufferSizeInKB|0",
        "SlicedBufferSizeInKB|-1",
        "BinaryMemtableThroughputInMB|256",
        "BinaryMemtableThroughputInMB|0",
        "RowWarningThresholdInMB|1",
        "RowWarningThresholdInMB|512",
        "RowWarningThresholdInMB|8796093022207",
        "PhiConvictThreshold|5",
        "PhiConvictThreshold|16",
        "StoragePort|0",
        "StoragePort|65535",
        "ControlPort|7001",
        "AutoBootstrap|TRUE",
        "HintedHandoffEnabled|False",
        "ThriftFramedTransport|true",
        "DoConsistencyChecksBoolean|true",
        "DoConsistencyChecksBoolean|FALSE",
        "JobTrackerHost|tracker.example.com",
        "JobJarFileLocation|/opt/jobs/job.jar"})
    void settingsWithoutEffectLoadInEveryForm06Took(String element, String text) throws Exception {
        try (LogCapture log = new LogCapture(StorageConfLoader.class)) {
            load(dir, minimalPlus("<" + element + ">" + text + "</" + element + ">"));
            assertEquals(List.of(), log.messages(Level.WARN));
        }
    }

    /** 0.6 read DoConsistencyChecksBoolean with Boolean.parseBoolean: any other text was false. */
    @Test
    void doConsistencyChecksBooleanTakesAnyTextAndWarnsOfWhatIsNotTrueOrFalse() throws Exception {
        try (LogCapture log = new LogCapture(StorageConfLoader.class)) {
            load(dir, minimalPlus("<DoConsistencyChecksBoolean>yes</DoConsistencyChecksBoolean>"));
            List<String> warnings = log.messages(Level.WARN);
            assertEquals(1, warnings.size(), warnings::toString);
            assertTrue(warnings.get(0).contains("Storage/DoConsistencyChecksBoolean")
                    && warnings.get(0).contains("'yes'") && warnings.get(0).contains("read as false"), warnings::toString);
        }
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
        assertThrows(UnsupportedOperationException.class, () -> conf.dataFileDirectories().clear());
        assertThrows(UnsupportedOperationException.class,
                () -> conf.keyspaces().get(0).columnFamilies().clear());
    }
}
