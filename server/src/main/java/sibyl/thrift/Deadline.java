package sibyl.thrift;

import org.apache.cassandra.thrift.TimedOutException;
import org.apache.thrift.TException;

/**
 * RpcTimeoutInMillis for one call. The call's work is not interrupted; a call that finishes
 * late answers TimedOutException, as a 0.6 client would get when replicas answered too late
 * (a write that timed out may still have been applied, as in 0.6).
 */
public final class Deadline {
    private final long expiresAtNanos;

    public Deadline(long timeoutMillis) {
        this.expiresAtNanos = System.nanoTime() + timeoutMillis * 1_000_000L;
    }

    public boolean passed() {
        return System.nanoTime() - expiresAtNanos > 0;
    }

    void check() throws TimedOutException {
        if (passed()) throw new TimedOutException();
    }

    /** Throws {@code dialect}'s TimedOutException once the deadline has passed. */
    public void check(ClientExceptions dialect) throws TException {
        if (passed()) throw dialect.timedOut();
    }
}
