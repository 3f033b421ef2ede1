package sibyl.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Small storage-conf.xml texts for tests, and helpers to write and load them. Stateless. */
final class ConfXml {
    /** Only what a 0.6 file must contain, with one keyspace of one CF. */
    static final String MINIMAL = """
            <Storage>
              <Keyspaces>
                <Keyspace Name="Keyspace1">
                  <ColumnFamily Name="Standard1"/>
                  <ReplicaPlacementStrategy>org.apache.cassandra.locator.RackUnawareStrategy</ReplicaPlacementStrategy>
                  <ReplicationFactor>1</ReplicationFactor>
                  <EndPointSnitch>org.apache.cassandra.locator.EndPointSnitch</EndPointSnitch>
                </Keyspace>
              </Keyspaces>
              <Partitioner>org.apache.cassandra.dht.RandomPartitioner</Partitioner>
              <CommitLogDirectory>var/commitlog</CommitLogDirectory>
              <DataFileDirectories>
                <DataFileDirectory>var/data</DataFileDirectory>
              </DataFileDirectories>
              <Seeds>
                <Seed>127.0.0.1</Seed>
              </Seeds>
              <DiskAccessMode>auto</DiskAccessMode>
              <CommitLogSync>periodic</CommitLogSync>
              <CommitLogSyncPeriodInMS>10000</CommitLogSyncPeriodInMS>
            </Storage>
            """;

    private ConfXml() {
    }

    /** {@link #MINIMAL} with one piece of text replaced; fails if the piece is not there. */
    static String minimalWith(String target, String replacement) {
        return replace(MINIMAL, target, replacement);
    }

    static String replace(String xml, String target, String replacement) {
        assertTrue(xml.contains(target), () -> "test text lacks: " + target);
        return xml.replace(target, replacement);
    }

    /** {@link #MINIMAL} with extra global elements added at the end of {@code <Storage>}. */
    static String minimalPlus(String globals) {
        return minimalWith("</Storage>", globals + "\n</Storage>");
    }

    /** {@link #MINIMAL} with the Standard1 CF replaced by the given CF elements. */
    static String minimalWithColumnFamilies(String columnFamilies) {
        return minimalWith("<ColumnFamily Name=\"Standard1\"/>", columnFamilies);
    }

    /** Writes {@code xml} as {@code <dir>/conf/storage-conf.xml} and returns its path. */
    static Path write(Path dir, String xml) {
        try {
            Path conf = Files.createDirectories(dir.resolve("conf"));
            return Files.writeString(conf.resolve("storage-conf.xml"), xml);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static StorageConf load(Path dir, String xml) throws ConfigurationException {
        return StorageConfLoader.load(write(dir, xml), dir);
    }

    /**
     * Loads {@code xml} expecting a refusal at {@code element}; checks that the message names
     * the file and the element, and returns the exception for further checks.
     */
    static ConfigurationException refused(Path dir, String xml, String element) {
        Path file = write(dir, xml);
        ConfigurationException e =
                assertThrows(ConfigurationException.class, () -> StorageConfLoader.load(file, dir));
        assertEquals(file, e.file());
        assertEquals(element, e.element(), e::getMessage);
        assertTrue(e.getMessage().startsWith(file + ": " + element + ": "), e::getMessage);
        assertTrue(!e.problem().isBlank(), e::getMessage);
        return e;
    }

    /** {@link #refused} and the problem mentions {@code problemPart}. */
    static ConfigurationException refused(Path dir, String xml, String element, String problemPart) {
        ConfigurationException e = refused(dir, xml, element);
        assertTrue(e.problem().contains(problemPart), () -> "expected '" + problemPart + "' in: " + e.getMessage());
        return e;
    }
}
