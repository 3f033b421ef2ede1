/**
 * The cluster backend: a {@link sibyl.service.StorageService} that stores into a real Apache
 * Cassandra 5 cluster through the CQL driver, for users who outgrow one machine.
 *
 * <p>The mapping (docs/configuration.md §Cluster): a keyspace is a CQL keyspace (named with the configured
 * prefix), a standard column family the table {@code (key blob, column1 C, value blob,
 * PRIMARY KEY (key, column1))}, a super column family {@code (key blob, column1 C, column2 S,
 * value blob, PRIMARY KEY (key, column1, column2))}, where C and S are the CQL types of the
 * comparators; a standard column family of a CompositeType or ReversedType comparator has a clustering column per
 * component, descending where reversed ({@link sibyl.cluster.TableLayouts}); a counter column family's {@code value}
 * is a {@code counter}; a standard column family's column_metadata columns are static columns beside them
 * ({@link sibyl.cluster.StaticColumns}). Every write carries the client's timestamp, but a counter's, which the
 * cluster takes at its own clock and is never retried; a row mutation is one single-partition batch (its counter
 * tables' changes one counter batch). Depends on the data model (sibyl.db), never on the embedded engine.
 */
package sibyl.cluster;
