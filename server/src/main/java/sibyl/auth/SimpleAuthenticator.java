package sibyl.auth;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;

/**
 * 0.6's SimpleAuthenticator: users and passwords in passwd.properties (user=password),
 * keyspace access in access.properties (keyspace=user1,user2). Both files are read on
 * every check, as in 0.6, so an operator can edit them without a restart.
 *
 * <p>Where 0.6 failed with an internal error (unknown user, keyspace not listed, files
 * missing) this answers with an authentication or authorization failure that says why.
 */
public final class SimpleAuthenticator implements Authenticator {
    static final String USERNAME_KEY = "username";
    static final String PASSWORD_KEY = "password";

    private final Path passwdFile;
    private final Path accessFile;
    private final String modeText;

    /**
     * @param modeText the passwd.mode setting as given (PLAIN, MD5, or null for PLAIN);
     *                 checked at each login, as 0.6 did, so a bad value is reported to the client
     */
    public SimpleAuthenticator(Path passwdFile, Path accessFile, String modeText) {
        this.passwdFile = passwdFile;
        this.accessFile = accessFile;
        this.modeText = modeText;
    }

    @Override
    public boolean requiresLogin() {
        return true;
    }

    @Override
    public String authenticate(Map<String, String> credentials) throws AuthenticationFailure {
        String user = required(credentials, USERNAME_KEY);
        String password = required(credentials, PASSWORD_KEY);
        PasswordMode mode;
        try {
            mode = PasswordMode.parse(modeText);
        } catch (IllegalArgumentException e) {
            throw new AuthenticationFailure(e.getMessage());
        }
        String stored = load(passwdFile, "passwd.properties").getProperty(user);
        if (stored == null || !mode.matches(stored, password)) {
            // One answer for unknown users and wrong passwords: no probing for user names.
            throw new AuthenticationFailure("Given password in password mode " + mode
                    + " could not be validated for user " + user);
        }
        return user;
    }

    @Override
    public void authorize(String user, String keyspace) throws AuthorizationFailure {
        Properties access;
        try {
            access = load(accessFile, "access.properties");
        } catch (AuthenticationFailure e) {
            throw new AuthorizationFailure(e.getMessage());
        }
        String users = access.getProperty(keyspace);
        if (users != null) {
            for (String allowed : users.split(",")) {
                if (allowed.trim().equals(user)) return;
            }
        }
        throw new AuthorizationFailure("User " + user + " could not be authorized to use keyspace " + keyspace);
    }

    private static String required(Map<String, String> credentials, String key) throws AuthenticationFailure {
        String value = credentials == null ? null : credentials.get(key);
        if (value == null) {
            throw new AuthenticationFailure("Authentication request was missing the required key '" + key + "'");
        }
        return value;
    }

    private static Properties load(Path file, String what) throws AuthenticationFailure {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(r);
        } catch (IOException e) {
            // The path is safe to show; the contents never are.
            throw new AuthenticationFailure("cannot read " + what + " at " + file + ": " + e.getClass().getSimpleName());
        }
        return p;
    }
}
