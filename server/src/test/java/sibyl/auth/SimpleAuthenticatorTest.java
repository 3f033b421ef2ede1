package sibyl.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SimpleAuthenticatorTest {
    @TempDir
    Path dir;

    private SimpleAuthenticator authenticator(String mode, String passwd) throws Exception {
        Path p = Files.writeString(dir.resolve("passwd.properties"), passwd);
        Path a = Files.writeString(dir.resolve("access.properties"),
                "Keyspace1=jsmith,Elvis Presley,dilbert\nOther=dilbert\n");
        return new SimpleAuthenticator(p, a, mode);
    }

    private static Map<String, String> creds(String user, String password) {
        return Map.of("username", user, "password", password);
    }

    @Test
    void plainPasswordsLogUsersIntoListedKeyspaces() throws Exception {
        SimpleAuthenticator auth = authenticator(null, "jsmith=havebadpass\nElvis\\ Presley=graceland4evar\n");
        assertEquals("jsmith", auth.login("Keyspace1", creds("jsmith", "havebadpass")));
        assertEquals("Elvis Presley", auth.login("Keyspace1", creds("Elvis Presley", "graceland4evar")));
    }

    @Test
    void wrongPasswordAndUnknownUserAreAuthenticationFailures() throws Exception {
        SimpleAuthenticator auth = authenticator("PLAIN", "jsmith=havebadpass\n");
        AuthenticationFailure wrong = assertThrows(AuthenticationFailure.class,
                () -> auth.login("Keyspace1", creds("jsmith", "nope")));
        assertEquals("Given password in password mode PLAIN could not be validated for user jsmith", wrong.getMessage());
        assertThrows(AuthenticationFailure.class, () -> auth.login("Keyspace1", creds("nobody", "x")));
    }

    @Test
    void md5ModeComparesTheDigestOfTheGivenPassword() throws Exception {
        // md5("havebadpass")
        SimpleAuthenticator auth = authenticator("MD5", "jsmith=" + md5("havebadpass") + "\n");
        assertEquals("jsmith", auth.login("Keyspace1", creds("jsmith", "havebadpass")));
        assertThrows(AuthenticationFailure.class, () -> auth.login("Keyspace1", creds("jsmith", md5("havebadpass"))));
    }

    @Test
    void missingCredentialKeysAreNamed() throws Exception {
        SimpleAuthenticator auth = authenticator(null, "jsmith=havebadpass\n");
        assertEquals("Authentication request was missing the required key 'username'",
                assertThrows(AuthenticationFailure.class, () -> auth.login("Keyspace1", Map.of("password", "x"))).getMessage());
        assertEquals("Authentication request was missing the required key 'password'",
                assertThrows(AuthenticationFailure.class, () -> auth.login("Keyspace1", Map.of("username", "x"))).getMessage());
    }

    @Test
    void badModeIsReportedToTheClient() throws Exception {
        SimpleAuthenticator auth = authenticator("SHA1", "jsmith=havebadpass\n");
        AuthenticationFailure f = assertThrows(AuthenticationFailure.class,
                () -> auth.login("Keyspace1", creds("jsmith", "havebadpass")));
        assertEquals(true, f.getMessage().contains("PLAIN, MD5"), f.getMessage());
    }

    @Test
    void unlistedUserOrKeyspaceIsAnAuthorizationFailure() throws Exception {
        SimpleAuthenticator auth = authenticator(null, "jsmith=havebadpass\ndilbert=nomoovertime\n");
        assertEquals("User jsmith could not be authorized to use keyspace Other",
                assertThrows(AuthorizationFailure.class, () -> auth.login("Other", creds("jsmith", "havebadpass"))).getMessage());
        assertThrows(AuthorizationFailure.class, () -> auth.login("Missing", creds("jsmith", "havebadpass")));
        auth.authorize("dilbert", "Other");
    }

    private static String md5(String s) throws Exception {
        return java.util.HexFormat.of().formatHex(
                java.security.MessageDigest.getInstance("MD5").digest(s.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    }
}
