package sibyl.db;

import java.util.Objects;
import sibyl.dht.Token;

/** Which rows a range read scans, in ring order. */
public sealed interface RowRange {

    /**
     * Rows whose token lies in [token(startKey), token(endKey)]. An empty start key is the start
     * of the ring; an empty end key means no upper bound.
     */
    record Keys(String startKey, String endKey) implements RowRange {
        public Keys {
            Objects.requireNonNull(startKey, "startKey");
            Objects.requireNonNull(endKey, "endKey");
        }
    }

    /**
     * Rows whose token lies in (start, end], wrapping past the end of the ring when start >= end;
     * start == end is the whole ring, beginning just after start.
     */
    record Tokens(Token start, Token end) implements RowRange {
        public Tokens {
            Objects.requireNonNull(start, "start");
            Objects.requireNonNull(end, "end");
        }
    }

    static Keys keys(String startKey, String endKey) {
        return new Keys(startKey, endKey);
    }

    static Tokens tokens(Token start, Token end) {
        return new Tokens(start, end);
    }
}
