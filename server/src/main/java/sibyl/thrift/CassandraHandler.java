package sibyl.thrift;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.cassandra.thrift.AuthenticationException;
import org.apache.cassandra.thrift.AuthenticationRequest;
import org.apache.cassandra.thrift.AuthorizationException;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.cassandra.thrift.ColumnOrSuperColumn;
import org.apache.cassandra.thrift.ColumnParent;
import org.apache.cassandra.thrift.ColumnPath;
import org.apache.cassandra.thrift.ConsistencyLevel;
import org.apache.cassandra.thrift.InvalidRequestException;
import org.apache.cassandra.thrift.KeyRange;
import org.apache.cassandra.thrift.KeySlice;
import org.apache.cassandra.thrift.Mutation;
import org.apache.cassandra.thrift.NotFoundException;
import org.apache.cassandra.thrift.SlicePredicate;
import org.apache.cassandra.thrift.TokenRange;
import org.apache.cassandra.thrift.cassandraConstants;
import sibyl.auth.AuthenticationFailure;
import sibyl.auth.AuthorizationFailure;
import sibyl.auth.Authenticator;

/**
 * The 0.6 interface as one connection sees it. Describe calls are answered from the
 * configuration; data calls check the connection's login and will hand over to the
 * service layer. One instance per connection, holding that connection's login state.
 */
final class CassandraHandler implements Cassandra.Iface {
    private final SchemaDescription schema;
    private final NodeDescription node;
    private final Authenticator authenticator;
    private final ConnectionSession session;

    CassandraHandler(SchemaDescription schema, NodeDescription node, Authenticator authenticator,
                     ConnectionSession session) {
        this.schema = schema;
        this.node = node;
        this.authenticator = authenticator;
        this.session = session;
    }

    // --- login

    @Override
    public void login(String keyspace, AuthenticationRequest request)
            throws AuthenticationException, AuthorizationException {
        try {
            String user = authenticator.login(keyspace, request.getCredentials());
            session.loggedIn(user, keyspace);
        } catch (AuthenticationFailure e) {
            throw new AuthenticationException(e.getMessage());
        } catch (AuthorizationFailure e) {
            throw new AuthorizationException(e.getMessage());
        }
    }

    // --- describe calls: no login needed, as in 0.6

    @Override
    public String get_string_property(String property) {
        return switch (property) {
            case "cluster name" -> node.clusterName();
            case "config file" -> node.configText() == null ? "file not found!" : node.configText();
            case "token map" -> node.tokenMapJson();
            case "version" -> cassandraConstants.VERSION;
            default -> "?";
        };
    }

    @Override
    public List<String> get_string_list_property(String property) {
        return "keyspaces".equals(property) ? schema.keyspaceNameList() : new ArrayList<>();
    }

    @Override
    public Set<String> describe_keyspaces() {
        return schema.keyspaceNames();
    }

    @Override
    public String describe_cluster_name() {
        return node.clusterName();
    }

    @Override
    public String describe_version() {
        return cassandraConstants.VERSION;
    }

    @Override
    public String describe_partitioner() {
        return node.partitioner();
    }

    @Override
    public List<TokenRange> describe_ring(String keyspace) throws InvalidRequestException {
        if (SchemaDescription.isSystem(keyspace) || schema.keyspace(keyspace) == null) {
            throw new InvalidRequestException("There is no ring for the keyspace: " + keyspace);
        }
        return List.of(new TokenRange(node.token(), node.token(), node.endpoints()));
    }

    @Override
    public Map<String, Map<String, String>> describe_keyspace(String keyspace) throws NotFoundException {
        Map<String, Map<String, String>> cfs = schema.keyspace(keyspace);
        if (cfs == null) throw new NotFoundException();
        return cfs;
    }

    @Override
    public List<String> describe_splits(String startToken, String endToken, int keysPerSplit) {
        return notYet();
    }

    // --- data calls

    @Override
    public ColumnOrSuperColumn get(String keyspace, String key, ColumnPath path, ConsistencyLevel cl)
            throws InvalidRequestException {
        return dataCall(keyspace);
    }

    @Override
    public List<ColumnOrSuperColumn> get_slice(String keyspace, String key, ColumnParent parent,
                                               SlicePredicate predicate, ConsistencyLevel cl)
            throws InvalidRequestException {
        return dataCall(keyspace);
    }

    @Override
    public Map<String, ColumnOrSuperColumn> multiget(String keyspace, List<String> keys, ColumnPath path,
                                                     ConsistencyLevel cl) throws InvalidRequestException {
        return dataCall(keyspace);
    }

    @Override
    public Map<String, List<ColumnOrSuperColumn>> multiget_slice(String keyspace, List<String> keys,
                                                                 ColumnParent parent, SlicePredicate predicate,
                                                                 ConsistencyLevel cl)
            throws InvalidRequestException {
        return dataCall(keyspace);
    }

    @Override
    public int get_count(String keyspace, String key, ColumnParent parent, ConsistencyLevel cl)
            throws InvalidRequestException {
        return dataCall(keyspace);
    }

    @Override
    public List<KeySlice> get_range_slice(String keyspace, ColumnParent parent, SlicePredicate predicate,
                                          String startKey, String finishKey, int rowCount, ConsistencyLevel cl)
            throws InvalidRequestException {
        return dataCall(keyspace);
    }

    @Override
    public List<KeySlice> get_range_slices(String keyspace, ColumnParent parent, SlicePredicate predicate,
                                           KeyRange range, ConsistencyLevel cl) throws InvalidRequestException {
        return dataCall(keyspace);
    }

    @Override
    public void insert(String keyspace, String key, ColumnPath path, java.nio.ByteBuffer value, long timestamp,
                       ConsistencyLevel cl) throws InvalidRequestException {
        dataCall(keyspace);
    }

    @Override
    public void batch_insert(String keyspace, String key, Map<String, List<ColumnOrSuperColumn>> cfmap,
                             ConsistencyLevel cl) throws InvalidRequestException {
        dataCall(keyspace);
    }

    @Override
    public void remove(String keyspace, String key, ColumnPath path, long timestamp, ConsistencyLevel cl)
            throws InvalidRequestException {
        dataCall(keyspace);
    }

    @Override
    public void batch_mutate(String keyspace, Map<String, Map<String, List<Mutation>>> mutationMap,
                             ConsistencyLevel cl) throws InvalidRequestException {
        dataCall(keyspace);
    }

    /** The checks every data call starts with, then the stand-in answer until storage exists. */
    private <T> T dataCall(String keyspace) throws InvalidRequestException {
        String problem = session.loginProblem();
        if (problem != null) throw new InvalidRequestException(problem);
        throw new InvalidRequestException("not yet supported");
    }

    private static <T> T notYet() {
        throw new UnsupportedOperationException("not yet supported");
    }
}
