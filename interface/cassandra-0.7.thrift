// Sibyl's description of the Cassandra 0.7-3.11 client interface, at the
// last API version of that line (20.1.0, as 3.0 to 3.11 report it).
//
// This is our own text, the counterpart of cassandra.thrift (0.6). What it
// must share with Cassandra is the wire: service and method names, struct and
// argument field ids, field types, requiredness and defaults, the exception
// structs and the enum values. docs/thrift-api-0.7.md lists these facts;
// change nothing here that would move a byte on the wire. Every type and call
// of 20.1.0 is here, the deprecated ones included, so that the server can
// decode every call a client of that version may send. (Fields that clients
// of older releases send and 20.1.0 no longer declares are skipped unread.)
//
// The Java bindings under src/main/java/sibyl/iface/v20 are generated from
// this file by ./generate (thrift-compiler 0.17) and committed;
// GeneratedCodeIsCurrentTest fails when they drift apart. They live in their
// own package so that they can share a class loader with the 0.6 bindings,
// which keep 0.6's package.
//
// What changed on the wire since 0.6, in short:
//  * row keys are `binary` (0.6: string); keyspace and column family names
//    and tokens stay `string`;
//  * no call names a keyspace any more: a connection picks one with
//    set_keyspace, and login takes only the credentials;
//  * argument ids moved down by one wherever the keyspace argument went;
//  * Column gained a TTL (field 4), and its value and timestamp became
//    optional on the wire;
//  * ConsistencyLevel renumbered: ZERO, DCQUORUM and DCQUORUMSYNC are gone,
//    3 and 4 now mean LOCAL_QUORUM and EACH_QUORUM;
//  * counters, secondary indexes, schema calls (system_*), CQL over Thrift,
//    compare-and-set and multi-slices were added.

namespace java sibyl.iface.v20

// What describe_version reports.
const string VERSION = "20.1.0"


// ---------------------------------------------------------------------------
// Data

// A cell. ttl, when set, is the number of seconds after which it expires.
struct Column {
   1: required binary name,
   2: optional binary value,
   3: optional i64 timestamp,
   4: optional i32 ttl,
}

// A named, sorted group of columns inside a row of a Super column family.
struct SuperColumn {
   1: required binary name,
   2: required list<Column> columns,
}

// A counter cell: the sum of all increments applied to it. Counters carry no
// client timestamp.
struct CounterColumn {
    1: required binary name,
    2: required i64 value
}

// A super column of a counter column family.
struct CounterSuperColumn {
    1: required binary name,
    2: required list<CounterColumn> columns
}

// One entry of a read result: one of the four is set, the counter variants
// for counter column families.
struct ColumnOrSuperColumn {
    1: optional Column column,
    2: optional SuperColumn super_column,
    3: optional CounterColumn counter_column,
    4: optional CounterSuperColumn counter_super_column
}


// ---------------------------------------------------------------------------
// Exceptions

// get found nothing at the requested path.
exception NotFoundException {
}

// The request was malformed or named something that does not exist; `why`
// says which.
exception InvalidRequestException {
    1: required string why
}

// Not enough replicas were alive to honour the consistency level.
exception UnavailableException {
}

// Replicas did not answer in time. The optional fields (absent in 0.6) tell a
// writer how far the write got: how many replicas acknowledged it, whether an
// atomic batch reached the batch log, whether cas timed out inside Paxos.
exception TimedOutException {
    1: optional i32 acknowledged_by
    2: optional bool acknowledged_by_batchlog
    3: optional bool paxos_in_progress
}

// login was refused: unknown user, wrong password, malformed credentials.
exception AuthenticationException {
    1: required string why
}

// The logged-in user may not do what the call asked.
exception AuthorizationException {
    1: required string why
}

// Declared by the schema calls; the nodes no longer wait for agreement, so
// servers of the later releases never raise it.
exception SchemaDisagreementException {
}


// ---------------------------------------------------------------------------
// Consistency

// How many replicas must answer before a call returns. On the wire an i32.
// SERIAL and LOCAL_SERIAL apply to cas (and to reads that must see it).
enum ConsistencyLevel {
    ONE = 1,
    QUORUM = 2,
    LOCAL_QUORUM = 3,
    EACH_QUORUM = 4,
    ALL = 5,
    ANY = 6,
    TWO = 7,
    THREE = 8,
    SERIAL = 9,
    LOCAL_SERIAL = 10,
    LOCAL_ONE = 11,
}


// ---------------------------------------------------------------------------
// Addressing. As in 0.6, ColumnParent and ColumnPath start at id 3.

// Where a slice is read from or a column written to: a column family, or one
// super column in it.
struct ColumnParent {
    3: required string column_family,
    4: optional binary super_column,
}

// One column, one super column, or (for remove) a whole row of a column family.
struct ColumnPath {
    3: required string column_family,
    4: optional binary super_column,
    5: optional binary column,
}

// A contiguous run of columns. start and finish are inclusive; an empty value
// leaves that end open. With reversed, the walk goes from start downwards.
// count caps the number of columns (or super columns) returned.
struct SliceRange {
    1: required binary start,
    2: required binary finish,
    3: required bool reversed=0,
    4: required i32 count=100,
}

// Which columns of a row to return: either a list of names or a range.
struct SlicePredicate {
    1: optional list<binary> column_names,
    2: optional SliceRange slice_range,
}

// Comparison of an indexed column's value with a given one. On the wire an
// i32.
enum IndexOperator {
    EQ = 0,
    GTE = 1,
    GT = 2,
    LTE = 3,
    LT = 4
}

// One condition on a column's value: column_name op value.
struct IndexExpression {
    1: required binary column_name,
    2: required IndexOperator op,
    3: required binary value,
}

// The rows of get_indexed_slices: those meeting every expression, from
// start_key on, at most count of them. Superseded by KeyRange.row_filter.
struct IndexClause {
    1: required list<IndexExpression> expressions,
    2: required binary start_key,
    3: required i32 count=100,
}

// A range of rows, by keys (start inclusive) or by tokens (start exclusive,
// end inclusive; the range may wrap, and equal tokens mean the whole ring).
// Keys are binary now; tokens are still their string form. row_filter keeps
// only the rows meeting every expression (it was added after count, hence
// id 6).
struct KeyRange {
    1: optional binary start_key,
    2: optional binary end_key,
    3: optional string start_token,
    4: optional string end_token,
    6: optional list<IndexExpression> row_filter,
    5: required i32 count=100
}

// One row of a range read: its key and the columns the predicate selected.
struct KeySlice {
    1: required binary key,
    2: required list<ColumnOrSuperColumn> columns,
}

// A row key with a count. No call of 20.1.0 takes or returns it; the type
// is still declared.
struct KeyCount {
    1: required binary key,
    2: required i32 count
}

// A deletion inside batch_mutate: of a row, a super column, or some columns.
// The timestamp may be left out only when deleting counters.
struct Deletion {
    1: optional i64 timestamp,
    2: optional binary super_column,
    3: optional SlicePredicate predicate,
}

// One change in batch_mutate: a write or a deletion, never both.
struct Mutation {
    1: optional ColumnOrSuperColumn column_or_supercolumn,
    2: optional Deletion deletion,
}

// Where a replica lives. host and datacenter have no requiredness keyword.
struct EndpointDetails {
    1: string host,
    2: string datacenter,
    3: optional string rack
}

// The outcome of cas: success, or the current values of the expected
// columns that did not match.
struct CASResult {
    1: required bool success,
    2: optional list<Column> current_values,
}

// A slice of the token ring and the nodes that hold it: endpoints by their
// internal (listen) address, rpc_endpoints by the address clients use.
struct TokenRange {
    1: required string start_token,
    2: required string end_token,
    3: required list<string> endpoints,
    4: optional list<string> rpc_endpoints
    5: optional list<EndpointDetails> endpoint_details,
}

// Credentials for login; what keys it needs depends on the authenticator.
struct AuthenticationRequest {
    1: required map<string, string> credentials
}


// ---------------------------------------------------------------------------
// Schema

// Kind of secondary index. On the wire an i32.
enum IndexType {
    KEYS = 0,
    CUSTOM = 1,
    COMPOSITES = 2
}

// Metadata of one named column: its value type and, optionally, an index.
struct ColumnDef {
    1: required binary name,
    2: required string validation_class,
    3: optional IndexType index_type,
    4: optional string index_name,
    5: optional map<string,string> index_options
}

// A trigger on a column family; options must name at least its `class`.
struct TriggerDef {
    1: required string name,
    2: required map<string,string> options
}

// A column family's definition. The ids are not contiguous: fields dropped
// over the releases left gaps. The ones gathered at the end are still
// declared, because clients of earlier releases send them, but ignored.
struct CfDef {
    1: required string keyspace,
    2: required string name,
    3: optional string column_type="Standard",
    5: optional string comparator_type="BytesType",
    6: optional string subcomparator_type,
    8: optional string comment,
    12: optional double read_repair_chance,
    13: optional list<ColumnDef> column_metadata,
    14: optional i32 gc_grace_seconds,
    15: optional string default_validation_class,
    16: optional i32 id,
    17: optional i32 min_compaction_threshold,
    18: optional i32 max_compaction_threshold,
    26: optional string key_validation_class,
    28: optional binary key_alias,
    29: optional string compaction_strategy,
    30: optional map<string,string> compaction_strategy_options,
    32: optional map<string,string> compression_options,
    33: optional double bloom_filter_fp_chance,
    34: optional string caching="keys_only",
    37: optional double dclocal_read_repair_chance = 0.0,
    39: optional i32 memtable_flush_period_in_ms,
    40: optional i32 default_time_to_live,
    42: optional string speculative_retry="NONE",
    43: optional list<TriggerDef> triggers,
    44: optional string cells_per_row_to_cache = "100",
    45: optional i32 min_index_interval,
    46: optional i32 max_index_interval,

    // Settings of earlier releases, accepted and ignored.
    9: optional double row_cache_size,
    11: optional double key_cache_size,
    19: optional i32 row_cache_save_period_in_seconds,
    20: optional i32 key_cache_save_period_in_seconds,
    21: optional i32 memtable_flush_after_mins,
    22: optional i32 memtable_throughput_in_mb,
    23: optional double memtable_operations_in_millions,
    24: optional bool replicate_on_write,
    25: optional double merge_shards_chance,
    27: optional string row_cache_provider,
    31: optional i32 row_cache_keys_to_save,
    38: optional bool populate_io_cache_on_flush,
    41: optional i32 index_interval,
}

// A keyspace's definition. replication_factor is the 0.7 form, later read
// from strategy_options instead.
struct KsDef {
    1: required string name,
    2: required string strategy_class,
    3: optional map<string,string> strategy_options,
    4: optional i32 replication_factor,
    5: required list<CfDef> cf_defs,
    6: optional bool durable_writes=1,
}


// ---------------------------------------------------------------------------
// CQL over Thrift

// How a query string is compressed. On the wire an i32.
enum Compression {
    GZIP = 1,
    NONE = 2
}

// Which of CqlResult's fields carry the answer. On the wire an i32.
enum CqlResultType {
    ROWS = 1,
    VOID = 2,
    INT = 3
}

// One row of a CQL result. CQL3 leaves key empty and returns key columns
// among the others.
struct CqlRow {
    1: required binary key,
    2: required list<Column> columns
}

// Type names of a result's column names and values: per name, with defaults.
struct CqlMetadata {
    1: required map<binary,string> name_types,
    2: required map<binary,string> value_types,
    3: required string default_name_type,
    4: required string default_value_type
}

struct CqlResult {
    1: required CqlResultType type,
    2: optional list<CqlRow> rows,
    3: optional i32 num,
    4: optional CqlMetadata schema
}

// A prepared statement: its id and how many markers it binds.
struct CqlPreparedResult {
    1: required i32 itemId,
    2: required i32 count,
    3: optional list<string> variable_types,
    4: optional list<string> variable_names
}


// ---------------------------------------------------------------------------
// Splits and multi-slices

// One piece of describe_splits_ex: a token range and its estimated rows.
struct CfSplit {
    1: required string start_token,
    2: required string end_token,
    3: required i64 row_count
}

// An inclusive run of columns for get_multi_slice; an unset end is open.
struct ColumnSlice {
    1: optional binary start,
    2: optional binary finish
}

// Several slices of one row in one call. Every field is optional on the
// wire, even the key.
struct MultiSliceRequest {
    1: optional binary key,
    2: optional ColumnParent column_parent,
    3: optional list<ColumnSlice> column_slices,
    4: optional bool reversed=false,
    5: optional i32 count=1000,
    6: optional ConsistencyLevel consistency_level=ConsistencyLevel.ONE
}


// ---------------------------------------------------------------------------
// The service

service Cassandra {
  // Authenticates this connection. Unlike 0.6 it names no keyspace.
  void login(1: required AuthenticationRequest auth_request)
       throws (1:AuthenticationException authnx, 2:AuthorizationException authzx),

  // Picks the keyspace every later call of this connection works in.
  void set_keyspace(1: required string keyspace) throws (1:InvalidRequestException ire),

  // --- reads

  ColumnOrSuperColumn get(1:required binary key,
                          2:required ColumnPath column_path,
                          3:required ConsistencyLevel consistency_level=ConsistencyLevel.ONE)
                      throws (1:InvalidRequestException ire, 2:NotFoundException nfe, 3:UnavailableException ue, 4:TimedOutException te),

  list<ColumnOrSuperColumn> get_slice(1:required binary key,
                                      2:required ColumnParent column_parent,
                                      3:required SlicePredicate predicate,
                                      4:required ConsistencyLevel consistency_level=ConsistencyLevel.ONE)
                            throws (1:InvalidRequestException ire, 2:UnavailableException ue, 3:TimedOutException te),

  // Counts the columns the predicate selects (0.6 took no predicate).
  i32 get_count(1:required binary key,
                2:required ColumnParent column_parent,
                3:required SlicePredicate predicate,
                4:required ConsistencyLevel consistency_level=ConsistencyLevel.ONE)
      throws (1:InvalidRequestException ire, 2:UnavailableException ue, 3:TimedOutException te),

  map<binary,list<ColumnOrSuperColumn>> multiget_slice(1:required list<binary> keys,
                                                       2:required ColumnParent column_parent,
                                                       3:required SlicePredicate predicate,
                                                       4:required ConsistencyLevel consistency_level=ConsistencyLevel.ONE)
                                        throws (1:InvalidRequestException ire, 2:UnavailableException ue, 3:TimedOutException te),

  map<binary, i32> multiget_count(1:required list<binary> keys,
                                  2:required ColumnParent column_parent,
                                  3:required SlicePredicate predicate,
                                  4:required ConsistencyLevel consistency_level=ConsistencyLevel.ONE)
                   throws (1:InvalidRequestException ire, 2:UnavailableException ue, 3:TimedOutException te),

  list<KeySlice> get_range_slices(1:required ColumnParent column_parent,
                                  2:required SlicePredicate predicate,
                                  3:required KeyRange range,
                                  4:required ConsistencyLevel consistency_level=ConsistencyLevel.ONE)
                 throws (1:InvalidRequestException ire, 2:UnavailableException ue, 3:TimedOutException te),

  // Reads columns from start_column of the range's first row on, then on
  // into the following rows, until range.count columns are collected.
  list<KeySlice> get_paged_slice(1:required string column_family,
                                 2:required KeyRange range,
                                 3:required binary start_column,
                                 4:required ConsistencyLevel consistency_level=ConsistencyLevel.ONE)
                 throws (1:InvalidRequestException ire, 2:UnavailableException ue, 3:TimedOutException te),

  // Deprecated: get_range_slices with KeyRange.row_filter replaces it.
  list<KeySlice> get_indexed_slices(1:required ColumnParent column_parent,
                                    2:required IndexClause index_clause,
                                    3:required SlicePredicate column_predicate,
                                    4:required ConsistencyLevel consistency_level=ConsistencyLevel.ONE)
                 throws (1:InvalidRequestException ire, 2:UnavailableException ue, 3:TimedOutException te),

  // --- writes

  // Writes one column under column_parent (0.6 took a path, a value and a
  // timestamp; the Column carries those now).
  void insert(1:required binary key,
              2:required ColumnParent column_parent,
              3:required Column column,
              4:required ConsistencyLevel consistency_level=ConsistencyLevel.ONE)
       throws (1:InvalidRequestException ire, 2:UnavailableException ue, 3:TimedOutException te),

  // Adds column.value (which may be negative) to a counter.
  void add(1:required binary key,
           2:required ColumnParent column_parent,
           3:required CounterColumn column,
           4:required ConsistencyLevel consistency_level=ConsistencyLevel.ONE)
       throws (1:InvalidRequestException ire, 2:UnavailableException ue, 3:TimedOutException te),

  // Compare-and-set on one row: writes updates if the row's current columns
  // match expected. expected and updates have no requiredness keyword.
  CASResult cas(1:required binary key,
                2:required string column_family,
                3:list<Column> expected,
                4:list<Column> updates,
                5:required ConsistencyLevel serial_consistency_level=ConsistencyLevel.SERIAL,
                6:required ConsistencyLevel commit_consistency_level=ConsistencyLevel.QUORUM)
       throws (1:InvalidRequestException ire, 2:UnavailableException ue, 3:TimedOutException te),

  // consistency_level is without `required`, as in 0.6.
  void remove(1:required binary key,
              2:required ColumnPath column_path,
              3:required i64 timestamp,
              4:ConsistencyLevel consistency_level=ConsistencyLevel.ONE)
       throws (1:InvalidRequestException ire, 2:UnavailableException ue, 3:TimedOutException te),

  void remove_counter(1:required binary key,
                      2:required ColumnPath path,
                      3:required ConsistencyLevel consistency_level=ConsistencyLevel.ONE)
      throws (1:InvalidRequestException ire, 2:UnavailableException ue, 3:TimedOutException te),

  // key -> column family -> mutations.
  void batch_mutate(1:required map<binary, map<string, list<Mutation>>> mutation_map,
                    2:required ConsistencyLevel consistency_level=ConsistencyLevel.ONE)
       throws (1:InvalidRequestException ire, 2:UnavailableException ue, 3:TimedOutException te),

  // batch_mutate through the batch log: all of it is applied or none.
  void atomic_batch_mutate(1:required map<binary, map<string, list<Mutation>>> mutation_map,
                           2:required ConsistencyLevel consistency_level=ConsistencyLevel.ONE)
       throws (1:InvalidRequestException ire, 2:UnavailableException ue, 3:TimedOutException te),

  // Deletes every row of a column family of the current keyspace.
  void truncate(1:required string cfname)
       throws (1: InvalidRequestException ire, 2: UnavailableException ue, 3: TimedOutException te),

  list<ColumnOrSuperColumn> get_multi_slice(1:required MultiSliceRequest request)
       throws (1:InvalidRequestException ire, 2:UnavailableException ue, 3:TimedOutException te),

  // --- about the cluster

  // Schema version -> the nodes that have it.
  map<string, list<string>> describe_schema_versions()
       throws (1: InvalidRequestException ire),

  // Unlike 0.6, full definitions rather than names.
  list<KsDef> describe_keyspaces()
    throws (1:InvalidRequestException ire),

  string describe_cluster_name(),

  string describe_version(),

  list<TokenRange> describe_ring(1:required string keyspace)
                   throws (1:InvalidRequestException ire),

  // describe_ring restricted to the local datacenter's nodes.
  list<TokenRange> describe_local_ring(1:required string keyspace)
                   throws (1:InvalidRequestException ire),

  // Token -> node address, regardless of replication.
  map<string, string> describe_token_map()
                    throws (1:InvalidRequestException ire),

  string describe_partitioner(),

  string describe_snitch(),

  KsDef describe_keyspace(1:required string keyspace)
    throws (1:NotFoundException nfe, 2:InvalidRequestException ire),

  // Tokens that cut (start_token, end_token] of column family cfName into
  // pieces of about keys_per_split rows.
  list<string> describe_splits(1:required string cfName,
                               2:required string start_token,
                               3:required string end_token,
                               4:required i32 keys_per_split)
    throws (1:InvalidRequestException ire),

  // Traces the connection's next call; returns the trace session's UUID.
  binary trace_next_query(),

  // describe_splits with each piece's estimated row count.
  list<CfSplit> describe_splits_ex(1:required string cfName,
                                   2:required string start_token,
                                   3:required string end_token,
                                   4:required i32 keys_per_split)
    throws (1:InvalidRequestException ire),

  // --- schema changes; each returns the new schema version

  string system_add_column_family(1:required CfDef cf_def)
    throws (1:InvalidRequestException ire, 2:SchemaDisagreementException sde),

  string system_drop_column_family(1:required string column_family)
    throws (1:InvalidRequestException ire, 2:SchemaDisagreementException sde),

  string system_add_keyspace(1:required KsDef ks_def)
    throws (1:InvalidRequestException ire, 2:SchemaDisagreementException sde),

  string system_drop_keyspace(1:required string keyspace)
    throws (1:InvalidRequestException ire, 2:SchemaDisagreementException sde),

  string system_update_keyspace(1:required KsDef ks_def)
    throws (1:InvalidRequestException ire, 2:SchemaDisagreementException sde),

  string system_update_column_family(1:required CfDef cf_def)
    throws (1:InvalidRequestException ire, 2:SchemaDisagreementException sde),

  // --- CQL. The CQL2 calls (without "3") are refused by 3.0 and later with
  // InvalidRequestException; they stay so that their calls decode.

  CqlResult execute_cql_query(1:required binary query, 2:required Compression compression)
    throws (1:InvalidRequestException ire,
            2:UnavailableException ue,
            3:TimedOutException te,
            4:SchemaDisagreementException sde)

  CqlResult execute_cql3_query(1:required binary query, 2:required Compression compression, 3:required ConsistencyLevel consistency)
    throws (1:InvalidRequestException ire,
            2:UnavailableException ue,
            3:TimedOutException te,
            4:SchemaDisagreementException sde)

  CqlPreparedResult prepare_cql_query(1:required binary query, 2:required Compression compression)
    throws (1:InvalidRequestException ire)

  CqlPreparedResult prepare_cql3_query(1:required binary query, 2:required Compression compression)
    throws (1:InvalidRequestException ire)

  CqlResult execute_prepared_cql_query(1:required i32 itemId, 2:required list<binary> values)
    throws (1:InvalidRequestException ire,
            2:UnavailableException ue,
            3:TimedOutException te,
            4:SchemaDisagreementException sde)

  CqlResult execute_prepared_cql3_query(1:required i32 itemId, 2:required list<binary> values, 3:required ConsistencyLevel consistency)
    throws (1:InvalidRequestException ire,
            2:UnavailableException ue,
            3:TimedOutException te,
            4:SchemaDisagreementException sde)

  // Accepted and ignored by the later releases.
  void set_cql_version(1: required string version) throws (1:InvalidRequestException ire)
}
