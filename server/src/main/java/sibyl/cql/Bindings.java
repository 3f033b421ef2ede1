package sibyl.cql;

import java.nio.ByteBuffer;
import java.util.List;
import sibyl.db.InvalidQueryException;
import sibyl.db.marshal.AbstractType;
import sibyl.db.marshal.Int32Type;
import sibyl.db.marshal.LongType;
import sibyl.db.marshal.MarshalException;

/** The values of a statement's terms: its literals, and the values bound to its markers, checked against their types. */
final class Bindings {
    private final List<ByteBuffer> values;

    /** {@code values} in the markers' order; their number is checked against {@code markers}. */
    Bindings(int markers, List<ByteBuffer> values) {
        if (markers != values.size()) {
            throw new InvalidQueryException("there were " + markers + " markers(?) in CQL but " + values.size()
                    + " bound variables");
        }
        this.values = values;
    }

    /** The bytes of {@code term} for column {@code column} of {@code type}; null for a null. */
    ByteBuffer bytes(Term term, AbstractType type, String column) {
        AbstractType t = CqlTypes.unreversed(type);
        if (term instanceof Term.Literal l) {
            return l.kind() == null ? null : CqlTypes.bytes(l, t, column);
        }
        ByteBuffer v = values.get(((Term.Marker) term).index());
        if (v == null) return null;
        try {
            t.validate(v.duplicate());
        } catch (MarshalException e) {
            throw new InvalidQueryException("Exception while validating " + column + ": " + e.getMessage());
        }
        return v.duplicate();
    }

    /** A LIMIT: strictly positive. */
    int limit(Term term) {
        int limit = int32(term, "[limit]", "limit");
        if (limit <= 0) throw new InvalidQueryException("LIMIT must be strictly positive");
        return limit;
    }

    /** A USING TTL: 0 to {@code max} seconds; null when none was given. */
    Integer ttl(Term term, int max) {
        if (term == null) return null;
        int ttl = int32(term, "[ttl]", "TTL");
        if (ttl < 0) throw new InvalidQueryException("A TTL must be greater or equal to 0, but was " + ttl);
        if (ttl > max) throw new InvalidQueryException("ttl is too large. requested (" + ttl + ") maximum (" + max + ")");
        return ttl;
    }

    private int int32(Term term, String column, String what) {
        ByteBuffer v = bytes(term, Int32Type.instance, column);
        if (v == null) throw new InvalidQueryException("Invalid null value of " + what);
        if (v.remaining() != 4) throw new InvalidQueryException("Invalid " + what + " value");
        return v.getInt(v.position());
    }

    /** A USING TIMESTAMP; {@code otherwise} when none was given. */
    long timestamp(Term term, long otherwise) {
        if (term == null) return otherwise;
        ByteBuffer v = bytes(term, LongType.instance, "[timestamp]");
        if (v == null) throw new InvalidQueryException("Invalid null value of timestamp");
        if (v.remaining() != 8) throw new InvalidQueryException("Invalid timestamp value");
        long ts = v.getLong(v.position());
        if (ts == Long.MIN_VALUE) {
            throw new InvalidQueryException("Out of bound timestamp, must be in [" + -Long.MAX_VALUE + ", "
                    + Long.MAX_VALUE + "]");
        }
        return ts;
    }
}
