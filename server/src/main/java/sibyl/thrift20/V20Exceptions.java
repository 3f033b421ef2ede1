package sibyl.thrift20;

import sibyl.iface.v20.InvalidRequestException;
import sibyl.iface.v20.TimedOutException;
import sibyl.iface.v20.UnavailableException;
import sibyl.thrift.ClientExceptions;

/** The 0.7+ dialect's exceptions, for the checks and storage failures shared with the 0.6 interface. */
final class V20Exceptions {
    static final ClientExceptions DIALECT = ClientExceptions.of(InvalidRequestException::new,
            UnavailableException::new, TimedOutException::new);

    private V20Exceptions() {
    }

    /** A check shared with the 0.6 interface, whose refusal has the same text in both dialects. */
    @FunctionalInterface
    interface SharedCheck {
        void run() throws org.apache.cassandra.thrift.InvalidRequestException;
    }

    /** Runs {@code check}, refusing as this dialect refuses. */
    static void shared(SharedCheck check) throws InvalidRequestException {
        try {
            check.run();
        } catch (org.apache.cassandra.thrift.InvalidRequestException e) {
            throw new InvalidRequestException(e.getWhy());
        }
    }
}
