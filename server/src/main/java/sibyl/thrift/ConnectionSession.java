package sibyl.thrift;

import java.util.HashSet;
import java.util.Set;
import sibyl.auth.AuthorizationFailure;
import sibyl.auth.Authenticator;

/**
 * The login state of one client connection. 0.6 kept it per worker thread and, from 0.6.3,
 * forgot it when the connection ended; here it lives with the connection and dies with it.
 * Calls on one connection are served one at a time, but not always on the same thread, so
 * the fields are guarded by this object's lock.
 */
public final class ConnectionSession {
    private final Authenticator authenticator;
    private String user;
    private final Set<String> authorizedKeyspaces = new HashSet<>();

    public ConnectionSession(Authenticator authenticator) {
        this.authenticator = authenticator;
    }

    public synchronized void loggedIn(String user, String keyspace) {
        if (!user.equals(this.user)) authorizedKeyspaces.clear();
        this.user = user;
        authorizedKeyspaces.add(keyspace);
    }

    /** A login that named no keyspace (0.7+): the keyspaces are authorized as the connection uses them. */
    public synchronized void loggedIn(String user) {
        if (!user.equals(this.user)) authorizedKeyspaces.clear();
        this.user = user;
    }

    public synchronized void clear() {
        user = null;
        authorizedKeyspaces.clear();
    }

    /** Null when the connection may proceed; otherwise 0.6's refusal text. */
    public synchronized String loginProblem() {
        return mustLogIn() ? "Login is required before any other API calls" : null;
    }

    /** Whether data calls are refused until the connection logs in. */
    public synchronized boolean mustLogIn() {
        return authenticator.requiresLogin() && user == null;
    }

    /** Checks that the logged-in user may use {@code keyspace}, remembering a positive answer. */
    public synchronized void authorize(String keyspace) throws AuthorizationFailure {
        if (!authenticator.requiresLogin() || authorizedKeyspaces.contains(keyspace)) return;
        authenticator.authorize(user, keyspace);
        authorizedKeyspaces.add(keyspace);
    }
}
