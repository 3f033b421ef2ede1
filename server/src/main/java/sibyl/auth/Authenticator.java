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
     * Checks credentials alone, as a 0.7+ client's login before it names a keyspace; its keyspaces are checked as
     * it uses them ({@link #authorize}).
     *
     * @return the name of the authenticated user
     */
    String authenticate(Map<String, String> credentials) throws AuthenticationFailure;

    /**
     * Checks credentials and access to {@code keyspace}, as a 0.6 login (which names its keyspace) does.
     *
     * @return the name of the authenticated user
     */
    default String login(String keyspace, Map<String, String> credentials)
            throws AuthenticationFailure, AuthorizationFailure {
        String user = authenticate(credentials);
        authorize(user, keyspace);
        return user;
    }

    /** Checks that an already authenticated {@code user} may use {@code keyspace}. */
    void authorize(String user, String keyspace) throws AuthorizationFailure;
}
