package sibyl.cluster;

import com.datastax.oss.driver.internal.core.util.concurrent.BlockingOperation;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Makes threads that the driver counts as its own, for event loops its connections run on
 * ({@link ClusterStorageService#open}). The driver refuses its synchronous calls (execute, prepare, close) on its
 * own threads: on an event loop that also reads the cluster's answers such a call would wait for an answer only
 * that thread could read, holding up every connection of the loop until the request times out. With the threads
 * marked, a synchronous call slipped onto a network thread fails at once with an IllegalStateException instead.
 */
public final class DriverThreads implements ThreadFactory {
    private final String name;
    private final AtomicInteger made = new AtomicInteger();
    private final ThreadFactory driverThreads = new BlockingOperation.SafeThreadFactory();

    /** Threads named {@code name-1}, {@code name-2}, ...; not daemons, as the node stops them itself. */
    public DriverThreads(String name) {
        this.name = name;
    }

    @Override
    public Thread newThread(Runnable task) {
        Thread t = driverThreads.newThread(task);
        t.setName(name + "-" + made.incrementAndGet());
        t.setDaemon(false);
        return t;
    }
}
