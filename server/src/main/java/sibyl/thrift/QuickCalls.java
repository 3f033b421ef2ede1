package sibyl.thrift;

import java.util.Set;
import sibyl.service.StorageHints;

/**
 * Which calls of a dialect a network thread may run itself ({@code ProcessorFactory.isQuick}): those answered from
 * memory always, those of a few rows while the store reads locally, writes while the store says they don't wait.
 */
public record QuickCalls(Set<String> descriptions, Set<String> reads, Set<String> writes) {
    public QuickCalls {
        descriptions = Set.copyOf(descriptions);
        reads = Set.copyOf(reads);
        writes = Set.copyOf(writes);
    }

    public boolean isQuick(String method, StorageHints hints) {
        return descriptions.contains(method) || reads.contains(method) && !hints.readsMayWait()
                || writes.contains(method) && !hints.writesMayWait();
    }
}
