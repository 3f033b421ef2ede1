package sibyl.io;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Releases memory mappings at once. The JDK unmaps a MappedByteBuffer only when it is garbage
 * collected, and until then the file's disk space stays taken even after the file is deleted:
 * SSTables replaced by compaction would hold on to their space for as long as the old
 * generation is not collected. {@code sun.misc.Unsafe.invokeCleaner} (module jdk.unsupported,
 * open to reflection) unmaps on request; where it is missing, mappings are left to the
 * collector, which is correct but slower to give the space back.
 */
final class Unmapper {
    private static final Logger log = LoggerFactory.getLogger(Unmapper.class);
    private static final MethodHandle INVOKE_CLEANER = find();

    private Unmapper() {
    }

    private static MethodHandle find() {
        try {
            Class<?> unsafeClass = Class.forName("sun.misc.Unsafe");
            Field theUnsafe = unsafeClass.getDeclaredField("theUnsafe");
            theUnsafe.setAccessible(true);
            return MethodHandles.lookup()
                    .findVirtual(unsafeClass, "invokeCleaner", MethodType.methodType(void.class, ByteBuffer.class))
                    .bindTo(theUnsafe.get(null));
        } catch (ReflectiveOperationException | RuntimeException e) {
            log.info("Memory mappings of SSTables are released by the garbage collector, not at once: {}", e.toString());
            return null;
        }
    }

    /** Unmaps each non-null buffer; none of them may be read afterwards. */
    static void unmap(MappedByteBuffer[] buffers) {
        if (INVOKE_CLEANER == null) return;
        for (MappedByteBuffer b : buffers) {
            if (b == null) continue;
            try {
                INVOKE_CLEANER.invokeExact((ByteBuffer) b);
            } catch (Error e) {
                throw e;
            } catch (Throwable t) {
                log.warn("Could not release a memory mapping; the garbage collector will", t);
            }
        }
    }
}
