package sibyl.thrift;

import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.thrift.TException;

/**
 * The exceptions of one Thrift dialect that a storage failure or a late answer becomes: each dialect has its own
 * generated classes of the same names ({@link StorageFailures}).
 */
public final class ClientExceptions {
    private final Function<String, ? extends TException> invalidRequest;
    private final Supplier<? extends TException> unavailable;
    private final Supplier<? extends TException> timedOut;

    private ClientExceptions(Function<String, ? extends TException> invalidRequest,
                             Supplier<? extends TException> unavailable, Supplier<? extends TException> timedOut) {
        this.invalidRequest = invalidRequest;
        this.unavailable = unavailable;
        this.timedOut = timedOut;
    }

    /** A dialect's InvalidRequestException (given its why), UnavailableException and TimedOutException. */
    public static ClientExceptions of(Function<String, ? extends TException> invalidRequest,
                                      Supplier<? extends TException> unavailable,
                                      Supplier<? extends TException> timedOut) {
        return new ClientExceptions(invalidRequest, unavailable, timedOut);
    }

    /** InvalidRequestException with {@code why}. */
    public TException invalidRequest(String why) {
        return invalidRequest.apply(why);
    }

    /** UnavailableException: too few replicas answer. */
    public TException unavailable() {
        return unavailable.get();
    }

    /** TimedOutException: the answer came after RpcTimeoutInMillis. */
    public TException timedOut() {
        return timedOut.get();
    }
}
