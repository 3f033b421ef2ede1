package sibyl.db.marshal;

import java.nio.ByteBuffer;

/**
 * A comparator's descending order, the empty name still first (it means "open bound" in either direction): both
 * the view that checks the bounds of reversed slices and 0.7's {@code ReversedType(T)}, a comparator of its own.
 */
public final class ReversedType extends AbstractType {
    private final AbstractType base;

    ReversedType(AbstractType base) {
        this.base = base;
    }

    /** {@code ReversedType(base)}, as a type string names it. */
    public static ReversedType of(AbstractType base) {
        return new ReversedType(base);
    }

    public AbstractType base() {
        return base;
    }

    @Override
    public int compare(byte[] a, byte[] b) {
        int e = compareEmpty(a, b);
        return e != 2 ? e : base.compare(b, a);
    }

    @Override
    public String getString(byte[] name) {
        return base.getString(name);
    }

    @Override
    public void validate(byte[] name) {
        base.validate(name);
    }

    @Override
    public void validate(ByteBuffer name) {
        base.validate(name);
    }

    @Override
    public void conform(ByteBuffer value) {
        base.conform(value);
    }

    @Override
    public String className() {
        return PACKAGE + ".ReversedType(" + base.className() + ")";
    }

    @Override
    public AbstractType reversed() {
        return base;
    }
}
