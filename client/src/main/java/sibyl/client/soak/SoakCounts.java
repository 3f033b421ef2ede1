package sibyl.client.soak;

import java.util.concurrent.atomic.AtomicLong;

/** What the soak's writers did, over all threads. */
final class SoakCounts {
    /** Writes the server acknowledged (each also in the {@link AckLog}). */
    final AtomicLong acknowledged = new AtomicLong();
    /** Writes the server answered with an error: not acknowledged, so not checked. */
    final AtomicLong refused = new AtomicLong();
    /** Writes whose call broke off (the node was killed under it): may or may not have been applied. */
    final AtomicLong unknown = new AtomicLong();
    /** Point reads of acknowledged rows, and rows seen by range scans, that were checked. */
    final AtomicLong reads = new AtomicLong();
    /** Checked reads that found a row missing, partial or wrong, and reads the node answered with an error. */
    final AtomicLong badReads = new AtomicLong();
    /** Connection attempts that failed (the node was down or restarting). */
    final AtomicLong connectFailures = new AtomicLong();

    /** Writer threads that died of an unexpected exception (a bug in the soak: the run fails). */
    final AtomicLong crashed = new AtomicLong();

    String summary() {
        return "acknowledged=" + acknowledged + " refused=" + refused + " unknown=" + unknown + " reads=" + reads
                + " bad_reads=" + badReads + " connect_failures=" + connectFailures + " crashed_threads=" + crashed;
    }
}
