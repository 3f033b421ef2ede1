package sibyl.thrift;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.thrift.ProcessFunction;
import org.apache.thrift.TApplicationException;
import org.apache.thrift.TBase;
import org.apache.thrift.TException;
import org.apache.thrift.TFieldIdEnum;
import org.apache.thrift.meta_data.FieldMetaData;
import org.apache.thrift.meta_data.StructMetaData;
import org.apache.thrift.protocol.TMessage;
import org.apache.thrift.protocol.TMessageType;
import org.apache.thrift.protocol.TProtocol;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sibyl.service.AsyncFailures;
import sibyl.transport.DeferringProcessor;

/**
 * Every method of the 0.6 interface, by name: the generated struct its arguments decode into, the handler's call
 * for them, and where the answer goes in the generated result struct (the success field, and the field of each
 * declared exception, both found from the struct's field metadata). The one place where the handler's answer,
 * a future, meets the wire: {@link #functions} waits for it on the thread that runs the call and answers as the
 * generated processor answers; {@link #start} answers it when it completes, on whichever thread
 * ({@link DeferringCassandraProcessor}). A method added to the interface is one line here and its call in
 * {@link CassandraHandler}.
 */
final class CassandraCalls {
    private static final Logger log = LoggerFactory.getLogger(DeferringCassandraProcessor.class);

    /** The handler's call for decoded arguments; a refusal of its checks may be thrown at once. */
    @FunctionalInterface
    private interface Invocation<A> {
        CompletableFuture<?> start(CassandraHandler handler, A args) throws TException;
    }

    /** The calls that describe the node, and login: answered at once. */
    @FunctionalInterface
    private interface Answer<A> {
        Object answer(CassandraHandler handler, A args) throws TException;
    }

    private static final Map<String, Call<?>> CALLS = table();

    private static Map<String, Call<?>> table() {
        List<Call<?>> calls = List.of(
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
                        (h, a) -> h.describe_splits(a.start_token, a.end_token, a.keys_per_split)));
        Map<String, Call<?>> byName = new HashMap<>();
        for (Call<?> c : calls) byName.put(c.name, c);
        return Map.copyOf(byName);
    }

    private CassandraCalls() {
    }

    private static <A extends TBase<?, ?>> Call<A> call(String name, Supplier<A> args,
                                                         Supplier<? extends TBase<?, ?>> result,
                                                         Invocation<A> invocation) {
        return new Call<>(name, args, result, invocation);
    }

    private static <A extends TBase<?, ?>> Call<A> now(String name, Supplier<A> args,
                                                        Supplier<? extends TBase<?, ?>> result, Answer<A> answer) {
        return new Call<>(name, args, result, (h, a) -> CompletableFuture.completedFuture(answer.answer(h, a)));
    }

    /**
     * What runs each method on the thread that read it, waiting for the handler's answer: the generated
     * processor's functions, with the handler's calls. Stateless, so every connection's processor shares them.
     */
    static Map<String, ProcessFunction<CassandraHandler, ? extends TBase>> functions() {
        Map<String, ProcessFunction<CassandraHandler, ? extends TBase>> functions = new HashMap<>();
        for (Call<?> c : CALLS.values()) functions.put(c.name, c.function());
        return Map.copyOf(functions);
    }

    /** Whether the interface has a method of this name. */
    static boolean exists(String method) {
        return CALLS.containsKey(method);
    }

    /**
     * Reads the arguments of the call of {@code message} (its header already read) and starts it, answering when
     * the handler's answer comes: the result struct with the success or declared exception set, a
     * TApplicationException as an EXCEPTION message, arguments that do not decode as PROTOCOL_ERROR, as the
     * generated processor answers; anything else fails the stage (INTERNAL_ERROR, by the transport).
     */
    static CompletionStage<DeferringProcessor.Reply> start(CassandraHandler handler, TMessage message, TProtocol in)
            throws TException {
        Call<?> call = CALLS.get(message.name);
        if (call == null) throw new IllegalStateException("not a method of the interface: " + message.name);
        return call.startDeferred(handler, message, in);
    }

    /**
     * The answer of a future the handler gave, as the call it stands for would have thrown it: the client's
     * exception, or an internal failure as it is.
     */
    private static <T> T await(CompletableFuture<T> answer) throws TException {
        try {
            return answer.join();
        } catch (CompletionException | CancellationException e) {
            Throwable cause = AsyncFailures.cause(e);
            if (cause instanceof TException t) throw t;
            if (cause instanceof RuntimeException r) throw r;
            if (cause instanceof Error err) throw err;
            throw e;
        }
    }

    /** One method: its structs and the handler's call. */
    private static final class Call<A extends TBase<?, ?>> {
        private final String name;
        private final Supplier<A> emptyArgs;
        private final Supplier<? extends TBase<?, ?>> emptyResult;
        private final Invocation<A> invocation;
        /** The result's success field; null for a method that returns nothing. */
        private final TFieldIdEnum success;
        /** The result's fields of declared exceptions, each with its exception's class. */
        private final List<Map.Entry<TFieldIdEnum, Class<?>>> declared = new ArrayList<>();

        Call(String name, Supplier<A> emptyArgs, Supplier<? extends TBase<?, ?>> emptyResult,
             Invocation<A> invocation) {
            this.name = name;
            this.emptyArgs = emptyArgs;
            this.emptyResult = emptyResult;
            this.invocation = invocation;
            TBase<?, ?> result = emptyResult.get(); // loads the class, which registers its metadata
            this.success = result.fieldForId(0);
            Map<? extends TFieldIdEnum, FieldMetaData> fields = FieldMetaData.getStructMetaDataMap(result.getClass());
            for (Map.Entry<? extends TFieldIdEnum, FieldMetaData> f : fields.entrySet()) {
                if (f.getKey().getThriftFieldId() != 0 && f.getValue().valueMetaData instanceof StructMetaData s) {
                    declared.add(Map.entry(f.getKey(), s.structClass));
                }
            }
        }

        /** The result with the answer set; false when {@code failure} is no exception the method declares. */
        @SuppressWarnings({"unchecked", "rawtypes"})
        private boolean declare(TBase result, Throwable failure) {
            for (Map.Entry<TFieldIdEnum, Class<?>> d : declared) {
                if (d.getValue().isInstance(failure)) {
                    result.setFieldValue(d.getKey(), failure);
                    return true;
                }
            }
            return false;
        }

        @SuppressWarnings({"unchecked", "rawtypes"})
        private void succeed(TBase result, Object value) {
            if (success != null) result.setFieldValue(success, value);
        }

        ProcessFunction<CassandraHandler, A> function() {
            return new ProcessFunction<>(name) {
                @Override
                public A getEmptyArgsInstance() {
                    return emptyArgs.get();
                }

                @Override
                protected boolean isOneway() {
                    return false;
                }

                @Override
                protected boolean rethrowUnhandledExceptions() {
                    return false;
                }

                @Override
                public TBase getResult(CassandraHandler handler, A args) throws TException {
                    TBase<?, ?> result = emptyResult.get();
                    try {
                        succeed(result, await(invocation.start(handler, args)));
                    } catch (TException e) {
                        if (!declare(result, e)) throw e;
                    }
                    return result;
                }
            };
        }

        CompletionStage<DeferringProcessor.Reply> startDeferred(CassandraHandler handler, TMessage message,
                                                                TProtocol in) throws TException {
            A args = emptyArgs.get();
            args.read(in);
            in.readMessageEnd();
            CompletableFuture<?> answer;
            try {
                answer = invocation.start(handler, args);
            } catch (TException e) {
                answer = CompletableFuture.failedFuture(e);
            }
            return answer.handle((value, failure) -> {
                TBase<?, ?> result = emptyResult.get();
                if (failure == null) {
                    succeed(result, value);
                    return out -> writeReply(out, message, result);
                }
                Throwable cause = AsyncFailures.cause(failure);
                if (declare(result, cause)) return out -> writeReply(out, message, result);
                if (cause instanceof TApplicationException e) {
                    log.error("Internal application error processing {}", message.name, e);
                    return out -> writeException(out, message, e);
                }
                throw new CompletionException(cause); // an internal error: the transport answers INTERNAL_ERROR
            });
        }
    }

    static void writeReply(TProtocol out, TMessage call, TBase<?, ?> result) throws TException {
        out.writeMessageBegin(new TMessage(call.name, TMessageType.REPLY, call.seqid));
        result.write(out);
        out.writeMessageEnd();
    }

    static void writeException(TProtocol out, TMessage call, TApplicationException e) throws TException {
        out.writeMessageBegin(new TMessage(call.name, TMessageType.EXCEPTION, call.seqid));
        e.write(out);
        out.writeMessageEnd();
    }
}
