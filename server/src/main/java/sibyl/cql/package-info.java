/**
 * CQL over Thrift on the embedded engine (docs/thrift-api-0.7.md §CQL): a hand-written lexer and parser for the
 * subset served, the compact-storage view Cassandra 3.11 gives a column family made over Thrift, and plans that run
 * SELECT, INSERT, UPDATE and DELETE as the store's reads and writes ({@link sibyl.cql.LocalCql}). It knows the store
 * only through {@link sibyl.service.StorageService}.
 */
package sibyl.cql;
