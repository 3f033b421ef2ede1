package sibyl.cql;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import sibyl.db.InvalidQueryException;
import sibyl.db.marshal.AbstractType;

/** The checks 3.11 makes of a partition key's value in a statement. */
final class Keys {
    static final int MAX_KEY = 0xffff;

    private Keys() {
    }

    static ByteBuffer key(ByteBuffer key) {
        if (key == null) throw new InvalidQueryException("Invalid null value in condition for column key");
        if (!key.hasRemaining()) throw new InvalidQueryException("Key may not be empty");
        if (key.remaining() > MAX_KEY) {
            throw new InvalidQueryException("Key length of " + key.remaining() + " is longer than maximum of " + MAX_KEY);
        }
        return key;
    }

    /** The values of a key restriction, checked, each once (IN may name one twice: 3.11 reads or writes it once). */
    static List<ByteBuffer> distinct(List<Term> keys, Bindings values, AbstractType type) {
        LinkedHashSet<ByteBuffer> distinct = new LinkedHashSet<>();
        for (Term t : keys) distinct.add(key(values.bytes(t, type, CompactView.KEY)));
        return new ArrayList<>(distinct);
    }

    /** A clustering value of a relation or a written cell: never null. */
    static ByteBuffer clustering(ByteBuffer value, String column) {
        if (value == null) throw new InvalidQueryException("Invalid null value in condition for column " + column);
        return value;
    }

    /** A clustering value of a written cell: never null, and for a simple comparator never empty. */
    static ByteBuffer written(ByteBuffer value, String column, boolean composite) {
        clustering(value, column);
        if (!composite && !value.hasRemaining()) {
            throw new InvalidQueryException("Invalid empty or null value for column " + column);
        }
        return value;
    }
}
