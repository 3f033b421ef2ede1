package sibyl.thrift;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Calls refused by authentication and access control since start, over all connections: logins
 * with credentials the authenticator does not accept, logins and data calls naming a keyspace the
 * user may not use, and data calls on a connection not logged in while login is required.
 */
public final class AuthRefusals {
    private final AtomicLong badCredentials = new AtomicLong();
    private final AtomicLong noAccess = new AtomicLong();
    private final AtomicLong notLoggedIn = new AtomicLong();

    /** Logins refused with AuthenticationException: unknown user or wrong password. */
    public long badCredentials() {
        return badCredentials.get();
    }

    /** Logins and data calls refused because the user may not use the keyspace. */
    public long noAccess() {
        return noAccess.get();
    }

    /** Data calls refused because the connection has not logged in. */
    public long notLoggedIn() {
        return notLoggedIn.get();
    }

    public void badCredentialsRefused() {
        badCredentials.incrementAndGet();
    }

    public void noAccessRefused() {
        noAccess.incrementAndGet();
    }

    public void notLoggedInRefused() {
        notLoggedIn.incrementAndGet();
    }
}
