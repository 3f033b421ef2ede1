package sibyl.client;

import java.net.SocketTimeoutException;
import org.apache.cassandra.thrift.AuthenticationException;
import org.apache.cassandra.thrift.AuthorizationException;
import org.apache.cassandra.thrift.InvalidRequestException;
import org.apache.cassandra.thrift.NotFoundException;
import org.apache.cassandra.thrift.TimedOutException;
import org.apache.cassandra.thrift.UnavailableException;
import org.apache.thrift.TApplicationException;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TProtocolException;
import org.apache.thrift.transport.TTransportException;

/**
 * A failed call, with what was being done, the kind of failure, and the server's own
 * explanation ({@link #why()}) when it gave one. The Thrift exception is kept as the cause.
 */
public class ClientException extends RuntimeException {

    /** What went wrong, coarsely: enough to decide whether to retry, fix the request, or give up. */
    public enum Kind {
        /** No connection could be made, or it broke during the call. */
        CONNECTION("connection failed"),
        /** The reply did not arrive within the client's read timeout; the connection was dropped. */
        READ_TIMEOUT("no reply in time"),
        /** The server refused the request (InvalidRequestException). */
        INVALID_REQUEST("invalid request"),
        /** The requested column or super column does not exist (NotFoundException). */
        NOT_FOUND("not found"),
        /** Not enough replicas were alive for the consistency level (UnavailableException). */
        UNAVAILABLE("unavailable"),
        /** The replicas did not answer within the server's RPC timeout (TimedOutException). */
        SERVER_TIMEOUT("timed out on the server"),
        /** Login was refused: unknown user or wrong password (AuthenticationException). */
        AUTHENTICATION("authentication failed"),
        /** The user may not use the keyspace (AuthorizationException). */
        AUTHORIZATION("authorization failed"),
        /** The server failed internally or did not know the method (TApplicationException). */
        SERVER_ERROR("server error"),
        /** The request could not be encoded, or the reply not decoded. */
        PROTOCOL("protocol error");

        private final String description;

        Kind(String description) {
            this.description = description;
        }

        public String description() {
            return description;
        }
    }

    private final Kind kind;
    private final String operation;
    private final String why;

    public ClientException(Kind kind, String operation, String why, Throwable cause) {
        super(operation + ": " + kind.description() + (why == null || why.isEmpty() ? "" : ": " + why), cause);
        this.kind = kind;
        this.operation = operation;
        this.why = why;
    }

    public Kind kind() {
        return kind;
    }

    /** The call or step that failed, e.g. {@code insert into Keyspace1.Standard1}. */
    public String operation() {
        return operation;
    }

    /** The server's reason (the {@code why} of the Thrift exception), or a description of the local failure. */
    public String why() {
        return why;
    }

    /** Whether the connection is unusable after this failure and must be reopened. */
    public boolean brokeConnection() {
        return kind == Kind.CONNECTION || kind == Kind.READ_TIMEOUT || kind == Kind.PROTOCOL;
    }

    /** A failed socket operation of a call to {@code host}, as a connection failure. */
    public static ClientException wrapIo(String operation, java.io.IOException e, HostAddress host) {
        return new ClientException(Kind.CONNECTION, operation, host + ": " + e.getMessage(), e);
    }

    /** Translates any exception a generated client method can throw; {@code host} is where it was sent. */
    public static ClientException wrap(String operation, Exception e, HostAddress host) {
        if (e instanceof ClientException ce) {
            return ce;
        }
        if (e instanceof InvalidRequestException ire) {
            return new ClientException(Kind.INVALID_REQUEST, operation, ire.getWhy(), e);
        }
        if (e instanceof NotFoundException) {
            return new ClientException(Kind.NOT_FOUND, operation, null, e);
        }
        if (e instanceof UnavailableException) {
            return new ClientException(Kind.UNAVAILABLE, operation, null, e);
        }
        if (e instanceof TimedOutException) {
            return new ClientException(Kind.SERVER_TIMEOUT, operation, null, e);
        }
        if (e instanceof AuthenticationException ae) {
            return new ClientException(Kind.AUTHENTICATION, operation, ae.getWhy(), e);
        }
        if (e instanceof AuthorizationException ae) {
            return new ClientException(Kind.AUTHORIZATION, operation, ae.getWhy(), e);
        }
        if (e instanceof TApplicationException ae) {
            return new ClientException(Kind.SERVER_ERROR, operation, ae.getMessage(), e);
        }
        if (e instanceof TTransportException te) {
            if (isTimeout(te)) {
                return new ClientException(Kind.READ_TIMEOUT, operation, "no reply from " + host, e);
            }
            String detail = te.getCause() != null && te.getCause().getMessage() != null
                    ? te.getCause().getMessage() : te.getMessage();
            return new ClientException(Kind.CONNECTION, operation,
                    host + (detail == null ? "" : ": " + detail), e);
        }
        if (e instanceof TProtocolException || e instanceof TException) {
            return new ClientException(Kind.PROTOCOL, operation, e.getMessage(), e);
        }
        return new ClientException(Kind.PROTOCOL, operation, String.valueOf(e), e);
    }

    private static boolean isTimeout(TTransportException e) {
        if (e.getType() == TTransportException.TIMED_OUT) {
            return true;
        }
        for (Throwable t = e.getCause(); t != null; t = t.getCause()) {
            if (t instanceof SocketTimeoutException) {
                return true;
            }
        }
        return false;
    }
}
