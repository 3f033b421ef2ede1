package sibyl.cql;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import sibyl.db.RowMutation;
import sibyl.service.Consistency;
import sibyl.service.CqlAnswer;
import sibyl.service.StorageService;

/**
 * Where and when a statement runs: the store, the keyspace of its table, its consistency level and the time it is
 * given (microseconds for timestamps it does not set, seconds for TTLs and tombstones).
 */
record Target(StorageService store, String keyspace, Consistency consistency, long nowMicros) {
    int nowSeconds() {
        return (int) (nowMicros / 1_000_000L);
    }

    /** Applies the mutations of a statement (one per row it names); answers nothing once all are acknowledged. */
    CompletableFuture<CqlAnswer> write(List<RowMutation> mutations) {
        List<CompletableFuture<Void>> writes = new ArrayList<>(mutations.size());
        for (RowMutation m : mutations) writes.add(store.write(m, consistency));
        return CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new)).thenApply(ignored -> CqlAnswer.NOTHING);
    }
}
