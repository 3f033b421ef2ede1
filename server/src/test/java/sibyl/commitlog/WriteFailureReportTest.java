package sibyl.commitlog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static sibyl.commitlog.LogFixture.BATCH;
import static sibyl.commitlog.LogFixture.PERIODIC;
import static sibyl.commitlog.LogFixture.replayKeys;
import static sibyl.commitlog.LogFixture.write;

import ch.qos.logback.classic.Level;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sibyl.db.WriteFailedException;
import sibyl.testing.LogCapture;

/**
 * A commit log that cannot be written (here: its directory is replaced by a file, so no segment
 * can be created, as on a full disk) refuses every write, but says so in one ERROR line, not one
 * per write, and in one INFO line once it is written again.
 */
class WriteFailureReportTest {
    private static final int REFUSED = 50;

    @TempDir
    Path dir;

    @Test
    void aRunOfFailuresIsOneErrorLineAndOneRecoveryLine() throws IOException {
        for (SyncMode mode : List.of(PERIODIC, BATCH)) {
            Path logDir = dir.resolve(mode.getClass().getSimpleName());
            Path away = dir.resolve("away");
            try (LogCapture logs = new LogCapture(CommitLog.class); CommitLog log = CommitLog.open(logDir, mode, 1 << 20)) {
                log.append(write("before"));
                Files.move(logDir, away);
                Files.createFile(logDir);
                log.activeSegment().abandon(); // the next write must begin a segment, and cannot
                for (int i = 0; i < REFUSED; i++) {
                    WriteFailedException e = assertThrows(WriteFailedException.class, () -> log.append(write("refused")));
                    assertTrue(e.getMessage().startsWith("write failed: could not"), e.getMessage());
                }
                List<String> errors = logs.messages(Level.ERROR);
                assertEquals(1, errors.size(), mode + ": one line for " + REFUSED + " refused writes: " + errors);
                assertTrue(errors.get(0).contains("writes are refused") && errors.get(0).contains(logDir.toString()),
                        errors.get(0));
                assertEquals(List.of(), logs.messages(Level.INFO));

                Files.delete(logDir);
                Files.move(away, logDir);
                log.append(write("after"));
                log.append(write("after too"));
                assertEquals(List.of("The commit log is written again, after refusing " + REFUSED + " writes"),
                        logs.messages(Level.INFO), mode.toString());
                assertEquals(1, logs.messages(Level.ERROR).size());
            }
            assertEquals(List.of("before", "after", "after too"), replayKeys(logDir));
        }
    }
}
