package sibyl.client.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Hector client (org.hectorclient:hector-core from Maven Central) as an application uses it, against
 * {@code bin/server} with the shipped configuration: client/src/test/hector/HectorProgram.java writes, reads,
 * slices, counts, range-scans and deletes in Keyspace1 through Hector's public API, makes a keyspace and column
 * families by API (waiting for schema agreement), writes and reads them (counters too) and drops them, and reads a
 * column family of Keyspace1 with a KEYS index (added to the configuration here) by IndexedSlicesQuery, and checks
 * every answer itself.
 *
 * <p>Hector brings the 0.7+ bindings in org.apache.cassandra.thrift, the package of the 0.6 bindings on this
 * module's class path, so the program runs in a JVM of its own, from source, on the class path
 * client/src/test/hector/pom.xml resolves (skipped off CI where it cannot be, as {@link MavenClassPath} says).
 */
class HectorIT {
    @TempDir
    Path dir;

    @Test
    void hectorReadsWhatItWrote() throws Exception {
        LocalNode node = LocalNode.configuredBy(dir, withIndexedFamily(Files.readString(LocalNode.home().resolve("conf/storage-conf.xml"))));
        runHector(node);
    }

    /**
     * Under SimpleAuthenticator Hector logs each connection in before it names its keyspace (docs/differences.md
     * §The 0.7+ dialect): the shipped passwd.properties and access.properties let dilbert use Keyspace1, and one
     * more line the keyspace the program makes.
     */
    @Test
    void hectorLogsInUnderSimpleAuthenticator() throws Exception {
        String conf = withIndexedFamily(Files.readString(LocalNode.home().resolve("conf/storage-conf.xml")))
                .replaceFirst("<Authenticator>[^<]*</Authenticator>",
                        "<Authenticator>org.apache.cassandra.auth.SimpleAuthenticator</Authenticator>");
        LocalNode node = LocalNode.configuredBy(dir, conf);
        for (String file : List.of("passwd.properties", "access.properties")) {
            Files.copy(LocalNode.home().resolve("conf").resolve(file), dir.resolve("conf").resolve(file));
        }
        // The keyspace the program makes by API, named ahead as an operator would.
        Files.writeString(dir.resolve("conf/access.properties"), "\nHectorMade=dilbert\n", StandardOpenOption.APPEND);
        runHector(node, "dilbert", "nomoovertime");
    }

    /** {@code conf} with People in Keyspace1: a column family with a KEYS index on "city", for IndexedSlicesQuery. */
    private static String withIndexedFamily(String conf) {
        return conf.replaceFirst("</Keyspace>", "<ColumnFamily Name=\"People\" CompareWith=\"UTF8Type\"><Column Name=\"city\""
                + " ValidationClass=\"UTF8Type\" IndexType=\"KEYS\"/></ColumnFamily></Keyspace>");
    }

    /** Runs HectorProgram against {@code node}, with a user and password if given, and checks what it printed. */
    private void runHector(LocalNode node, String... credentials) throws Exception {
        String printed = ClientProgram.run(node, dir, "client/src/test/hector/HectorProgram.java", "hector.classpath",
                credentials);
        assertTrue(printed.contains("ok range slice after deletes: [0x8000ffc3:, alice: age=31 name=Alice zip=75001, bob:, "
                + "carol: name=Carol]\n"), () -> "the range scan after deletes is in:\n" + printed);
        assertTrue(printed.strip().endsWith("HECTOR OK: 28 checks passed"), () -> "every check ran:\n" + printed);
    }
}
