package sibyl.thrift;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.cassandra.thrift.InvalidRequestException;
import org.apache.cassandra.thrift.NotFoundException;
import org.apache.cassandra.thrift.TimedOutException;
import org.apache.cassandra.thrift.UnavailableException;
import org.apache.thrift.TApplicationException;
import org.apache.thrift.TBase;
import org.apache.thrift.TException;
import org.apache.thrift.TProcessor;
import org.apache.thrift.protocol.TMessage;
import org.apache.thrift.protocol.TMessageType;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.protocol.TProtocolException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sibyl.service.AsyncFailures;
import sibyl.transport.DeferringProcessor;

/**
 * The 0.6 interface over a store that asks another server (cluster mode): the calls of one or a few rows start on
 * the network thread and are answered when the cluster has ({@link DeferringProcessor}); every other call is run by
 * the generated processor, on a worker. Answers are written as the generated processor writes them: the result
 * struct with the declared exception set, a TApplicationException as an EXCEPTION message, anything else as
 * INTERNAL_ERROR; arguments it cannot decode as PROTOCOL_ERROR.
 */
final class DeferringCassandraProcessor implements DeferringProcessor {
    private static final Logger log = LoggerFactory.getLogger(DeferringCassandraProcessor.class);

    /** Reads one deferred call's arguments (the message header already read) and starts it. */
    @FunctionalInterface
    private interface Starter {
        CompletionStage<Reply> start(DeferringCassandraProcessor p, TMessage message, TProtocol in)
                throws TException;
    }

    private static final Map<String, Starter> DEFERRED = Map.of(
            "get", DeferringCassandraProcessor::get,
            "get_slice", DeferringCassandraProcessor::getSlice,
            "multiget", DeferringCassandraProcessor::multiget,
            "multiget_slice", DeferringCassandraProcessor::multigetSlice,
            "insert", DeferringCassandraProcessor::insert,
            "batch_insert", DeferringCassandraProcessor::batchInsert,
            "remove", DeferringCassandraProcessor::remove,
            "batch_mutate", DeferringCassandraProcessor::batchMutate);

    private final CassandraHandler handler;
    private final TProcessor others;

    /** @param others runs the calls not deferred, on the same handler */
    DeferringCassandraProcessor(CassandraHandler handler, TProcessor others) {
        this.handler = handler;
        this.others = others;
    }

    @Override
    public boolean defers(String method) {
        return DEFERRED.containsKey(method);
    }

    @Override
    public void process(TProtocol in, TProtocol out) throws TException {
        others.process(in, out);
    }

    @Override
    public CompletionStage<Reply> start(TProtocol in) throws TException {
        TMessage message = in.readMessageBegin();
        Starter starter = DEFERRED.get(message.name);
        if (starter == null) throw new IllegalStateException("not a deferred method: " + message.name);
        try {
            return starter.start(this, message, in);
        } catch (TProtocolException e) {
            // As the generated processor answers arguments that do not decode (a required field missing).
            return CompletableFuture.completedFuture(out -> writeException(out, message,
                    new TApplicationException(TApplicationException.PROTOCOL_ERROR, e.getMessage())));
        }
    }

    private CompletionStage<Reply> get(TMessage message, TProtocol in) throws TException {
        Cassandra.get_args a = new Cassandra.get_args();
        read(a, in);
        Cassandra.get_result r = new Cassandra.get_result();
        return answer(message, r, () -> handler.getAsync(a.keyspace, a.key, a.column_path, a.consistency_level),
                r::setSuccess, failure -> {
                    if (failure instanceof NotFoundException e) {
                        r.setNfe(e);
                        return true;
                    }
                    return declared(failure, r::setIre, r::setUe, r::setTe);
                });
    }

    private CompletionStage<Reply> getSlice(TMessage message, TProtocol in) throws TException {
        Cassandra.get_slice_args a = new Cassandra.get_slice_args();
        read(a, in);
        Cassandra.get_slice_result r = new Cassandra.get_slice_result();
        return answer(message, r, () -> handler.getSliceAsync(a.keyspace, a.key, a.column_parent, a.predicate,
                a.consistency_level), r::setSuccess, failure -> declared(failure, r::setIre, r::setUe, r::setTe));
    }

    private CompletionStage<Reply> multiget(TMessage message, TProtocol in) throws TException {
        Cassandra.multiget_args a = new Cassandra.multiget_args();
        read(a, in);
        Cassandra.multiget_result r = new Cassandra.multiget_result();
        return answer(message, r, () -> handler.multigetAsync(a.keyspace, a.keys, a.column_path,
                a.consistency_level), r::setSuccess, failure -> declared(failure, r::setIre, r::setUe, r::setTe));
    }

    private CompletionStage<Reply> multigetSlice(TMessage message, TProtocol in) throws TException {
        Cassandra.multiget_slice_args a = new Cassandra.multiget_slice_args();
        read(a, in);
        Cassandra.multiget_slice_result r = new Cassandra.multiget_slice_result();
        return answer(message, r, () -> handler.multigetSliceAsync(a.keyspace, a.keys, a.column_parent,
                a.predicate, a.consistency_level), r::setSuccess,
                failure -> declared(failure, r::setIre, r::setUe, r::setTe));
    }

    private CompletionStage<Reply> insert(TMessage message, TProtocol in) throws TException {
        Cassandra.insert_args a = new Cassandra.insert_args();
        read(a, in);
        Cassandra.insert_result r = new Cassandra.insert_result();
        return answer(message, r, () -> handler.insertAsync(a.keyspace, a.key, a.column_path, a.value, a.timestamp,
                a.consistency_level), none -> { }, failure -> declared(failure, r::setIre, r::setUe, r::setTe));
    }

    private CompletionStage<Reply> batchInsert(TMessage message, TProtocol in) throws TException {
        Cassandra.batch_insert_args a = new Cassandra.batch_insert_args();
        read(a, in);
        Cassandra.batch_insert_result r = new Cassandra.batch_insert_result();
        return answer(message, r, () -> handler.batchInsertAsync(a.keyspace, a.key, a.cfmap, a.consistency_level),
                none -> { }, failure -> declared(failure, r::setIre, r::setUe, r::setTe));
    }

    private CompletionStage<Reply> remove(TMessage message, TProtocol in) throws TException {
        Cassandra.remove_args a = new Cassandra.remove_args();
        read(a, in);
        Cassandra.remove_result r = new Cassandra.remove_result();
        return answer(message, r, () -> handler.removeAsync(a.keyspace, a.key, a.column_path, a.timestamp,
                a.consistency_level), none -> { }, failure -> declared(failure, r::setIre, r::setUe, r::setTe));
    }

    private CompletionStage<Reply> batchMutate(TMessage message, TProtocol in) throws TException {
        Cassandra.batch_mutate_args a = new BatchMutateArgs();
        read(a, in);
        Cassandra.batch_mutate_result r = new Cassandra.batch_mutate_result();
        return answer(message, r, () -> handler.batchMutateAsync(a.keyspace, a.mutation_map, a.consistency_level),
                none -> { }, failure -> declared(failure, r::setIre, r::setUe, r::setTe));
    }

    private static void read(TBase<?, ?> args, TProtocol in) throws TException {
        args.read(in);
        in.readMessageEnd();
    }

    /** Starts a handler's call; its checks may refuse it at once. */
    @FunctionalInterface
    private interface Call<T> {
        CompletableFuture<T> start() throws TException;
    }

    /** Sets a declared exception on the result; false for an exception the method does not declare. */
    @FunctionalInterface
    private interface Declared {
        boolean set(Throwable failure);
    }

    private static boolean declared(Throwable failure, Consumer<InvalidRequestException> ire,
                                    Consumer<UnavailableException> ue, Consumer<TimedOutException> te) {
        if (failure instanceof InvalidRequestException e) {
            ire.accept(e);
        } else if (failure instanceof UnavailableException e) {
            ue.accept(e);
        } else if (failure instanceof TimedOutException e) {
            te.accept(e);
        } else {
            return false;
        }
        return true;
    }

    private static <T> CompletionStage<Reply> answer(TMessage message, TBase<?, ?> result, Call<T> call,
                                                     Consumer<T> success, Declared declared) {
        CompletableFuture<T> answer;
        try {
            answer = call.start();
        } catch (TException e) {
            answer = CompletableFuture.failedFuture(e);
        }
        return answer.handle((value, failure) -> {
            if (failure == null) {
                success.accept(value);
                return out -> writeReply(out, message, result);
            }
            Throwable cause = AsyncFailures.cause(failure);
            if (declared.set(cause)) return out -> writeReply(out, message, result);
            if (cause instanceof TApplicationException e) {
                log.error("Internal application error processing {}", message.name, e);
                return out -> writeException(out, message, e);
            }
            throw new CompletionException(cause); // an internal error: the transport answers INTERNAL_ERROR
        });
    }

    private static void writeReply(TProtocol out, TMessage call, TBase<?, ?> result) throws TException {
        out.writeMessageBegin(new TMessage(call.name, TMessageType.REPLY, call.seqid));
        result.write(out);
        out.writeMessageEnd();
    }

    private static void writeException(TProtocol out, TMessage call, TApplicationException e) throws TException {
        out.writeMessageBegin(new TMessage(call.name, TMessageType.EXCEPTION, call.seqid));
        e.write(out);
        out.writeMessageEnd();
    }
}
