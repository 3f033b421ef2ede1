package sibyl.client.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Hector client (org.hectorclient:hector-core from Maven Central) as an application uses it, against
 * {@code bin/server} with the shipped configuration: client/src/test/hector/HectorProgram.java writes, reads,
 * slices, counts, range-scans and deletes in Keyspace1 through Hector's public API, makes a keyspace and column
 * families by API (waiting for schema agreement), writes and reads them and drops them, and checks every answer itself.
 *
 * <p>Hector brings the 0.7+ bindings in org.apache.cassandra.thrift, the package of the 0.6 bindings on this
 * module's class path, so the program runs in a JVM of its own, from source, on the class path
 * client/src/test/hector/pom.xml resolves (skipped off CI where it cannot be, as {@link MavenClassPath} says).
 */
class HectorIT {
    private static final Pattern SERVING = Pattern.compile("Sibyl is serving on [^\\s:]+:(\\d+)");

    @TempDir
    Path dir;

    @Test
    void hectorReadsWhatItWrote() throws Exception {
        LocalNode node = new LocalNode(dir);
        runHector(node);
    }

    /**
     * Under SimpleAuthenticator Hector logs each connection in before it names its keyspace (docs/differences.md
     * §The 0.7+ dialect): the shipped passwd.properties and access.properties let dilbert use Keyspace1, and one
     * more line the keyspace the program makes.
     */
    @Test
    void hectorLogsInUnderSimpleAuthenticator() throws Exception {
        String conf = Files.readString(LocalNode.home().resolve("conf/storage-conf.xml"))
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

    /** Runs HectorProgram against {@code node}, with a user and password if given, and checks what it printed. */
    private void runHector(LocalNode node, String... credentials) throws Exception {
        Path program = LocalNode.home().resolve("client/src/test/hector/HectorProgram.java");
        List<String> hector = MavenClassPath.of(program.resolveSibling("pom.xml"), "hector.classpath").jars("Hector's jars");
        node.start("server");
        try {
            Matcher serving = SERVING.matcher(node.console());
            assertTrue(serving.find(), "the node says where it serves");
            Path out = dir.resolve("hector.out");
            List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                    .toString(), "-Xmx256m", "-cp", String.join(File.pathSeparator, hector), program.toString(),
                    serving.group(1)));
            command.addAll(List.of(credentials));
            Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
            if (!p.waitFor(3, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                throw new AssertionError("the Hector program did not finish within 3 minutes:\n" + Files.readString(out));
            }
            String printed = Files.readString(out);
            assertEquals(0, p.exitValue(), () -> "the Hector program's exit status; it printed:\n" + printed);
            assertTrue(printed.contains("ok range slice after deletes: [0x8000ffc3:, alice: age=31 name=Alice zip=75001, bob:, "
                    + "carol: name=Carol]\n"), () -> "the range scan after deletes is in:\n" + printed);
            assertTrue(printed.strip().endsWith("HECTOR OK: 24 checks passed"), () -> "every check ran:\n" + printed);
            assertTrue(node.alive(), "the node serves on");
        } finally {
            node.stop();
        }
    }
}
