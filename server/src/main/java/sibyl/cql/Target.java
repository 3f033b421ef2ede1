package sibyl.cql;

import sibyl.service.Consistency;
import sibyl.service.StorageService;

/**
 * Where and when a statement runs: the store, the keyspace of its table, its consistency level and the time it is
 * given (microseconds for timestamps it does not set, seconds for TTLs and tombstones).
 */
record Target(StorageService store, String keyspace, Consistency consistency, long nowMicros) {
    int nowSeconds() {
        return (int) (nowMicros / 1_000_000L);
    }
}
