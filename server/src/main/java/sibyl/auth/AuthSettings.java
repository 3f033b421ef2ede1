package sibyl.auth;

import java.nio.file.Path;
import sibyl.config.ClassNames;

/**
 * Where SimpleAuthenticator finds its files and how passwords are stored. 0.6 took these
 * from the system properties passwd.properties, access.properties and passwd.mode; the
 * server's main reads them once and passes them in, defaulting to files beside storage-conf.xml.
 */
public record AuthSettings(Path passwdFile, Path accessFile, String passwordMode) {

    public static AuthSettings fromSystemProperties(Path confDir) {
        return new AuthSettings(
                path(System.getProperty("passwd.properties"), confDir.resolve("passwd.properties")),
                path(System.getProperty("access.properties"), confDir.resolve("access.properties")),
                System.getProperty("passwd.mode"));
    }

    private static Path path(String given, Path fallback) {
        return given == null || given.isEmpty() ? fallback : Path.of(given);
    }

    /** Builds the authenticator named by storage-conf.xml's Authenticator element. */
    public Authenticator authenticatorFor(String className) {
        if (ClassNames.SIMPLE_AUTHENTICATOR.equals(className)) {
            return new SimpleAuthenticator(passwdFile, accessFile, passwordMode);
        }
        if (ClassNames.ALLOW_ALL_AUTHENTICATOR.equals(className)) {
            return new AllowAllAuthenticator();
        }
        throw new IllegalArgumentException("unknown authenticator " + className);
    }
}
