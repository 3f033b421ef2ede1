package sibyl.db;

/**
 * A request the schema cannot answer: an unknown keyspace or column family, or a path of the
 * wrong shape for the column family's type. The message uses 0.6's text where 0.6 has one, so a
 * front end may pass it on as an InvalidRequestException (it should validate first anyway).
 */
public final class InvalidQueryException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public InvalidQueryException(String message) {
        super(message);
    }
}
