package sibyl.db.marshal;

import java.math.BigInteger;
import java.nio.ByteBuffer;

/**
 * Arbitrary-precision integers: two's complement, big-endian, any length (CQL's varint). Every byte string is one;
 * the order is numeric, so encodings of one number with extra sign bytes are equal names.
 */
public final class IntegerType extends AbstractType {
    public static final IntegerType instance = new IntegerType();

    private IntegerType() {
    }

    @Override
    public int compare(byte[] a, byte[] b) {
        int e = compareEmpty(a, b);
        return e != 2 ? e : new BigInteger(a).compareTo(new BigInteger(b));
    }

    @Override
    public String getString(byte[] name) {
        return name.length == 0 ? "" : new BigInteger(name).toString();
    }

    @Override
    public void validate(byte[] name) {
    }

    @Override
    public void validate(ByteBuffer name) {
    }
}
