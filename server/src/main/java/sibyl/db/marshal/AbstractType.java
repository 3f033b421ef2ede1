package sibyl.db.marshal;

import java.nio.ByteBuffer;
import java.util.Comparator;

/**
 * A comparator of column (or super column) names, as configured by CompareWith and
 * CompareSubcolumnsWith.
 *
 * <p>Names are plain {@code byte[]} throughout the db layer; whoever hands an array to the db
 * layer gives up the right to change it. Every comparator accepts the empty array, which sorts
 * before every other name because it means "open bound" in slices. {@link #compare} assumes
 * valid input: validate names at the edge first.
 */
public abstract class AbstractType implements Comparator<byte[]> {
    /** The package every built-in comparator's wire name lives in. */
    public static final String PACKAGE = "org.apache.cassandra.db.marshal";

    @Override
    public abstract int compare(byte[] a, byte[] b);

    /** Readable form of a name, for errors and logs; throws for an invalid name. */
    public abstract String getString(byte[] name);

    /**
     * Throws {@link MarshalException} with the 0.6 message when {@code name} is not valid for
     * this comparator. As in 0.6, the default is "whatever {@link #getString} accepts".
     */
    public void validate(byte[] name) throws MarshalException {
        getString(name);
    }

    /**
     * As {@link #validate(byte[])}, for a name that is still the remaining bytes of a request
     * buffer, which is left as it was. Comparators that accept any name override this to check
     * nothing, so that validating a request's names copies none of them.
     */
    public void validate(ByteBuffer name) throws MarshalException {
        byte[] copy = new byte[name.remaining()];
        name.get(name.position(), copy);
        validate(copy);
    }

    /**
     * Throws {@link MarshalException} with Cassandra 3.11's words when {@code value} (a name, key or value of the
     * 0.7+ dialect, the remaining bytes of a buffer left as it was) is not valid for this type. The types 0.6 had
     * check otherwise and say it otherwise there ({@link #validate(byte[])}); the later types check alike in both.
     */
    public void conform(ByteBuffer value) throws MarshalException {
        validate(value);
    }

    /** The name clients and describe_keyspace know this comparator by. */
    public String className() {
        return PACKAGE + "." + getClass().getSimpleName();
    }

    /** The view used to validate reversed slices: descending, but the empty name still first. */
    public AbstractType reversed() {
        return new ReversedType(this);
    }

    @Override
    public String toString() {
        return className();
    }

    /** Orders the empty name first; returns 2 when neither is empty (compare them yourself). */
    static int compareEmpty(byte[] a, byte[] b) {
        if (a.length == 0) return b.length == 0 ? 0 : -1;
        if (b.length == 0) return 1;
        return 2;
    }
}
