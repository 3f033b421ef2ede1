package sibyl.client.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bin/soak at CI size: half a minute of load with the node killed and restarted every few
 * seconds, then its verdict. The full-size run is bin/soak's default of ten minutes.
 */
class SoakIT {
    private static final Pattern VERDICT = Pattern.compile(
            "(?m)^soak: PASS  minutes=0\\.5 kill_cycles=(\\d+) acknowledged=(\\d+) lost=0 .*seed=\\d+$");

    @TempDir
    Path dir;

    @Test
    void halfAMinuteOfKillsLosesNoAcknowledgedWrite() throws Exception {
        Path home = Path.of(System.getProperty("sibyl.home", "..")).toAbsolutePath().normalize();
        Path out = dir.resolve("soak.out");
        ProcessBuilder pb = new ProcessBuilder(home.resolve("bin/soak").toString(), "-d", "0.5", "-k", "3")
                .redirectErrorStream(true).redirectOutput(out.toFile());
        pb.environment().put("TMPDIR", dir.toString());
        pb.environment().put("JVM_OPTS", "-Xms64m -Xmx512m -XX:TieredStopAtLevel=1");
        Process soak = pb.start();
        if (!soak.waitFor(5, TimeUnit.MINUTES)) {
            soak.descendants().forEach(ProcessHandle::destroyForcibly);
            soak.destroyForcibly();
            throw new AssertionError("bin/soak -d 0.5 did not finish within 5 minutes:\n" + Files.readString(out));
        }
        String output = Files.readString(out);
        System.out.println(output);
        assertEquals(0, soak.exitValue(), "bin/soak exit status:\n" + output);
        Matcher verdict = VERDICT.matcher(output);
        assertTrue(verdict.find(), "a PASS verdict line:\n" + output);
        assertTrue(Integer.parseInt(verdict.group(1)) >= 2, "the node was killed under load, not only at the end: "
                + verdict.group());
        assertTrue(Long.parseLong(verdict.group(2)) > 0, "writes were acknowledged: " + verdict.group());
    }
}
