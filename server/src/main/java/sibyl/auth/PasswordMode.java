package sibyl.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** How passwd.properties stores passwords: as given (PLAIN) or as the hex MD5 of the password. */
public enum PasswordMode {
    PLAIN {
        @Override
        boolean matches(String stored, String given) {
            return MessageDigest.isEqual(bytes(stored), bytes(given));
        }
    },
    MD5 {
        @Override
        boolean matches(String stored, String given) {
            try {
                byte[] digest = MessageDigest.getInstance("MD5").digest(bytes(given));
                return MessageDigest.isEqual(bytes(stored.trim().toLowerCase()),
                        bytes(HexFormat.of().formatHex(digest)));
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("the JDK lacks MD5", e);
            }
        }
    };

    abstract boolean matches(String stored, String given);

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Parses the passwd.mode setting, naming the valid values when it is wrong. */
    public static PasswordMode parse(String text) {
        if (text == null || text.isEmpty()) return PLAIN;
        for (PasswordMode m : values()) {
            if (m.name().equals(text)) return m;
        }
        throw new IllegalArgumentException("The requested password check mode '" + text
                + "' is not a valid mode. Possible values are PLAIN, MD5");
    }
}
