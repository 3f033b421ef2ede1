package sibyl.thrift;

import sibyl.service.Schema;
import sibyl.service.StorageService;

/**
 * The handler's views of the schema the storage serves now: the checks of requests against it and the
 * answers of the describe calls. A call takes one {@link View} at its start and uses it throughout, so a
 * reload of the configuration meanwhile (which replaces the schema as a whole) leaves it with the schema
 * before or the one after, never a mix. Views are built once per schema and shared by every connection.
 */
final class SchemaViews {
    /** What one call sees. */
    record View(Schema schema, ThriftValidation validation, SchemaDescription description) {
    }

    private final StorageService storage;
    private volatile View current;

    SchemaViews(StorageService storage) {
        this.storage = storage;
        this.current = viewOf(storage.schema());
    }

    /** The views of the schema served now; built anew only after a reload replaced it. */
    View current() {
        Schema schema = storage.schema();
        View view = current;
        if (view.schema() != schema) {
            // Two callers may both build it after a reload; either result is the same view.
            view = viewOf(schema);
            current = view;
        }
        return view;
    }

    private View viewOf(Schema schema) {
        return new View(schema, new ThriftValidation(schema, storage.partitioner()),
                new SchemaDescription(schema.keyspaces()));
    }
}
