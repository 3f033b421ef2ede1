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

    /** 3.11 refuses what 0.6 took: a byte above 127. */
    @Override
    public void conform(java.nio.ByteBuffer value) {
        for (int i = value.position(); i < value.limit(); i++) {
            if (value.get(i) < 0) throw new MarshalException("Invalid byte for ascii: " + value.get(i));
        }
    }

    @Override
    public String getString(byte[] name) {
        return new String(name, StandardCharsets.US_ASCII);
    }
}
