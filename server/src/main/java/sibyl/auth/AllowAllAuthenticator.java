package sibyl.auth;

import java.util.Map;

/** Lets everyone in, as 0.6's default authenticator did: login always succeeds. */
public final class AllowAllAuthenticator implements Authenticator {
    @Override
    public boolean requiresLogin() {
        return false;
    }

    @Override
    public String authenticate(Map<String, String> credentials) {
        String user = credentials == null ? null : credentials.get("username");
        return user == null ? "anonymous" : user;
    }

    @Override
    public void authorize(String user, String keyspace) {
    }
}
