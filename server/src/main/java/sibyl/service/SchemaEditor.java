package sibyl.service;

import sibyl.db.CFMetaData;
import sibyl.db.KSMetaData;

/**
 * Changes to the schema made by API (the 0.7+ dialect's system_add_keyspace and the like), each applied to the store
 * and kept before the call returns, or refused as a whole (docs/configuration.md §Keyspaces made by API). Keyspaces
 * of storage-conf.xml are changed in the file only. The texts of the refusals for what exists or not are Cassandra
 * 3.11's.
 */
public interface SchemaEditor {
    void addKeyspace(KSMetaData keyspace) throws SchemaRefusedException, InterruptedException;

    /** A keyspace's replication factor; its column families stay as they are. */
    void updateKeyspace(String keyspace, int replicationFactor) throws SchemaRefusedException, InterruptedException;

    /** Drops the keyspace; the data of its column families is kept aside, never deleted. */
    void dropKeyspace(String keyspace) throws SchemaRefusedException, InterruptedException;

    void addColumnFamily(CFMetaData columnFamily) throws SchemaRefusedException, InterruptedException;

    /** Replaces what may change of a column family (comment, gc_grace_seconds); its type and comparators stay. */
    void updateColumnFamily(CFMetaData columnFamily) throws SchemaRefusedException, InterruptedException;

    /** Drops the column family; its data is kept aside, never deleted. */
    void dropColumnFamily(String keyspace, String columnFamily) throws SchemaRefusedException, InterruptedException;
}
