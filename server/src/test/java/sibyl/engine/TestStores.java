package sibyl.engine;

import java.util.List;
import sibyl.db.TestSchema;
import sibyl.dht.Partitioner;

/** Fresh memory-only stores over {@link TestSchema#keyspace1()} for the engine's tests. */
final class TestStores {
    private TestStores() {
    }

    static LocalStorageService service(Partitioner partitioner) {
        return new LocalStorageService(partitioner, List.of(TestSchema.keyspace1()), 128);
    }
}
