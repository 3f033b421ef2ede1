package sibyl.hardening;

import io.netty.buffer.PooledByteBufAllocator;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Watches this JVM's heap while a test runs (the node under test is in-process). What is sampled is the heap left
 * after each garbage collection, summed over the heap pools, since the heap in use between collections says more
 * about the collector's mood than about what is live. {@link #retainedAfterGc()} forces collections and measures
 * what survives, to catch leaks. Netty's pooled direct memory, where the node buffers what it reads, is sampled
 * too.
 *
 * <p>The collector's own collections may all fall before or after a short peak. {@link #collectingEvery} forces a
 * full collection before each sample instead, so that every sample is the live set at that moment: costly, for
 * floods of a few seconds whose peak is the point.
 */
final class HeapWatch implements AutoCloseable {
    private static final long MB = 1024 * 1024;

    private final List<MemoryPoolMXBean> heapPools = ManagementFactory.getMemoryPoolMXBeans().stream()
            .filter(p -> p.getType() == MemoryType.HEAP)
            .toList();
    private final long baseline;
    private final long periodMillis;
    private final boolean collect;
    private final Thread sampler;
    private final CountDownLatch stop = new CountDownLatch(1);
    private volatile long maxAfterGc;
    private final long directBaseline;
    private volatile long maxDirect;

    /** Samples every 20 ms what the collector's own collections left. */
    HeapWatch() {
        this(20, false);
    }

    /** Forces a full collection every {@code period} and samples the heap it leaves. */
    static HeapWatch collectingEvery(Duration period) {
        return new HeapWatch(period.toMillis(), true);
    }

    private HeapWatch(long periodMillis, boolean collect) {
        this.periodMillis = periodMillis;
        this.collect = collect;
        baseline = retainedAfterGc();
        maxAfterGc = baseline;
        directBaseline = nettyDirect();
        maxDirect = directBaseline;
        sampler = new Thread(this::sample, "heap-watch");
        sampler.setDaemon(true);
        sampler.start();
    }

    private void sample() {
        try {
            do {
                long live;
                if (collect) {
                    System.gc();
                    live = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
                } else {
                    live = afterLastGc();
                }
                maxAfterGc = Math.max(maxAfterGc, live);
                maxDirect = Math.max(maxDirect, nettyDirect());
            } while (!stop.await(periodMillis, TimeUnit.MILLISECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private long afterLastGc() {
        long sum = 0;
        for (MemoryPoolMXBean pool : heapPools) {
            MemoryUsage usage = pool.getCollectionUsage();
            if (usage != null) sum += usage.getUsed();
        }
        return sum;
    }

    /** Heap in use after full collections, the live set. */
    static long retainedAfterGc() {
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            System.gc();
            used = Math.min(used, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
        }
        return used;
    }

    /**
     * Direct memory in use by Netty's default pooled allocator, which the node's network threads read into: bytes
     * the transport buffers live there, not on the heap.
     */
    private static long nettyDirect() {
        return PooledByteBufAllocator.DEFAULT.metric().usedDirectMemory();
    }

    /** Most direct memory Netty's pools held since the watch began, less what they held then. */
    long peakDirectGrowth() {
        return Math.max(0, maxDirect - directBaseline);
    }

    long baseline() {
        return baseline;
    }

    /** Most heap found in use after any collection since the watch began, less the baseline. */
    long peakGrowth() {
        return Math.max(0, maxAfterGc - baseline);
    }

    static String mb(long bytes) {
        return (bytes / MB) + " MB";
    }

    @Override
    public void close() throws InterruptedException {
        stop.countDown();
        sampler.join();
    }
}
