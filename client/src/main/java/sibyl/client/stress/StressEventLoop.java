package sibyl.client.stress;

import java.io.IOException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.thrift.TException;
import sibyl.client.ClientException;

/**
 * One thread driving many connections, each with one call outstanding at a time, as redis-benchmark drives its
 * clients: the thread waits on all its sockets at once and serves whichever have replies, so under load one wake-up
 * serves many replies, where a thread per connection pays a wake-up per reply. Same operations, keys and checks
 * as {@link StressWorker}; a connection that breaks is reopened to the same host after a pause (no failover).
 */
final class StressEventLoop implements Runnable {
    private static final long REOPEN_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    private static final long SELECT_MILLIS = 50;

    private final Selector selector;
    private final List<LoopConnection> connections;
    private final LatencyRecorder recorder;
    private final StressCounters counters;
    private final AtomicLong budget;
    private final AtomicBoolean stop;
    private final long timeoutNanos;

    /**
     * Opens every connection now, so that an unreachable server fails the run before it starts.
     *
     * @throws ClientException if a connection cannot be opened
     */
    StressEventLoop(List<LoopConnection> connections, LatencyRecorder recorder,
                    StressCounters counters, AtomicLong budget, AtomicBoolean stop, int timeoutSeconds)
            throws IOException {
        this.selector = Selector.open();
        this.connections = connections;
        this.recorder = recorder;
        this.counters = counters;
        this.budget = budget;
        this.stop = stop;
        this.timeoutNanos = timeoutSeconds == 0 ? Long.MAX_VALUE : TimeUnit.SECONDS.toNanos(timeoutSeconds);
        for (LoopConnection c : connections) {
            try {
                c.open(selector);
            } catch (IOException e) {
                close();
                throw new ClientException(ClientException.Kind.CONNECTION, "connect to " + c.host(),
                        c.host() + ": " + e.getMessage(), e);
            }
        }
    }

    @Override
    public void run() {
        try {
            long now = System.nanoTime();
            for (LoopConnection c : connections) {
                startNext(c, now);
            }
            while (busy()) {
                selector.select(SELECT_MILLIS);
                now = System.nanoTime();
                for (SelectionKey key : selector.selectedKeys()) {
                    LoopConnection c = (LoopConnection) key.attachment();
                    if (key.isValid() && key.isWritable()) {
                        try {
                            c.writeMore();
                        } catch (IOException e) {
                            broken(c, ClientException.wrapIo(c.call.operation(), e, c.host()), now);
                            continue;
                        }
                    }
                    if (key.isValid() && key.isReadable()) {
                        onReadable(c, now);
                    }
                }
                selector.selectedKeys().clear();
                checkTimeoutsAndReopen(now);
            }
        } catch (IOException e) {
            counters.error(e);
        } finally {
            close();
        }
    }

    private void onReadable(LoopConnection c, long now) {
        StressCall call = c.call;
        String operation = call == null ? "read" : call.operation();
        try {
            if (!c.readReply()) {
                return;
            }
            recorder.record((now - c.callStartNanos) / 1_000);
        } catch (ClientException e) {
            if (e.brokeConnection()) {
                broken(c, e, now);
                return;
            }
            counters.error(e); // the server refused the call; the connection goes on
        } catch (IOException e) {
            broken(c, ClientException.wrapIo(operation, e, c.host()), now);
            return;
        }
        startNext(c, now);
    }

    /** Starts the connection's next call, unless the run is over. */
    private void startNext(LoopConnection c, long now) {
        if (stop.get() || (budget != null && budget.getAndDecrement() <= 0)) {
            c.close();
            return;
        }
        StressCall next = c.calls.next();
        try {
            c.send(next, now);
        } catch (IOException e) {
            broken(c, ClientException.wrapIo(next.operation(), e, c.host()), now);
        } catch (TException e) {
            broken(c, ClientException.wrap(next.operation(), e, c.host()), now);
        }
    }

    private void broken(LoopConnection c, ClientException e, long now) {
        counters.error(e);
        c.close();
        c.reopenAt = now + REOPEN_PAUSE_NANOS;
    }

    private void checkTimeoutsAndReopen(long now) {
        for (LoopConnection c : connections) {
            if (c.isOpen() && c.call != null && now - c.callStartNanos > timeoutNanos) {
                broken(c, new ClientException(ClientException.Kind.READ_TIMEOUT, c.call.operation(),
                        "no reply from " + c.host(), null), now);
            } else if (!c.isOpen() && c.reopenAt != 0 && now - c.reopenAt >= 0 && !stop.get()) {
                c.reopenAt = 0;
                try {
                    c.open(selector);
                } catch (IOException e) {
                    broken(c, ClientException.wrapIo("connect to " + c.host(), e, c.host()), now);
                    continue;
                }
                startNext(c, now);
            }
        }
    }

    /** Whether any connection has a call outstanding or is waiting to be reopened. */
    private boolean busy() {
        for (LoopConnection c : connections) {
            if (c.isOpen() ? c.call != null : c.reopenAt != 0 && !stop.get()) {
                return true;
            }
        }
        return false;
    }

    private void close() {
        connections.forEach(LoopConnection::close);
        try {
            selector.close();
        } catch (IOException ignored) {
            // closing: nothing to do about it
        }
    }
}
