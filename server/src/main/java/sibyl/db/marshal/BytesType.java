package sibyl.db.marshal;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HexFormat;

/** Unsigned lexicographic byte order; a prefix sorts before the longer name. Accepts anything. */
public class BytesType extends AbstractType {
    public static final BytesType instance = new BytesType();

    BytesType() {
    }

    @Override
    public int compare(byte[] a, byte[] b) {
        return Arrays.compareUnsigned(a, b);
    }

    /** Lowercase hex, two digits a byte. */
    @Override
    public String getString(byte[] name) {
        return HexFormat.of().formatHex(name);
    }

    /** Every name is valid; not formatting it to find that out saves a string per name written. */
    @Override
    public void validate(byte[] name) {
    }

    /** Nothing to check, and so nothing copied; but ASCII and UTF-8, which extend this order, check their bytes. */
    @Override
    public void validate(ByteBuffer name) {
        if (getClass() != BytesType.class) super.validate(name);
    }
}
