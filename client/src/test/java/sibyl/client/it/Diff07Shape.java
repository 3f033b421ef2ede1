package sibyl.client.it;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * What a call of the differential test is, as far as {@link Diff07KnownDifferences} needs it: a read of one family
 * (under a super column, of one key where its answer does not name it), a write and what it did, or a request 3.11
 * fails on (or may fail on: a read). Most calls are none of these.
 *
 * @param family the family a read reads; null for any other call
 * @param superColumn the super column a read reads under; null when none
 * @param key the key of a read whose answer does not name it (get, get_slice, get_count); null otherwise
 * @param effects what a write does when it is taken
 * @param where311Fails the request 3.11 fails on that this call is; null when it is not one
 */
record Diff07Shape(String family, ByteBuffer superColumn, ByteBuffer key, List<Diff07Ledger.Effect> effects,
                   Diff07KnownDifferences.Where311Fails where311Fails) {
    static final Diff07Shape NONE = new Diff07Shape(null, null, null, List.of(), null);

    static Diff07Shape read(String family, ByteBuffer superColumn, ByteBuffer key) {
        return new Diff07Shape(family, superColumn, key, List.of(), null);
    }

    static Diff07Shape write(List<Diff07Ledger.Effect> effects) {
        return new Diff07Shape(null, null, null, List.copyOf(effects), null);
    }

    static Diff07Shape failing311(Diff07KnownDifferences.Where311Fails where) {
        return new Diff07Shape(null, null, null, List.of(), where);
    }

    /** This read, which 3.11 may also fail on as {@code where} says. */
    Diff07Shape failing311Too(Diff07KnownDifferences.Where311Fails where) {
        return new Diff07Shape(family, superColumn, key, effects, where);
    }
}
