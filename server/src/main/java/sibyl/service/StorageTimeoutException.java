package sibyl.service;

/**
 * The replicas did not answer a read or write in time; a write may or may not have been applied
 * (0.6's TimedOutException for a Thrift caller).
 */
public final class StorageTimeoutException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public StorageTimeoutException(String message, Throwable cause) {
        super(message, cause);
    }
}
