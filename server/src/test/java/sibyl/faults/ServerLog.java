package sibyl.faults;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** Reading a forked server's output (its console log) for the lines a test waits for or counts. */
final class ServerLog {
    private ServerLog() {
    }

    /** Waits (up to 60 s) until {@code log} holds {@code line} at least {@code times} times. */
    static void await(Path log, String line, int times, String what) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (count(Files.readString(log), line) < times) {
            assertTrue(System.nanoTime() < deadline, what + " within 60 s:\n" + Files.readString(log));
            Thread.sleep(50);
        }
    }

    /** Lines of {@code text} that contain {@code line}. */
    static int count(String text, String line) {
        return (int) text.lines().filter(l -> l.contains(line)).count();
    }
}
