package sibyl.thrift;

import sibyl.service.Schema;
import sibyl.service.StorageService;

/**
 * The 0.6 handler's views of the schema the storage serves now: the checks of requests against it and the
 * answers of the describe calls, one {@link View} per schema ({@link SchemaCache}).
 */
final class SchemaViews {
    /** What one call sees. */
    record View(Schema schema, ThriftValidation validation, SchemaDescription description) {
    }

    private final SchemaCache<View> cache;

    SchemaViews(StorageService storage) {
        this.cache = new SchemaCache<>(storage, schema -> new View(schema,
                new ThriftValidation(schema, storage.partitioner()), new SchemaDescription(schema.keyspaces())));
    }

    /** The views of the schema served now. */
    View current() {
        return cache.current();
    }
}
