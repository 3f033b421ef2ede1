package sibyl.auth;

/** An authenticated user may not use a keyspace; the message is shown to the client as is. */
public final class AuthorizationFailure extends Exception {
    public AuthorizationFailure(String why) {
        super(why);
    }
}
