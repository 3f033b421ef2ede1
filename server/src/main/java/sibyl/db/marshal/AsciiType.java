package sibyl.db.marshal;

import java.nio.charset.StandardCharsets;

/**
 * Byte order, like {@link BytesType}. Validates nothing: in 0.6 decoding as US-ASCII silently
 * replaces non-ASCII bytes, so every name is accepted whatever the sample config says.
 */
public final class AsciiType extends BytesType {
    public static final AsciiType instance = new AsciiType();

    private AsciiType() {
    }

    @Override
    public String getString(byte[] name) {
        return new String(name, StandardCharsets.US_ASCII);
    }
}
