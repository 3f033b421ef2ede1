package sibyl.jmx;

import java.util.concurrent.ThreadPoolExecutor;

/** The management view of a {@link ThreadPoolExecutor}. */
final class ThreadPoolStats implements ThreadPoolMBean {
    private final ThreadPoolExecutor pool;

    ThreadPoolStats(ThreadPoolExecutor pool) {
        this.pool = pool;
    }

    @Override
    public int getActiveCount() {
        return pool.getActiveCount();
    }

    @Override
    public long getPendingTasks() {
        return pool.getQueue().size();
    }

    @Override
    public long getCompletedTasks() {
        return pool.getCompletedTaskCount();
    }
}
