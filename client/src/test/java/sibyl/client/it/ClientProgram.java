package sibyl.client.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A program of a real client (Hector, Astyanax) that checks its own answers, run from its source in a JVM of its
 * own against a node: such a client brings the 0.7+ bindings in org.apache.cassandra.thrift, the package of the 0.6
 * bindings on this module's class path, so it cannot share this JVM. Its class path comes from the pom.xml beside
 * the program ({@link MavenClassPath}).
 */
final class ClientProgram {
    private static final Pattern SERVING = Pattern.compile("Sibyl is serving on [^\\s:]+:(\\d+)");

    private ClientProgram() {
    }

    /**
     * Starts {@code node}, runs the program ({@code source}, under the checkout) with the node's port and then
     * {@code arguments}, stops the node, and returns what the program printed, once it exited 0 and the node
     * served to the end.
     *
     * @param classPathFile the file the pom writes the class path to, in its target directory
     */
    static String run(LocalNode node, Path dir, String source, String classPathFile, String... arguments)
            throws Exception {
        Path program = LocalNode.home().resolve(source);
        String name = program.getFileName().toString();
        List<String> jars = MavenClassPath.of(program.resolveSibling("pom.xml"), classPathFile).jars(name + "'s jars");
        node.start("server");
        try {
            Matcher serving = SERVING.matcher(node.console());
            assertTrue(serving.find(), "the node says where it serves");
            Path out = dir.resolve(name + ".out");
            List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                    .toString(), "-Xmx256m", "-cp", String.join(File.pathSeparator, jars), program.toString(),
                    serving.group(1)));
            command.addAll(List.of(arguments));
            Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
            if (!p.waitFor(3, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                throw new AssertionError(name + " did not finish within 3 minutes:\n" + Files.readString(out));
            }
            String printed = Files.readString(out);
            assertEquals(0, p.exitValue(), () -> name + "'s exit status; it printed:\n" + printed);
            assertTrue(node.alive(), "the node serves on");
            return printed;
        } finally {
            node.stop();
        }
    }
}
