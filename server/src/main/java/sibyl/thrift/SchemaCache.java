package sibyl.thrift;

import java.util.function.Function;
import sibyl.service.Schema;
import sibyl.service.StorageService;

/**
 * What a dialect derives from the schema the storage serves now (its request checks, its describe answers), built
 * once per schema and shared by every connection. A call takes one view at its start and uses it throughout, so a
 * reload of the configuration meanwhile (which replaces the schema as a whole) leaves it with the schema before or
 * the one after, never a mix.
 *
 * @param <V> the dialect's view of one schema
 */
public final class SchemaCache<V> {
    private record Built<V>(Schema schema, V view) {
    }

    private final StorageService storage;
    private final Function<Schema, V> viewOf;
    private volatile Built<V> current;

    public SchemaCache(StorageService storage, Function<Schema, V> viewOf) {
        this.storage = storage;
        this.viewOf = viewOf;
        Schema schema = storage.schema();
        this.current = new Built<>(schema, viewOf.apply(schema));
    }

    /** The view of the schema served now; built anew only after a reload replaced it. */
    public V current() {
        Schema schema = storage.schema();
        Built<V> built = current;
        if (built.schema() != schema) {
            // Two callers may both build it after a reload; either result is the same view.
            built = new Built<>(schema, viewOf.apply(schema));
            current = built;
        }
        return built.view();
    }
}
