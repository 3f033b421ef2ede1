package sibyl.jmx;

/**
 * One worker pool's figures for tpstats, under
 * {@code org.apache.cassandra.concurrent:type=<POOL-NAME>} as in 0.6.
 */
public interface ThreadPoolMBean {
    /** Threads running a task now. */
    int getActiveCount();

    /** Tasks queued, not yet started. */
    long getPendingTasks();

    long getCompletedTasks();
}
