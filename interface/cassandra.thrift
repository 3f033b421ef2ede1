// Sibyl's description of the Cassandra 0.6 client interface.
//
// This is our own text. What it must share with 0.6 is the wire: service and
// method names, struct and field ids, field types, requiredness and defaults,
// the exception structs and the enum values. Those facts are listed in
// docs/thrift-api.md §Types and §Calls; change nothing here that would move a
// byte on the wire. The Java bindings under src/main/java are generated from
// this file by ./generate (thrift-compiler 0.17) and committed;
// GeneratedCodeIsCurrentTest fails when they drift apart.
//
// Conventions of the 0.6 dialect worth knowing when reading the types:
//  * row keys, keyspace names, column family names and tokens are `string`
//    (decoded by Java servers as UTF-8 text);
//  * column and super column names and values are `binary` (raw bytes).

namespace java org.apache.cassandra.thrift
namespace cpp org.apache.cassandra
namespace csharp Apache.Cassandra  // 0.6 fact; thrift 0.17 has no csharp generator and warns
namespace py cassandra
namespace php cassandra
namespace perl Cassandra
namespace rb CassandraThrift

// The API version a 0.6.4+ server reports from describe_version.
const string VERSION = "2.2.0"


// ---------------------------------------------------------------------------
// Data

// The smallest unit of data: a name, a value and the client's timestamp.
struct Column {
   1: required binary name,
   2: required binary value,
   3: required i64 timestamp,
}

// A named, sorted group of columns inside a row of a Super column family.
struct SuperColumn {
   1: required binary name,
   2: required list<Column> columns,
}

// One entry of a read result: exactly one of the two is set
// (both empty is the "missing" entry of the deprecated multiget).
struct ColumnOrSuperColumn {
    1: optional Column column,
    2: optional SuperColumn super_column,
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

// Replicas did not answer within RpcTimeoutInMillis.
exception TimedOutException {
}

// login was refused: unknown user, wrong password, malformed credentials.
exception AuthenticationException {
    1: required string why
}

// The logged-in user may not use the requested keyspace.
exception AuthorizationException {
    1: required string why
}


// ---------------------------------------------------------------------------
// Consistency

// How many replicas must answer before a call returns. On the wire an i32.
enum ConsistencyLevel {
    ZERO = 0,
    ONE = 1,
    QUORUM = 2,
    DCQUORUM = 3,
    DCQUORUMSYNC = 4,
    ALL = 5,
    ANY = 6,
}


// ---------------------------------------------------------------------------
// Addressing. Ids 1 and 2 of ColumnParent and ColumnPath are retired (they
// carried the table and key before 0.4), so the live fields start at 3.

// Where a slice is read from: a column family, or one super column in it.
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
// count caps the number of live columns (or super columns) returned.
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

// A range of rows, by keys (start inclusive) or by tokens (start exclusive,
// end inclusive; the range may wrap, and equal tokens mean the whole ring).
struct KeyRange {
    1: optional string start_key,
    2: optional string end_key,
    3: optional string start_token,
    4: optional string end_token,
    5: required i32 count=100
}

// One row of a range read: its key and the columns the predicate selected.
struct KeySlice {
    1: required string key,
    2: required list<ColumnOrSuperColumn> columns,
}

// A deletion inside batch_mutate: of a row, a super column, or named columns.
struct Deletion {
    1: required i64 timestamp,
    2: optional binary super_column,
    3: optional SlicePredicate predicate,
}

// One change in batch_mutate: a write or a deletion, never both.
struct Mutation {
    1: optional ColumnOrSuperColumn column_or_supercolumn,
    2: optional Deletion deletion,
}

// A slice of the token ring and the nodes that hold it.
struct TokenRange {
    1: required string start_token,
    2: required string end_token,
    3: required list<string> endpoints,
}

// Credentials for login; SimpleAuthenticator reads "username" and "password".
struct AuthenticationRequest {
    1: required map<string, string> credentials,
}


// ---------------------------------------------------------------------------
// The service

service Cassandra {
  // Authenticates this connection. The keyspace only serves the
  // authorization check; later calls may name any keyspace.
  void login(1: required string keyspace, 2: required AuthenticationRequest auth_request)
       throws (1:AuthenticationException authnx, 2:AuthorizationException authzx),

  // --- reads

  ColumnOrSuperColumn get(1:required string keyspace,
                          2:required string key,
                          3:required ColumnPath column_path,
                          4:required ConsistencyLevel consistency_level=ConsistencyLevel.ONE)
                      throws (1:InvalidRequestException ire, 2:NotFoundException nfe, 3:UnavailableException ue, 4:TimedOutException te),

  list<ColumnOrSuperColumn> get_slice(1:required string keyspace,
                                      2:required string key,
                                      3:required ColumnParent column_parent,
                                      4:required SlicePredicate predicate,
                                      5:required ConsistencyLevel consistency_level=ConsistencyLevel.ONE)
                            throws (1:InvalidRequestException ire, 2:UnavailableException ue, 3:TimedOutException te),

  // Deprecated: multiget_slice does the same with a predicate.
  map<string,ColumnOrSuperColumn> multiget(1:required string keyspace,
                                           2:required list<string> keys,
                                           3:required ColumnPath column_path,
                                           4:required ConsistencyLevel consistency_level=ConsistencyLevel.ONE)
                                  throws (1:InvalidRequestException ire, 2:UnavailableException ue, 3:TimedOutException te),

  map<string,list<ColumnOrSuperColumn>> multiget_slice(1:required string keyspace,
                                                       2:required list<string> keys,
                                                       3:required ColumnParent column_parent,
                                                       4:required SlicePredicate predicate,
                                                       5:required ConsistencyLevel consistency_level=ConsistencyLevel.ONE)
                                        throws (1:InvalidRequestException ire, 2:UnavailableException ue, 3:TimedOutException te),

  i32 get_count(1:required string keyspace,
                2:required string key,
                3:required ColumnParent column_parent,
                4:required ConsistencyLevel consistency_level=ConsistencyLevel.ONE)
      throws (1:InvalidRequestException ire, 2:UnavailableException ue, 3:TimedOutException te),

  // Deprecated: get_range_slices with a KeyRange replaces it.
  list<KeySlice> get_range_slice(1:required string keyspace,
                                 2:required ColumnParent column_parent,
                                 3:required SlicePredicate predicate,
                                 4:required string start_key="",
                                 5:required string finish_key="",
                                 6:required i32 row_count=100,
                                 7:required ConsistencyLevel consistency_level=ConsistencyLevel.ONE)
                 throws (1:InvalidRequestException ire, 2:UnavailableException ue, 3:TimedOutException te),

  list<KeySlice> get_range_slices(1:required string keyspace,
                                  2:required ColumnParent column_parent,
                                  3:required SlicePredicate predicate,
                                  4:required KeyRange range,
                                  5:required ConsistencyLevel consistency_level=ConsistencyLevel.ONE)
                 throws (1:InvalidRequestException ire, 2:UnavailableException ue, 3:TimedOutException te),

  // --- writes

  void insert(1:required string keyspace,
              2:required string key,
              3:required ColumnPath column_path,
              4:required binary value,
              5:required i64 timestamp,
              6:required ConsistencyLevel consistency_level=ConsistencyLevel.ONE)
       throws (1:InvalidRequestException ire, 2:UnavailableException ue, 3:TimedOutException te),

  // Deprecated: batch_mutate replaces it.
  void batch_insert(1:required string keyspace,
                    2:required string key,
                    3:required map<string, list<ColumnOrSuperColumn>> cfmap,
                    4:required ConsistencyLevel consistency_level=ConsistencyLevel.ONE)
       throws (1:InvalidRequestException ire, 2:UnavailableException ue, 3:TimedOutException te),

  // consistency_level is the one argument 0.6 left without `required`.
  void remove(1:required string keyspace,
              2:required string key,
              3:required ColumnPath column_path,
              4:required i64 timestamp,
              5:ConsistencyLevel consistency_level=ConsistencyLevel.ONE)
       throws (1:InvalidRequestException ire, 2:UnavailableException ue, 3:TimedOutException te),

  // key -> column family -> mutations.
  void batch_mutate(1:required string keyspace,
                    2:required map<string, map<string, list<Mutation>>> mutation_map,
                    3:required ConsistencyLevel consistency_level=ConsistencyLevel.ONE)
       throws (1:InvalidRequestException ire, 2:UnavailableException ue, 3:TimedOutException te),

  // --- about the cluster (no login needed)

  // Deprecated: "cluster name", "config file", "token map", "version".
  string get_string_property(1:required string property),

  // Deprecated: "keyspaces".
  list<string> get_string_list_property(1:required string property),

  set<string> describe_keyspaces(),

  string describe_cluster_name(),

  string describe_version(),

  list<TokenRange> describe_ring(1:required string keyspace)
                   throws (1:InvalidRequestException ire),

  string describe_partitioner(),

  // column family -> property -> value
  map<string, map<string, string>> describe_keyspace(1:required string keyspace)
                                   throws (1:NotFoundException nfe),

  // Experimental: tokens that cut (start_token, end_token] into pieces of
  // about keys_per_split keys.
  list<string> describe_splits(1:required string start_token,
                               2:required string end_token,
                               3:required i32 keys_per_split),
}
