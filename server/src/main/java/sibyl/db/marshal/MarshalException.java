package sibyl.db.marshal;

/**
 * A name that its comparator cannot accept. The message is the exact 0.6 text (for example
 * {@code A long is exactly 8 bytes}), because the Thrift layer passes it on to clients
 * verbatim inside an InvalidRequestException.
 */
public final class MarshalException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public MarshalException(String message) {
        super(message);
    }
}
