package sibyl.service;

/**
 * Too few replicas are alive for the consistency level asked for: nothing was attempted (0.6's
 * UnavailableException for a Thrift caller).
 */
public final class UnavailableReplicasException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public UnavailableReplicasException(String message, Throwable cause) {
        super(message, cause);
    }
}
