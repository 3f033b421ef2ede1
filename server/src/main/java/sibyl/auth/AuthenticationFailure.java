package sibyl.auth;

/** Credentials were malformed or did not match; the message is shown to the client as is. */
public final class AuthenticationFailure extends Exception {
    public AuthenticationFailure(String why) {
        super(why);
    }
}
