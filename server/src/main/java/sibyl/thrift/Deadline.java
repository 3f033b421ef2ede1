package sibyl.thrift;

import org.apache.cassandra.thrift.TimedOutException;

/**
 * RpcTimeoutInMillis for one call. The call's work is not interrupted; a call that finishes
 * late answers TimedOutException, as a 0.6 client would get when replicas answered too late
 * (a write that timed out may still have been applied, as in 0.6).
 */
final class Deadline {
    private final long expiresAtNanos;

    Deadline(long timeoutMillis) {
        this.expiresAtNanos = System.nanoTime() + timeoutMillis * 1_000_000L;
    }

    boolean passed() {
        return System.nanoTime() - expiresAtNanos > 0;
    }

    void check() throws TimedOutException {
        if (System.nanoTime() - expiresAtNanos > 0) throw new TimedOutException();
    }
}
