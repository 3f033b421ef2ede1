package sibyl.metrics;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.util.List;

/** The JVM's heap and garbage collectors, from its own management beans. */
public final class JvmCollector implements Collector {
    @Override
    public void collect(ExpositionWriter out) {
        MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
        out.gauge("sibyl_jvm_heap_used_bytes", "Bytes of the heap in use, live objects and garbage not yet collected.")
                .sample(heap.getUsed());
        out.gauge("sibyl_jvm_heap_committed_bytes", "Bytes of the heap the JVM holds from the operating system.")
                .sample(heap.getCommitted());
        // -1 when undefined; then the family is left out rather than reporting a size of -1.
        if (heap.getMax() >= 0) {
            out.gauge("sibyl_jvm_heap_max_bytes", "Bytes the heap may grow to (-Xmx).").sample(heap.getMax());
        }
        List<GarbageCollectorMXBean> collectors = ManagementFactory.getGarbageCollectorMXBeans();
        ExpositionWriter.Family count = out.counter("sibyl_jvm_gc_collections_total",
                "Collections each garbage collector has run since start.");
        for (GarbageCollectorMXBean gc : collectors) {
            count.sample(Math.max(0, gc.getCollectionCount()), "collector", gc.getName());
        }
        ExpositionWriter.Family time = out.counter("sibyl_jvm_gc_collection_seconds_total",
                "Time each garbage collector has spent collecting since start (for a concurrent collector, its"
                        + " pauses and concurrent cycles as the JVM reports them).");
        for (GarbageCollectorMXBean gc : collectors) {
            time.sample(Math.max(0, gc.getCollectionTime()) / 1000.0, "collector", gc.getName());
        }
    }
}
