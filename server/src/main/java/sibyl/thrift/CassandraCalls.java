package sibyl.thrift;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.thrift.ProcessFunction;
import org.apache.thrift.TBase;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TMessage;
import org.apache.thrift.protocol.TProtocol;
import sibyl.transport.DeferringProcessor;

import static sibyl.thrift.ThriftCalls.call;
import static sibyl.thrift.ThriftCalls.now;

/**
 * Every method of the 0.6 interface, by name: the generated struct its arguments decode into and the handler's call
 * for them, in a {@link ThriftCalls} table, which answers them on the wire. A method added to the interface is one
 * line here and its call in {@link CassandraHandler}.
 */
final class CassandraCalls {
    static final ThriftCalls<CassandraHandler> TABLE = table();

    private static ThriftCalls<CassandraHandler> table() {
        return new ThriftCalls<>(List.of(
                now("login", Cassandra.login_args::new, Cassandra.login_result::new, (h, a) -> {
                    h.login(a.keyspace, a.auth_request);
                    return null;
                }),
                call("get", Cassandra.get_args::new, Cassandra.get_result::new,
                        (h, a) -> h.get(a.keyspace, a.key, a.column_path, a.consistency_level)),
                call("get_slice", Cassandra.get_slice_args::new, Cassandra.get_slice_result::new,
                        (h, a) -> h.get_slice(a.keyspace, a.key, a.column_parent, a.predicate, a.consistency_level)),
                call("multiget", Cassandra.multiget_args::new, Cassandra.multiget_result::new,
                        (h, a) -> h.multiget(a.keyspace, a.keys, a.column_path, a.consistency_level)),
                call("multiget_slice", Cassandra.multiget_slice_args::new, Cassandra.multiget_slice_result::new,
                        (h, a) -> h.multiget_slice(a.keyspace, a.keys, a.column_parent, a.predicate,
                                a.consistency_level)),
                call("get_count", Cassandra.get_count_args::new, Cassandra.get_count_result::new,
                        (h, a) -> h.get_count(a.keyspace, a.key, a.column_parent, a.consistency_level)),
                call("get_range_slice", Cassandra.get_range_slice_args::new, Cassandra.get_range_slice_result::new,
                        (h, a) -> h.get_range_slice(a.keyspace, a.column_parent, a.predicate, a.start_key,
                                a.finish_key, a.row_count, a.consistency_level)),
                call("get_range_slices", Cassandra.get_range_slices_args::new,
                        Cassandra.get_range_slices_result::new, (h, a) -> h.get_range_slices(a.keyspace,
                                a.column_parent, a.predicate, a.range, a.consistency_level)),
                call("insert", Cassandra.insert_args::new, Cassandra.insert_result::new,
                        (h, a) -> h.insert(a.keyspace, a.key, a.column_path, a.value, a.timestamp,
                                a.consistency_level)),
                call("batch_insert", Cassandra.batch_insert_args::new, Cassandra.batch_insert_result::new,
                        (h, a) -> h.batch_insert(a.keyspace, a.key, a.cfmap, a.consistency_level)),
                call("remove", Cassandra.remove_args::new, Cassandra.remove_result::new,
                        (h, a) -> h.remove(a.keyspace, a.key, a.column_path, a.timestamp, a.consistency_level)),
                // Its arguments are decoded by BatchMutateArgs, which makes less garbage than the generated code.
                call("batch_mutate", BatchMutateArgs::new, Cassandra.batch_mutate_result::new,
                        (h, a) -> h.batch_mutate(a.keyspace, a.mutation_map, a.consistency_level)),
                now("get_string_property", Cassandra.get_string_property_args::new,
                        Cassandra.get_string_property_result::new, (h, a) -> h.get_string_property(a.property)),
                now("get_string_list_property", Cassandra.get_string_list_property_args::new,
                        Cassandra.get_string_list_property_result::new,
                        (h, a) -> h.get_string_list_property(a.property)),
                now("describe_keyspaces", Cassandra.describe_keyspaces_args::new,
                        Cassandra.describe_keyspaces_result::new, (h, a) -> h.describe_keyspaces()),
                now("describe_cluster_name", Cassandra.describe_cluster_name_args::new,
                        Cassandra.describe_cluster_name_result::new, (h, a) -> h.describe_cluster_name()),
                now("describe_version", Cassandra.describe_version_args::new,
                        Cassandra.describe_version_result::new, (h, a) -> h.describe_version()),
                now("describe_ring", Cassandra.describe_ring_args::new, Cassandra.describe_ring_result::new,
                        (h, a) -> h.describe_ring(a.keyspace)),
                now("describe_partitioner", Cassandra.describe_partitioner_args::new,
                        Cassandra.describe_partitioner_result::new, (h, a) -> h.describe_partitioner()),
                now("describe_keyspace", Cassandra.describe_keyspace_args::new,
                        Cassandra.describe_keyspace_result::new, (h, a) -> h.describe_keyspace(a.keyspace)),
                now("describe_splits", Cassandra.describe_splits_args::new, Cassandra.describe_splits_result::new,
                        (h, a) -> h.describe_splits(a.start_token, a.end_token, a.keys_per_split))));
    }

    private CassandraCalls() {
    }

    /** What runs each method on the thread that read it, waiting for the handler's answer. */
    static Map<String, ProcessFunction<CassandraHandler, ? extends TBase>> functions() {
        return TABLE.functions();
    }

    /** Whether the interface has a method of this name. */
    static boolean exists(String method) {
        return TABLE.exists(method);
    }

    /** Starts the call of {@code message}, answering when the handler's answer comes ({@link ThriftCalls#start}). */
    static CompletionStage<DeferringProcessor.Reply> start(CassandraHandler handler, TMessage message, TProtocol in)
            throws TException {
        return TABLE.start(handler, message, in);
    }
}
