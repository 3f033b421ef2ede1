package sibyl.client.stress;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * --timeout for the blocking connections of a thread-per-connection run: one thread looks at every connection
 * every {@value #CHECK_MILLIS} ms and gives up a call that has waited longer than the timeout by closing its
 * socket. The connections' reads have no timeout of their own, which would make each wait for a reply a poll and
 * a read instead of one read; a call is given up at most {@value #CHECK_MILLIS} ms after its time. Runs until
 * every connection's thread has finished with it.
 */
final class CallTimeouts implements Runnable {
    static final long CHECK_MILLIS = 100;

    private final List<BlockingConnection> connections;
    private final long timeoutNanos;

    CallTimeouts(List<BlockingConnection> connections, int timeoutSeconds) {
        this.connections = List.copyOf(connections);
        this.timeoutNanos = TimeUnit.SECONDS.toNanos(timeoutSeconds);
    }

    @Override
    public void run() {
        while (true) {
            boolean anyInUse = false;
            long now = System.nanoTime();
            for (BlockingConnection c : connections) {
                if (!c.finished()) {
                    anyInUse = true;
                    c.expireIfOlder(now, timeoutNanos);
                }
            }
            if (!anyInUse) {
                return;
            }
            try {
                Thread.sleep(CHECK_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
