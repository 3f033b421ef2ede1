package sibyl.auth;

import java.util.Map;

/**
 * Decides who a connection is and which keyspaces it may use. Implementations are
 * thread-safe; the per-connection login state lives with the connection, not here.
 */
public interface Authenticator {

    /** Whether data calls need a prior login at all (false only for allow-all). */
    boolean requiresLogin();

    /**
     * Checks credentials and access to {@code keyspace}.
     *
     * @return the name of the authenticated user
     */
    String login(String keyspace, Map<String, String> credentials)
            throws AuthenticationFailure, AuthorizationFailure;

    /** Checks that an already authenticated {@code user} may use {@code keyspace}. */
    void authorize(String user, String keyspace) throws AuthorizationFailure;
}
