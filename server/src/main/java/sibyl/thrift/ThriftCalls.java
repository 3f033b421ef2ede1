package sibyl.thrift;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;
import org.apache.thrift.ProcessFunction;
import org.apache.thrift.TApplicationException;
import org.apache.thrift.TBase;
import org.apache.thrift.TBaseProcessor;
import org.apache.thrift.TException;
import org.apache.thrift.TFieldIdEnum;
import org.apache.thrift.TProcessor;
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
 * Every method of one Thrift dialect, by name: the generated struct its arguments decode into, the handler's call
 * for them, and where the answer goes in the generated result struct (the success field, and the field of each
 * declared exception, both found from the struct's field metadata). The one place where a handler's answer, a
 * future, meets the wire: {@link #functions} waits for it on the thread that runs the call and answers as the
 * generated processor answers; {@link #start} answers it when it completes, on whichever thread
 * ({@link DeferringCassandraProcessor}). Each dialect lists its methods once ({@link CassandraCalls} for 0.6); the
 * table knows nothing of what they mean.
 *
 * @param <H> the per-connection handler of the dialect
 */
public final class ThriftCalls<H> {
    private static final Logger log = LoggerFactory.getLogger(DeferringCassandraProcessor.class);

    /** The handler's call for decoded arguments; a refusal of its checks may be thrown at once. */
    @FunctionalInterface
    public interface Invocation<H, A> {
        CompletableFuture<?> start(H handler, A args) throws TException;
    }

    /** A call answered at once (describe calls, login). */
    @FunctionalInterface
    public interface Answer<H, A> {
        Object answer(H handler, A args) throws TException;
    }

    private final Map<String, Call<H, ?>> calls;
    private final Map<String, ProcessFunction<H, ? extends TBase>> functions;

    public ThriftCalls(List<Call<H, ?>> calls) {
        Map<String, Call<H, ?>> byName = new HashMap<>();
        Map<String, ProcessFunction<H, ? extends TBase>> byNameFunctions = new HashMap<>();
        for (Call<H, ?> c : calls) {
            if (byName.put(c.name, c) != null) throw new IllegalArgumentException("two calls named " + c.name);
            byNameFunctions.put(c.name, c.function());
        }
        this.calls = Map.copyOf(byName);
        this.functions = Map.copyOf(byNameFunctions);
    }

    /** A call whose answer may come later. */
    public static <H, A extends TBase<?, ?>> Call<H, A> call(String name, Supplier<A> args,
                                                            Supplier<? extends TBase<?, ?>> result,
                                                            Invocation<H, A> invocation) {
        return new Call<>(name, args, result, invocation);
    }

    /** A call answered at once. */
    public static <H, A extends TBase<?, ?>> Call<H, A> now(String name, Supplier<A> args,
                                                           Supplier<? extends TBase<?, ?>> result,
                                                           Answer<H, A> answer) {
        return new Call<>(name, args, result, (h, a) -> CompletableFuture.completedFuture(answer.answer(h, a)));
    }

    /**
     * What runs each method on the thread that read it, waiting for the handler's answer: the generated
     * processor's functions, with the handler's calls. Stateless, so every connection's processor shares them.
     */
    public Map<String, ProcessFunction<H, ? extends TBase>> functions() {
        return functions;
    }

    /** Whether the dialect has a method of this name. */
    public boolean exists(String method) {
        return calls.containsKey(method);
    }

    /** What the generated processor is (it adds nothing to TBaseProcessor but its map of functions), with ours. */
    public TProcessor processor(H handler) {
        return new TBaseProcessor<H>(handler, functions) {
        };
    }

    /**
     * The processor of one connection's {@code handler}: when {@code deferring} (a store that asks another server),
     * the calls of a few rows ({@code deferred}) are started on the network thread and answered later, holding no
     * thread meanwhile; all others, and all calls otherwise, run on the thread given them.
     */
    public TProcessor connectionProcessor(H handler, Set<String> deferred, boolean deferring) {
        TProcessor processor = processor(handler);
        return deferring ? new DeferringCassandraProcessor<>(handler, this, deferred, processor) : processor;
    }

    /**
     * Reads the arguments of the call of {@code message} (its header already read) and starts it, answering when
     * the handler's answer comes: the result struct with the success or declared exception set, a
     * TApplicationException as an EXCEPTION message, arguments that do not decode as PROTOCOL_ERROR, as the
     * generated processor answers; anything else fails the stage (INTERNAL_ERROR, by the transport).
     */
    public CompletionStage<DeferringProcessor.Reply> start(H handler, TMessage message, TProtocol in)
            throws TException {
        Call<H, ?> call = calls.get(message.name);
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
    public static final class Call<H, A extends TBase<?, ?>> {
        private final String name;
        private final Supplier<A> emptyArgs;
        private final Supplier<? extends TBase<?, ?>> emptyResult;
        private final Invocation<H, A> invocation;
        /** The result's success field; null for a method that returns nothing. */
        private final TFieldIdEnum success;
        /** The result's fields of declared exceptions, each with its exception's class. */
        private final List<Map.Entry<TFieldIdEnum, Class<?>>> declared = new ArrayList<>();

        private Call(String name, Supplier<A> emptyArgs, Supplier<? extends TBase<?, ?>> emptyResult,
                     Invocation<H, A> invocation) {
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

        private ProcessFunction<H, A> function() {
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
                public TBase getResult(H handler, A args) throws TException {
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

        private CompletionStage<DeferringProcessor.Reply> startDeferred(H handler, TMessage message, TProtocol in)
                throws TException {
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
