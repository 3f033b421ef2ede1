package sibyl.client.it;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The class path a standalone pom (no parent, no module of the build) writes with maven-dependency-plugin's
 * build-classpath during generate-resources, for a program that must not share the test JVM's class path. The pom
 * is run with the build's own Maven (the maven.home failsafe passes on), online, whenever the file is missing or
 * names a jar that is gone.
 *
 * <p>Jars that cannot be resolved (a developer's machine without network) skip the test that asked, saying why;
 * under CI (CI=true) they fail it, so the test always runs there.
 */
record MavenClassPath(Path pom, Path file) {
    private static final long RESOLVE_MINUTES = 10;

    /** The class path {@code pom} writes to {@code target/<fileName>} beside it. */
    static MavenClassPath of(Path pom, String fileName) {
        return new MavenClassPath(pom, pom.resolveSibling("target").resolve(fileName));
    }

    /** Its jars, resolved first if need be; {@code what} names them in the reason for a skip or failure. */
    List<String> jars(String what) throws IOException, InterruptedException {
        if (!complete()) {
            Path log = Files.createDirectories(file.getParent()).resolve("resolve.log");
            if (!runMaven(log) || !complete()) {
                String why = what + " could not be resolved from Maven Central (mvn -f " + pom + " generate-resources):\n"
                        + lastLines(log);
                if ("true".equals(System.getenv("CI"))) throw new IllegalStateException(why);
                assumeTrue(false, why);
            }
        }
        return List.of(Files.readString(file).strip().split(File.pathSeparator));
    }

    private boolean complete() throws IOException {
        if (!Files.isRegularFile(file)) return false;
        String text = Files.readString(file).strip();
        if (text.isEmpty()) return false;
        for (String jar : text.split(File.pathSeparator)) {
            if (!Files.isRegularFile(Path.of(jar))) return false;
        }
        return true;
    }

    private boolean runMaven(Path log) throws InterruptedException, IOException {
        String home = System.getProperty("maven.home");
        String mvn = home == null ? "mvn" : Path.of(home, "bin", "mvn").toString();
        Process p;
        try {
            p = new ProcessBuilder(mvn, "-B", "-ntp", "-q", "-f", pom.toString(), "generate-resources")
                    .redirectErrorStream(true).redirectOutput(log.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        } catch (IOException e) {
            Files.writeString(log, "could not run " + mvn + ": " + e);
            return false;
        }
        if (p.waitFor(RESOLVE_MINUTES, TimeUnit.MINUTES)) return p.exitValue() == 0;
        p.destroyForcibly();
        Files.writeString(log, "\n(mvn did not finish within " + RESOLVE_MINUTES + " minutes)", StandardOpenOption.APPEND);
        return false;
    }

    private static String lastLines(Path log) throws IOException {
        if (!Files.exists(log)) return "(no " + log + ")";
        List<String> lines = Files.readAllLines(log);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 25), lines.size()));
    }
}
