package sibyl.thrift;

import org.apache.thrift.TException;

/**
 * The exceptions of one Thrift dialect that a storage failure or a late answer becomes: each dialect has its own
 * generated classes of the same names ({@link StorageFailures}).
 */
public interface ClientExceptions {
    /** InvalidRequestException with {@code why}. */
    TException invalidRequest(String why);

    /** UnavailableException: too few replicas answer. */
    TException unavailable();

    /** TimedOutException: the answer came after RpcTimeoutInMillis. */
    TException timedOut();
}
