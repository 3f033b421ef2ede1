package sibyl.thrift20;

import sibyl.dht.Partitioner;
import sibyl.service.Schema;

/** What one call of the 0.7+ dialect sees of the schema served now: its checks and its definitions. */
record SchemaView(Schema schema, RequestChecks checks, SchemaDefinitions definitions) {
    static SchemaView of(Schema schema, Partitioner partitioner) {
        return new SchemaView(schema, new RequestChecks(schema, partitioner), new SchemaDefinitions(schema));
    }
}
