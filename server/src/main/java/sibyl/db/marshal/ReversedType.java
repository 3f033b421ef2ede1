package sibyl.db.marshal;

/**
 * The descending view of a comparator, used to check the bounds of reversed slices. The empty
 * name still sorts first, because it means "open bound" in either direction.
 */
public final class ReversedType extends AbstractType {
    private final AbstractType base;

    ReversedType(AbstractType base) {
        this.base = base;
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
    public String className() {
        return base.className();
    }

    @Override
    public AbstractType reversed() {
        return base;
    }
}
