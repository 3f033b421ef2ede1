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
    private final long pacingNanos;

    /**
     * Opens every connection now, so that an unreachable server fails the run before it starts.
     *
     * @throws ClientException if a connection cannot be opened
     */
    StressEventLoop(List<LoopConnection> connections, LatencyRecorder recorder,
                    StressCounters counters, AtomicLong budget, AtomicBoolean stop, int timeoutSeconds,
                    long pacingNanos) throws IOException {
        this.pacingNanos = pacingNanos;
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
            } catch (ClientException e) {
                close(); // the handshake was refused
                throw e;
            }
        }
    }

    @Override
    public void run() {
        try {
            long now = System.nanoTime();
            for (int i = 0; i < connections.size(); i++) {
                // Under --rate, the connections' schedules are spread over one period.
                connections.get(i).nextStart = now + pacingNanos * i / connections.size();
                startNext(connections.get(i), now);
            }
            while (busy()) {
                selector.select(selectMillis(System.nanoTime()));
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
                startScheduled(System.nanoTime());
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

    /** Starts the connection's next call, unless the run is over or, under --rate, its time has not come. */
    private void startNext(LoopConnection c, long now) {
        if (pacingNanos > 0 && !stop.get()) {
            if (now - c.nextStart < 0) {
                c.waitingToStart = true;
                return;
            }
            // Not earlier than a period ago: a stall is not made up in a burst.
            c.nextStart = Math.max(c.nextStart, now - pacingNanos) + pacingNanos;
        }
        c.waitingToStart = false;
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
                } catch (ClientException e) {
                    broken(c, e, now);
                    continue;
                }
                startNext(c, now);
            }
        }
    }

    /** Under --rate: starts the calls whose time has come. */
    private void startScheduled(long now) {
        for (LoopConnection c : connections) {
            if (c.waitingToStart && c.isOpen()) {
                startNext(c, now);
            }
        }
    }

    /** How long to wait for sockets: until the next scheduled start under --rate, else a while. */
    private long selectMillis(long now) {
        long millis = SELECT_MILLIS;
        for (LoopConnection c : connections) {
            if (c.waitingToStart) {
                millis = Math.min(millis, Math.max(1, (c.nextStart - now + 999_999) / 1_000_000));
            }
        }
        return millis;
    }

    /** Whether any connection has a call outstanding or waiting to start, or is waiting to be reopened. */
    private boolean busy() {
        for (LoopConnection c : connections) {
            if (c.isOpen() ? c.call != null || c.waitingToStart : c.reopenAt != 0 && !stop.get()) {
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
