package sibyl.db.marshal;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Arbitrary-precision decimals: a 4-byte big-endian scale, then the unscaled value as an {@link IntegerType} (or
 * empty), in numeric order, where 1.0 and 1.00 are equal names.
 */
public final class DecimalType extends UniformlyCheckedType {
    public static final DecimalType instance = new DecimalType();

    private DecimalType() {
    }

    @Override
    public int compare(byte[] a, byte[] b) {
        int e = compareEmpty(a, b);
        return e != 2 ? e : value(a).compareTo(value(b));
    }

    @Override
    public void conform(ByteBuffer value) {
        int length = value.remaining();
        if (length != 0 && length < 4) throw new MarshalException("Expected 0 or at least 4 bytes (" + length + ")");
    }

    @Override
    public String getString(byte[] name) {
        validate(name);
        return name.length == 0 ? "" : value(name).toString();
    }

    /** A value of 4 bytes has no unscaled digits: zero, as far as ordering goes. */
    private static BigDecimal value(byte[] bytes) {
        int scale = (int) FixedSizeType.signed(Arrays.copyOf(bytes, 4));
        BigInteger unscaled = bytes.length == 4 ? BigInteger.ZERO : new BigInteger(bytes, 4, bytes.length - 4);
        return new BigDecimal(unscaled, scale);
    }
}
