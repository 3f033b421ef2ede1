package sibyl.thrift20;

import sibyl.iface.v20.InvalidRequestException;
import sibyl.iface.v20.TimedOutException;
import sibyl.iface.v20.UnavailableException;
import sibyl.thrift.ClientExceptions;

/** The 0.7+ dialect's exceptions, for the storage failures and deadlines shared with the 0.6 interface. */
final class V20Exceptions {
    static final ClientExceptions DIALECT = ClientExceptions.of(InvalidRequestException::new,
            UnavailableException::new, TimedOutException::new);

    private V20Exceptions() {
    }
}
