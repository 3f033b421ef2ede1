package sibyl.thrift20;

import static sibyl.thrift.ThriftCalls.call;
import static sibyl.thrift.ThriftCalls.now;

import java.util.List;
import java.util.function.Supplier;
import org.apache.thrift.TBase;
import sibyl.iface.v20.Cassandra;
import sibyl.thrift.ThriftCalls;

/**
 * Every method of the 0.7+ dialect (API 20.1.0), by name: the generated struct its arguments decode into and the
 * handler's call for them, in a {@link ThriftCalls} table, which answers them on the wire. The methods Sibyl does
 * not serve yet are in it too, each refused with an InvalidRequestException that names it.
 */
final class Cassandra20Calls {
    static final ThriftCalls<Cassandra20Handler> TABLE = new ThriftCalls<>(List.of(
            now("login", Cassandra.login_args::new, Cassandra.login_result::new, (h, a) -> {
                h.login(a.auth_request);
                return null;
            }),
            now("set_keyspace", Cassandra.set_keyspace_args::new, Cassandra.set_keyspace_result::new, (h, a) -> {
                h.set_keyspace(a.keyspace);
                return null;
            }),
            now("set_cql_version", Cassandra.set_cql_version_args::new, Cassandra.set_cql_version_result::new,
                    (h, a) -> {
                        h.set_cql_version(a.version);
                        return null;
                    }),
            now("trace_next_query", Cassandra.trace_next_query_args::new, Cassandra.trace_next_query_result::new,
                    (h, a) -> h.trace_next_query()),
            call("get", Cassandra.get_args::new, Cassandra.get_result::new,
                    (h, a) -> h.get(a.key, a.column_path, a.consistency_level)),
            call("get_slice", Cassandra.get_slice_args::new, Cassandra.get_slice_result::new,
                    (h, a) -> h.get_slice(a.key, a.column_parent, a.predicate, a.consistency_level)),
            call("get_count", Cassandra.get_count_args::new, Cassandra.get_count_result::new,
                    (h, a) -> h.get_count(a.key, a.column_parent, a.predicate, a.consistency_level)),
            call("multiget_slice", Cassandra.multiget_slice_args::new, Cassandra.multiget_slice_result::new,
                    (h, a) -> h.multiget_slice(a.keys, a.column_parent, a.predicate, a.consistency_level)),
            call("multiget_count", Cassandra.multiget_count_args::new, Cassandra.multiget_count_result::new,
                    (h, a) -> h.multiget_count(a.keys, a.column_parent, a.predicate, a.consistency_level)),
            call("get_range_slices", Cassandra.get_range_slices_args::new, Cassandra.get_range_slices_result::new,
                    (h, a) -> h.get_range_slices(a.column_parent, a.predicate, a.range, a.consistency_level)),
            call("insert", Cassandra.insert_args::new, Cassandra.insert_result::new,
                    (h, a) -> h.insert(a.key, a.column_parent, a.column, a.consistency_level)),
            call("remove", Cassandra.remove_args::new, Cassandra.remove_result::new,
                    (h, a) -> h.remove(a.key, a.column_path, a.timestamp, a.consistency_level)),
            call("batch_mutate", Cassandra.batch_mutate_args::new, Cassandra.batch_mutate_result::new,
                    (h, a) -> h.batch_mutate(a.mutation_map, a.consistency_level)),
            call("atomic_batch_mutate", Cassandra.atomic_batch_mutate_args::new,
                    Cassandra.atomic_batch_mutate_result::new,
                    (h, a) -> h.batch_mutate(a.mutation_map, a.consistency_level)),
            call("truncate", Cassandra.truncate_args::new, Cassandra.truncate_result::new,
                    (h, a) -> h.truncate(a.cfname)),
            now("describe_schema_versions", Cassandra.describe_schema_versions_args::new,
                    Cassandra.describe_schema_versions_result::new, (h, a) -> h.describe_schema_versions()),
            now("describe_keyspaces", Cassandra.describe_keyspaces_args::new,
                    Cassandra.describe_keyspaces_result::new, (h, a) -> h.describe_keyspaces()),
            now("describe_keyspace", Cassandra.describe_keyspace_args::new, Cassandra.describe_keyspace_result::new,
                    (h, a) -> h.describe_keyspace(a.keyspace)),
            now("describe_cluster_name", Cassandra.describe_cluster_name_args::new,
                    Cassandra.describe_cluster_name_result::new, (h, a) -> h.node().clusterName()),
            now("describe_version", Cassandra.describe_version_args::new, Cassandra.describe_version_result::new,
                    (h, a) -> h.apiVersion()),
            now("describe_partitioner", Cassandra.describe_partitioner_args::new,
                    Cassandra.describe_partitioner_result::new, (h, a) -> h.node().partitioner()),
            now("describe_snitch", Cassandra.describe_snitch_args::new, Cassandra.describe_snitch_result::new,
                    (h, a) -> Cassandra20Handler.SNITCH),
            now("describe_ring", Cassandra.describe_ring_args::new, Cassandra.describe_ring_result::new,
                    (h, a) -> h.describe_ring(a.keyspace)),
            now("describe_local_ring", Cassandra.describe_local_ring_args::new,
                    Cassandra.describe_local_ring_result::new, (h, a) -> h.describe_ring(a.keyspace)),
            now("describe_token_map", Cassandra.describe_token_map_args::new,
                    Cassandra.describe_token_map_result::new, (h, a) -> h.describe_token_map()),
            now("describe_splits", Cassandra.describe_splits_args::new, Cassandra.describe_splits_result::new,
                    (h, a) -> h.describe_splits(a.cfName, a.start_token, a.end_token, a.keys_per_split)),
            now("describe_splits_ex", Cassandra.describe_splits_ex_args::new,
                    Cassandra.describe_splits_ex_result::new,
                    (h, a) -> h.describe_splits_ex(a.cfName, a.start_token, a.end_token, a.keys_per_split)),
            call("get_paged_slice", Cassandra.get_paged_slice_args::new, Cassandra.get_paged_slice_result::new,
                    (h, a) -> h.get_paged_slice(a.column_family, a.range, a.start_column, a.consistency_level)),
            call("get_indexed_slices", Cassandra.get_indexed_slices_args::new, Cassandra.get_indexed_slices_result::new,
                    (h, a) -> h.get_indexed_slices(a.column_parent, a.index_clause, a.column_predicate, a.consistency_level)),
            call("get_multi_slice", Cassandra.get_multi_slice_args::new, Cassandra.get_multi_slice_result::new,
                    (h, a) -> h.get_multi_slice(a.request)),
            call("add", Cassandra.add_args::new, Cassandra.add_result::new,
                    (h, a) -> h.add(a.key, a.column_parent, a.column, a.consistency_level)),
            call("remove_counter", Cassandra.remove_counter_args::new, Cassandra.remove_counter_result::new,
                    (h, a) -> h.remove_counter(a.key, a.path, a.consistency_level)),
            call("cas", Cassandra.cas_args::new, Cassandra.cas_result::new, (h, a) -> h.cas(a.key, a.column_family,
                    a.expected, a.updates, a.serial_consistency_level, a.commit_consistency_level)),
            call("system_add_column_family", Cassandra.system_add_column_family_args::new, Cassandra.system_add_column_family_result::new,
                    (h, a) -> h.system_add_column_family(a.cf_def)),
            call("system_drop_column_family", Cassandra.system_drop_column_family_args::new, Cassandra.system_drop_column_family_result::new,
                    (h, a) -> h.system_drop_column_family(a.column_family)),
            call("system_add_keyspace", Cassandra.system_add_keyspace_args::new, Cassandra.system_add_keyspace_result::new,
                    (h, a) -> h.system_add_keyspace(a.ks_def)),
            call("system_drop_keyspace", Cassandra.system_drop_keyspace_args::new, Cassandra.system_drop_keyspace_result::new,
                    (h, a) -> h.system_drop_keyspace(a.keyspace)),
            call("system_update_keyspace", Cassandra.system_update_keyspace_args::new, Cassandra.system_update_keyspace_result::new,
                    (h, a) -> h.system_update_keyspace(a.ks_def)),
            call("system_update_column_family", Cassandra.system_update_column_family_args::new, Cassandra.system_update_column_family_result::new,
                    (h, a) -> h.system_update_column_family(a.cf_def)),
            cql2("execute_cql_query", Cassandra.execute_cql_query_args::new, Cassandra.execute_cql_query_result::new),
            call("execute_cql3_query", Cassandra.execute_cql3_query_args::new, Cassandra.execute_cql3_query_result::new,
                    (h, a) -> h.execute_cql3_query(a.query, a.compression, a.consistency)),
            cql2("prepare_cql_query", Cassandra.prepare_cql_query_args::new, Cassandra.prepare_cql_query_result::new),
            call("prepare_cql3_query", Cassandra.prepare_cql3_query_args::new, Cassandra.prepare_cql3_query_result::new,
                    (h, a) -> h.prepare_cql3_query(a.query, a.compression)),
            cql2("execute_prepared_cql_query", Cassandra.execute_prepared_cql_query_args::new,
                    Cassandra.execute_prepared_cql_query_result::new),
            call("execute_prepared_cql3_query", Cassandra.execute_prepared_cql3_query_args::new,
                    Cassandra.execute_prepared_cql3_query_result::new,
                    (h, a) -> h.execute_prepared_cql3_query(a.itemId, a.values, a.consistency))));

    private Cassandra20Calls() {
    }

    /** A method of CQL 2, which 3.11 no longer serves: every call of it is refused as 3.11 refuses it. */
    private static <A extends TBase<?, ?>> ThriftCalls.Call<Cassandra20Handler, A> cql2(
            String name, Supplier<A> args, Supplier<? extends TBase<?, ?>> result) {
        return now(name, args, result, (h, a) -> {
            throw Cassandra20Handler.cql2Removed();
        });
    }

    /** A method Sibyl does not serve yet: every call of it is refused, naming it. */
    private static <A extends TBase<?, ?>> ThriftCalls.Call<Cassandra20Handler, A> unserved(
            String name, Supplier<A> args, Supplier<? extends TBase<?, ?>> result) {
        return now(name, args, result, (h, a) -> {
            throw Cassandra20Handler.unserved(name);
        });
    }
}
