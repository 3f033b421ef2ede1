package sibyl.thrift;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import sibyl.db.RowMutation;
import sibyl.service.StorageTimeoutException;
import sibyl.testing.LogCapture;

/** ZERO writes of calls started on network threads: answered at once up to a bound, then slowing their callers. */
class UnacknowledgedWritesTest {
    private static final RowMutation WRITE = RowMutation.builder("Keyspace1", "k")
            .write("Standard1", bytes("c"), bytes("v"), 1).build();

    @Test
    void callsAreAnsweredAtOnceUntilTheLimitThenWaitForTheirOwnWrite() {
        UnacknowledgedWrites writes = new UnacknowledgedWrites(2);
        CompletableFuture<Void> first = new CompletableFuture<>();
        CompletableFuture<Void> second = new CompletableFuture<>();
        CompletableFuture<Void> third = new CompletableFuture<>();
        assertTrue(writes.start(WRITE, () -> first).isDone());
        assertTrue(writes.start(WRITE, () -> second).isDone());
        CompletableFuture<Void> overLimit = writes.start(WRITE, () -> third);
        assertFalse(overLimit.isDone(), "the third outstanding write's call must wait for it");
        assertEquals(3, writes.outstanding());

        first.complete(null);
        assertFalse(overLimit.isDone(), "it waits for its own write, not for room");
        third.complete(null);
        assertTrue(overLimit.isDone());
        assertEquals(1, writes.outstanding());
        // Room again: answered at once.
        CompletableFuture<Void> fourth = new CompletableFuture<>();
        assertTrue(writes.start(WRITE, () -> fourth).isDone());
        second.complete(null);
        fourth.complete(null);
        assertEquals(0, writes.outstanding());
    }

    @Test
    void aLostWriteIsLoggedAndNeverTheCallersFailure() {
        UnacknowledgedWrites writes = new UnacknowledgedWrites(0);
        try (LogCapture log = new LogCapture(UnacknowledgedWrites.class)) {
            CompletableFuture<Void> timedOut = writes.start(WRITE, () -> CompletableFuture.failedFuture(
                    new StorageTimeoutException("the cluster did not answer in time", null)));
            CompletableFuture<Void> thrown = writes.start(WRITE, () -> {
                throw new StorageTimeoutException("refused before it started", null);
            });
            assertTrue(timedOut.isDone() && !timedOut.isCompletedExceptionally());
            assertTrue(thrown.isDone() && !thrown.isCompletedExceptionally());
            assertEquals(List.of(
                    "A write at consistency level ZERO to key k of keyspace Keyspace1 was lost: the cluster did not"
                            + " answer in time",
                    "A write at consistency level ZERO to key k of keyspace Keyspace1 was lost: refused before it"
                            + " started"), log.messages(Level.WARN));
        }
        assertEquals(0, writes.outstanding());
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
