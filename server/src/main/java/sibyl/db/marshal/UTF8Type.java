package sibyl.db.marshal;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Byte order (which for valid UTF-8 is code point order, as in 0.6.4+) and strict validation:
 * overlong forms, encoded surrogates, truncated sequences and code points past U+10FFFF are all
 * refused with {@code invalid UTF8 bytes [..]}, listing the bytes as Java signed values.
 */
public final class UTF8Type extends BytesType {
    public static final UTF8Type instance = new UTF8Type();

    private UTF8Type() {
    }

    @Override
    public String getString(byte[] name) {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(name))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new MarshalException("invalid UTF8 bytes " + Arrays.toString(name));
        }
    }

    @Override
    public void conform(ByteBuffer value) {
        try {
            validate(value);
        } catch (MarshalException e) {
            throw new MarshalException("String didn't validate.");
        }
    }

    /** Unlike the byte order it inherits, not every name is valid: decoding tells. */
    @Override
    public void validate(byte[] name) throws MarshalException {
        getString(name);
    }
}
