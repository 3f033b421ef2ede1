package sibyl.thrift20;

import org.apache.thrift.TException;
import sibyl.iface.v20.InvalidRequestException;
import sibyl.iface.v20.TimedOutException;
import sibyl.iface.v20.UnavailableException;
import sibyl.thrift.ClientExceptions;

/** The 0.7+ dialect's exceptions, for the checks and storage failures shared with the 0.6 interface. */
final class V20Exceptions implements ClientExceptions {
    static final V20Exceptions INSTANCE = new V20Exceptions();

    private V20Exceptions() {
    }

    @Override
    public TException invalidRequest(String why) {
        return new InvalidRequestException(why);
    }

    @Override
    public TException unavailable() {
        return new UnavailableException();
    }

    @Override
    public TException timedOut() {
        return new TimedOutException();
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
