package sibyl.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static sibyl.config.ConfXml.MINIMAL;
import static sibyl.config.ConfXml.minimalPlus;
import static sibyl.config.ConfXml.minimalWith;
import static sibyl.config.ConfXml.minimalWithColumnFamilies;
import static sibyl.config.ConfXml.refused;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every file Sibyl refuses to start with: the exception names the file, the element and the
 * problem. One test per case of docs/configuration.md §Loading plus the numeric ranges of
 * docs/configuration.md §Global elements.
 */
class StorageConfRefusalTest {
    private static final String KS = "Storage/Keyspaces/Keyspace[@Name='Keyspace1']";
    private static final String CF = KS + "/ColumnFamily[@Name='C']";

    @TempDir
    Path dir;

    // ---- the file itself

    @Test
    void missingFile() {
        Path file = dir.resolve("conf/storage-conf.xml");
        ConfigurationException e =
                assertThrows(ConfigurationException.class, () -> StorageConfLoader.load(file, dir));
        assertEquals(file, e.file());
        assertTrue(e.getMessage().startsWith(file + ": "), e::getMessage);
        assertTrue(e.problem().contains("not found"), e::getMessage);
    }

    @Test
    void malformedXml() {
        ConfigurationException e = refused(dir, "<Storage>\n  <ClusterName>x</Cluster>\n</Storage>",
                "line 2, column 19", "not well-formed XML");
        assertTrue(e.getMessage().contains("Cluster"), e::getMessage);
    }

    @Test
    void emptyFile() {
        refused(dir, "", "line 1, column 1", "not well-formed XML");
    }

    @Test
    void doctypeAndExternalEntitiesAreRefused() throws Exception {
        Path secret = Files.writeString(dir.resolve("secret.txt"), "s3cret");
        String xml = "<?xml version=\"1.0\"?>\n<!DOCTYPE Storage [<!ENTITY x SYSTEM \"" + secret.toUri() + "\">]>\n"
                + MINIMAL.replace("<Seed>127.0.0.1</Seed>", "<Seed>&x;</Seed>");
        ConfigurationException e = refused(dir, xml, "line 2, column 10", "DOCTYPE");
        assertTrue(!e.getMessage().contains("s3cret"));
    }

    @Test
    void rootElementIsNotStorage() {
        refused(dir, "<Configuration/>", "Configuration", "<Storage>");
    }

    // ---- required elements

    @Test
    void missingPartitioner() {
        refused(dir, minimalWith("<Partitioner>org.apache.cassandra.dht.RandomPartitioner</Partitioner>", ""),
                "Storage/Partitioner", "required element is missing");
    }

    @Test
    void emptyPartitionerCountsAsMissing() {
        refused(dir, minimalWith("<Partitioner>org.apache.cassandra.dht.RandomPartitioner</Partitioner>",
                "<Partitioner> </Partitioner>"), "Storage/Partitioner", "required element is missing");
    }

    @Test
    void missingCommitLogSync() {
        refused(dir, minimalWith("<CommitLogSync>periodic</CommitLogSync>", ""),
                "Storage/CommitLogSync", "required element is missing");
    }

    @Test
    void missingDiskAccessMode() {
        refused(dir, minimalWith("<DiskAccessMode>auto</DiskAccessMode>", ""),
                "Storage/DiskAccessMode", "required element is missing");
    }

    @Test
    void missingCommitLogDirectory() {
        refused(dir, minimalWith("<CommitLogDirectory>var/commitlog</CommitLogDirectory>", ""),
                "Storage/CommitLogDirectory", "required element is missing");
    }

    @Test
    void missingDataFileDirectories() {
        refused(dir, minimalWith("<DataFileDirectory>var/data</DataFileDirectory>", ""),
                "Storage/DataFileDirectories/DataFileDirectory", "required element is missing");
    }

    @Test
    void emptyDataFileDirectory() {
        refused(dir, minimalWith("<DataFileDirectory>var/data</DataFileDirectory>",
                "<DataFileDirectory></DataFileDirectory>"),
                "Storage/DataFileDirectories/DataFileDirectory", "required element is missing");
    }

    @Test
    void missingSeed() {
        refused(dir, minimalWith("<Seed>127.0.0.1</Seed>", ""), "Storage/Seeds/Seed", "required element is missing");
    }

    /** Unlike 0.6, a file without keyspaces loads: 0.7+ deployments bring their schema by API. */
    @Test
    void noKeyspacesLoads() throws Exception {
        Path file = Files.createDirectories(dir.resolve("conf")).resolve("storage-conf.xml");
        Files.writeString(file, minimalWith("<Keyspace Name=\"Keyspace1\">", "<!--").replace("</Keyspace>", "-->"));
        assertEquals(List.of(), StorageConfLoader.load(file, dir).keyspaces());
    }

    @Test
    void noKeyspacesElementLoads() throws Exception {
        String xml = MINIMAL.substring(0, MINIMAL.indexOf("<Keyspaces>"))
                + MINIMAL.substring(MINIMAL.indexOf("</Keyspaces>") + "</Keyspaces>".length());
        Path file = Files.createDirectories(dir.resolve("conf")).resolve("storage-conf.xml");
        Files.writeString(file, xml);
        assertEquals(List.of(), StorageConfLoader.load(file, dir).keyspaces());
    }

    // ---- keyspaces

    @Test
    void keyspaceWithoutName() {
        refused(dir, minimalWith("<Keyspace Name=\"Keyspace1\">", "<Keyspace>"),
                "Storage/Keyspaces/Keyspace[1]/@Name", "required attribute is missing");
    }

    @ParameterizedTest
    @ValueSource(strings = {"system", "System", "SYSTEM"})
    void keyspaceNamedSystemInAnyCase(String name) {
        refused(dir, minimalWith("Name=\"Keyspace1\"", "Name=\"" + name + "\""),
                "Storage/Keyspaces/Keyspace[@Name='" + name + "']/@Name", "reserved");
    }

    @Test
    void duplicateKeyspace() {
        String keyspace = MINIMAL.substring(MINIMAL.indexOf("<Keyspace "), MINIMAL.indexOf("</Keyspace>") + 11);
        refused(dir, minimalWith("</Keyspaces>", keyspace + "</Keyspaces>"), KS, "duplicate keyspace 'Keyspace1'");
    }

    @ParameterizedTest
    @ValueSource(strings = {"ReplicaPlacementStrategy", "ReplicationFactor", "EndPointSnitch"})
    void keyspaceWithoutRequiredElement(String element) {
        String xml = MINIMAL.replaceAll("<" + element + ">[^<]*</" + element + ">", "");
        refused(dir, xml, KS + "/" + element, "required element is missing");
    }

    @Test
    void replicationFactorBelowOne() {
        refused(dir, minimalWith("<ReplicationFactor>1</ReplicationFactor>", "<ReplicationFactor>0</ReplicationFactor>"),
                KS + "/ReplicationFactor", "must be positive");
    }

    @Test
    void replicationFactorNotANumber() {
        refused(dir, minimalWith("<ReplicationFactor>1</ReplicationFactor>",
                "<ReplicationFactor>one</ReplicationFactor>"), KS + "/ReplicationFactor", "'one'");
    }

    // ---- column families

    @Test
    void columnFamilyWithoutName() {
        refused(dir, minimalWithColumnFamilies("<ColumnFamily CompareWith=\"UTF8Type\"/>"),
                KS + "/ColumnFamily[1]/@Name", "required attribute is missing");
    }

    @Test
    void columnFamilyNameWithDash() {
        refused(dir, minimalWithColumnFamilies("<ColumnFamily Name=\"Bad-Name\"/>"),
                KS + "/ColumnFamily[@Name='Bad-Name']/@Name", "'-'");
    }

    @Test
    void duplicateColumnFamily() {
        refused(dir, minimalWithColumnFamilies("<ColumnFamily Name=\"C\"/><ColumnFamily Name=\"C\"/>"),
                CF, "duplicate column family 'C' in keyspace 'Keyspace1'");
    }

    @ParameterizedTest
    @ValueSource(strings = {"super", "STANDARD", "Wide"})
    void unknownColumnType(String type) {
        refused(dir, minimalWithColumnFamilies("<ColumnFamily Name=\"C\" ColumnType=\"" + type + "\"/>"),
                CF + "/@ColumnType", "unknown column type '" + type + "'");
    }

    @ParameterizedTest
    @ValueSource(strings = {"IntegerTyp", "com.example.MyType", "org.apache.cassandra.db.marshal.ReversedType",
            "utf8type", "CompositeType(UTF8Type,NoSuchType)"})
    void unknownComparator(String comparator) {
        refused(dir, minimalWithColumnFamilies("<ColumnFamily Name=\"C\" CompareWith=\"" + comparator + "\"/>"),
                CF + "/@CompareWith", "unknown comparator '" + comparator + "'");
    }

    @Test
    void unknownSubcolumnComparator() {
        refused(dir, minimalWithColumnFamilies(
                "<ColumnFamily Name=\"C\" ColumnType=\"Super\" CompareSubcolumnsWith=\"RealType\"/>"),
                CF + "/@CompareSubcolumnsWith", "unknown comparator 'RealType'");
    }

    @Test
    void compareSubcolumnsWithOnAStandardColumnFamily() {
        refused(dir, minimalWithColumnFamilies("<ColumnFamily Name=\"C\" CompareSubcolumnsWith=\"UTF8Type\"/>"),
                CF + "/@CompareSubcolumnsWith", "only a Super column family has subcolumns");
    }

    @Test
    void columnSortIsNoLongerAccepted() {
        refused(dir, minimalWithColumnFamilies("<ColumnFamily Name=\"C\" ColumnSort=\"Time\"/>"),
                CF + "/@ColumnSort", "no longer an accepted attribute");
    }

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(delimiter = '|', value = {
        "KeysCached|many|not a number",
        "KeysCached|150%|above 100%",
        "KeysCached|-1|negative",
        "KeysCached|NaN|not a number",
        "RowsCached|Infinity|not a number",
        "RowsCached|1e400|not a number",
        "RowsCached|-5%|negative",
        "KeysCachedFraction|half|not a number",
        "RowCacheSavePeriodInSeconds|soon|'soon'",
        "KeyCacheSavePeriodInSeconds|1.5|'1.5'",
        "GCGraceSeconds|ten days|'ten days'",
        "GCGraceSeconds|-1|cannot be negative",
        "DefaultTimeToLive|-1|must be between 0 and 630720000, found -1",
        "DefaultTimeToLive|630720001|must be between 0 and 630720000, found 630720001",
        "DefaultTimeToLive|1h|'1h'",
        "ReadRepairChance|1.5|between 0 and 1",
        "ReadRepairChance|101%|between 0 and 1",
        "ReadRepairChance|-0.1|between 0 and 1",
        "ReadRepairChance|often|'often'",
        "PreloadRowCache|yes|expected true or false"})
    void badColumnFamilyAttributeValue(String attribute, String value, String problem) {
        refused(dir, minimalWithColumnFamilies("<ColumnFamily Name=\"C\" " + attribute + "=\"" + value + "\"/>"),
                CF + "/@" + attribute, problem);
    }

    // ---- classes and modes

    @Test
    void unknownPartitioner() {
        refused(dir, minimalWith("org.apache.cassandra.dht.RandomPartitioner", "org.apache.cassandra.dht.SimplePartitioner"),
                "Storage/Partitioner", "unknown partitioner 'org.apache.cassandra.dht.SimplePartitioner'");
    }

    @Test
    void unknownAuthenticator() {
        refused(dir, minimalPlus("<Authenticator>com.example.LdapAuthenticator</Authenticator>"),
                "Storage/Authenticator", "unknown authenticator 'com.example.LdapAuthenticator'");
    }

    @Test
    void unknownDiskAccessMode() {
        refused(dir, minimalWith("<DiskAccessMode>auto</DiskAccessMode>", "<DiskAccessMode>direct</DiskAccessMode>"),
                "Storage/DiskAccessMode", "unknown disk access mode 'direct'");
    }

    @Test
    void unknownThriftDialect() {
        refused(dir, minimalPlus("<ThriftDialect>3.11</ThriftDialect>"),
                "Storage/ThriftDialect", "unknown Thrift dialect '3.11'; expected 0.6 or 0.7");
    }

    @Test
    void thriftApiVersionOfNoDialect() {
        refused(dir, minimalPlus("<ThriftApiVersion>2.2.0</ThriftApiVersion>"), "Storage/ThriftApiVersion",
                "'2.2.0' is not an API version of the 0.7+ dialect; expected 19.x.y (Cassandra 0.7 to 2.2) or 20.x.y"
                        + " (3.0 to 3.11), such as 20.1.0");
    }

    @Test
    void unknownCommitLogSync() {
        refused(dir, minimalWith("<CommitLogSync>periodic</CommitLogSync>", "<CommitLogSync>always</CommitLogSync>"),
                "Storage/CommitLogSync", "unknown commit log sync mode 'always'");
    }

    // ---- commit log sync settings

    @Test
    void periodWithBatch() {
        refused(dir, minimalWith("<CommitLogSync>periodic</CommitLogSync>",
                "<CommitLogSync>batch</CommitLogSync><CommitLogSyncBatchWindowInMS>1</CommitLogSyncBatchWindowInMS>"),
                "Storage/CommitLogSyncPeriodInMS", "not allowed with batch");
    }

    @Test
    void batchWindowWithPeriodic() {
        refused(dir, minimalPlus("<CommitLogSyncBatchWindowInMS>1</CommitLogSyncBatchWindowInMS>"),
                "Storage/CommitLogSyncBatchWindowInMS", "not allowed with periodic");
    }

    @Test
    void periodicWithoutPeriod() {
        refused(dir, minimalWith("<CommitLogSyncPeriodInMS>10000</CommitLogSyncPeriodInMS>", ""),
                "Storage/CommitLogSyncPeriodInMS", "required element is missing");
    }

    @Test
    void batchWithoutWindow() {
        refused(dir, minimalWith("<CommitLogSync>periodic</CommitLogSync>", "<CommitLogSync>batch</CommitLogSync>")
                .replace("<CommitLogSyncPeriodInMS>10000</CommitLogSyncPeriodInMS>", ""),
                "Storage/CommitLogSyncBatchWindowInMS", "required element is missing");
    }

    // ---- directories and addresses

    @Test
    void commitLogDirectoryEqualToADataDirectory() {
        refused(dir, minimalWith("<CommitLogDirectory>var/commitlog</CommitLogDirectory>",
                "<CommitLogDirectory>var/data</CommitLogDirectory>"), "Storage/CommitLogDirectory",
                "Storage/DataFileDirectories/DataFileDirectory[1]");
    }

    @Test
    void commitLogDirectoryEqualToADataDirectoryWrittenDifferently() {
        refused(dir, minimalWith("<CommitLogDirectory>var/commitlog</CommitLogDirectory>",
                "<CommitLogDirectory>" + dir.toAbsolutePath().resolve("var/./data/") + "</CommitLogDirectory>"),
                "Storage/CommitLogDirectory", "must differ from every data directory");
    }

    @ParameterizedTest
    @ValueSource(strings = {"0.0.0.0", "::", "0"})
    void wildcardListenAddress(String address) {
        refused(dir, minimalPlus("<ListenAddress>" + address + "</ListenAddress>"), "Storage/ListenAddress",
                "wildcard");
    }

    // ---- true/false and numbers, by kind: what 0.6's parser refused, and what Sibyl refuses beyond it

    /** The global settings that are true or false: 0.6 refused any other text, in any letter case. */
    private static final List<String> BOOLEANS =
            List.of("AutoBootstrap", "HintedHandoffEnabled", "ThriftFramedTransport", "SnapshotBeforeCompaction");

    /** The global settings 0.6 read as whole numbers (Integer.parseInt or Long.parseLong). */
    private static final List<String> WHOLE_NUMBERS = List.of("IndexInterval", "RpcTimeoutInMillis",
            "PhiConvictThreshold", "CommitLogRotationThresholdInMB", "StoragePort", "ControlPort", "ThriftPort",
            "RowWarningThresholdInMB", "SlicedBufferSizeInKB", "ColumnIndexSizeInKB", "MemtableThroughputInMB",
            "BinaryMemtableThroughputInMB", "MemtableFlushAfterMinutes", "ConcurrentReads", "ConcurrentWrites",
            "GCGraceSeconds", "ThriftMaxMessageLengthInMB", "ThriftMaxConnections", "ThriftIdleTimeoutInSeconds",
            "ThriftNetworkThreads", "JmxPort", "MetricsPort");

    /** The global settings 0.6 read as decimals (Double.parseDouble), but for CommitLogSyncBatchWindowInMS. */
    private static final List<String> DECIMALS =
            List.of("MemtableOperationsInMillions", "FlushDataBufferSizeInMB", "FlushIndexBufferSizeInMB");

    static Stream<Arguments> booleansWithOtherText() {
        return cross(BOOLEANS, "yes", "1", "on", "t");
    }

    @ParameterizedTest(name = "{0}={1}")
    @MethodSource("booleansWithOtherText")
    void booleanWithOtherText(String element, String text) {
        refused(dir, minimalPlus("<" + element + ">" + text + "</" + element + ">"), "Storage/" + element,
                "expected true or false, found '" + text + "'");
    }

    /** Integer.parseInt took none of these, so neither does Sibyl: not a fraction, not an exponent. */
    static Stream<Arguments> wholeNumbersWithOtherText() {
        return cross(WHOLE_NUMBERS, "abc", "12abc", "1.5", "8.0", "1e3", "0x10", "NaN", "9 9");
    }

    @ParameterizedTest(name = "{0}={1}")
    @MethodSource("wholeNumbersWithOtherText")
    void wholeNumberWithOtherText(String element, String text) {
        refused(dir, minimalPlus("<" + element + ">" + text + "</" + element + ">"), "Storage/" + element,
                "expected a whole number, found '" + text + "'");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"10s", "1.5", "1e4"})
    void commitLogSyncPeriodNotAWholeNumber(String text) {
        refused(dir, minimalWith("<CommitLogSyncPeriodInMS>10000</CommitLogSyncPeriodInMS>",
                "<CommitLogSyncPeriodInMS>" + text + "</CommitLogSyncPeriodInMS>"), "Storage/CommitLogSyncPeriodInMS",
                "expected a whole number, found '" + text + "'");
    }

    /**
     * Double.parseDouble took none of the first ones; it took NaN and the infinities, which no setting can use,
     * so Sibyl refuses them too.
     */
    static Stream<Arguments> decimalsWithOtherText() {
        return cross(DECIMALS, "lots", "abc", "1,5", "0.1.2", "NaN", "Infinity", "-Infinity", "1e400");
    }

    @ParameterizedTest(name = "{0}={1}")
    @MethodSource("decimalsWithOtherText")
    void decimalWithOtherText(String element, String text) {
        refused(dir, minimalPlus("<" + element + ">" + text + "</" + element + ">"), "Storage/" + element,
                "expected a number, found '" + text + "'");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"lots", "NaN", "Infinity"})
    void batchWindowNotANumber(String text) {
        refused(dir, batch(text), "Storage/CommitLogSyncBatchWindowInMS", "expected a number, found '" + text + "'");
    }

    @Test
    void negativeBatchWindow() {
        refused(dir, batch("-1"), "Storage/CommitLogSyncBatchWindowInMS", "cannot be negative");
    }

    private static String batch(String window) {
        return ConfXml.replace(MINIMAL,
                "<CommitLogSync>periodic</CommitLogSync>\n  <CommitLogSyncPeriodInMS>10000</CommitLogSyncPeriodInMS>",
                "<CommitLogSync>batch</CommitLogSync><CommitLogSyncBatchWindowInMS>" + window
                        + "</CommitLogSyncBatchWindowInMS>");
    }

    private static Stream<Arguments> cross(List<String> elements, String... texts) {
        return elements.stream().flatMap(element -> Stream.of(texts).map(text -> Arguments.of(element, text)));
    }

    /**
     * Ranges: 0.6's own (ConcurrentReads, PhiConvictThreshold, IndexInterval, RowWarningThresholdInMB,
     * MemtableOperationsInMillions), the ports', Sibyl's additions', and where Sibyl refuses what 0.6 took
     * (documented in the table of differences): values the engine cannot run with (a timeout, segment size,
     * memtable limit or grace period of 0 or less) and ColumnIndexSizeInKB beyond an int of bytes.
     */
    @ParameterizedTest(name = "{0}={1}")
    @CsvSource({
        "ConcurrentReads, 1, at least 2",
        "ConcurrentWrites, 1, at least 2",
        "IndexInterval, 0, must be positive",
        "IndexInterval, 2147483648, must be at most 2147483647",
        "RowWarningThresholdInMB, 0, between 1 and 8796093022207",
        "RowWarningThresholdInMB, 8796093022208, between 1 and 8796093022207",
        "MemtableOperationsInMillions, 0, greater than 0",
        "MemtableOperationsInMillions, -0.5, greater than 0",
        "PhiConvictThreshold, 4, between 5 and 16",
        "PhiConvictThreshold, 17, between 5 and 16",
        "StoragePort, -1, between 0 and 65535",
        "ControlPort, 65536, between 0 and 65535",
        "ThriftPort, 65536, between 0 and 65535",
        "JmxPort, 70000, between 0 and 65535",
        "MetricsPort, 65536, between 0 and 65535",
        "MetricsPort, -1, between 0 and 65535",
        "RpcTimeoutInMillis, 0, must be positive",
        "CommitLogRotationThresholdInMB, 0, must be positive",
        "ColumnIndexSizeInKB, 0, between 1 and 2097151",
        "ColumnIndexSizeInKB, 2097152, between 1 and 2097151",
        "MemtableThroughputInMB, 0, must be positive",
        "MemtableFlushAfterMinutes, 0, must be positive",
        "GCGraceSeconds, -1, cannot be negative",
        "ThriftMaxMessageLengthInMB, 0, between 1 and 2047",
        "ThriftMaxConnections, 0, must be positive",
        "ThriftIdleTimeoutInSeconds, -1, cannot be negative",
        "ThriftNetworkThreads, -1, cannot be negative"})
    void numberOutOfRange(String element, String value, String problem) {
        refused(dir, minimalPlus("<" + element + ">" + value + "</" + element + ">"), "Storage/" + element, problem);
    }

    @Test
    void commitLogSyncPeriodBelowOne() {
        refused(dir, minimalWith("<CommitLogSyncPeriodInMS>10000</CommitLogSyncPeriodInMS>",
                "<CommitLogSyncPeriodInMS>0</CommitLogSyncPeriodInMS>"), "Storage/CommitLogSyncPeriodInMS",
                "must be positive");
    }

    @Test
    void messageFormat() {
        Path file = ConfXml.write(dir, minimalWith("<CommitLogSync>periodic</CommitLogSync>", ""));
        ConfigurationException e =
                assertThrows(ConfigurationException.class, () -> StorageConfLoader.load(file, dir));
        assertEquals(file + ": Storage/CommitLogSync: required element is missing", e.getMessage());
        assertEquals("Storage/CommitLogSync", e.element());
        assertEquals("required element is missing", e.problem());
    }
}
