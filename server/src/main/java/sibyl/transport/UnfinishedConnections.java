package sibyl.transport;

import java.util.concurrent.TimeUnit;

/**
 * How many connections have not yet run their close actions, so that a closing server can return only once they
 * have. A connection whose call ends on a worker runs them later, on its network thread, after the worker has
 * handed it the end of the call. Thread-safe.
 */
final class UnfinishedConnections {
    private int count;

    synchronized void opened() {
        count++;
    }

    synchronized void finished() {
        count--;
        if (count == 0) {
            notifyAll();
        }
    }

    /** Waits until every connection opened has finished, or the timeout has passed; says which. */
    synchronized boolean awaitNone(long timeout, TimeUnit unit) throws InterruptedException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        while (count > 0) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        return true;
    }
}
