package sibyl.client.it;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import sibyl.client.it.Diff07Schema.Family;

/**
 * What the writes both servers took did, as far as the documented differences of the 0.7+ dialect need it
 * (docs/differences.md §The 0.7+ dialect): every column written, with its value and timestamp,
 * and every deletion by a slice range, in the order they were taken. Rows, names and keys are looked up by the text
 * {@link V20Call} gives them in answers.
 */
final class Diff07Ledger {
    /** Something a write did. */
    sealed interface Effect permits Written, RangeDeleted {
    }

    /** A column written: {@code superColumn} is null in a standard family; {@code ttl} 0 for none. */
    record Written(String family, ByteBuffer key, ByteBuffer superColumn, ByteBuffer name, ByteBuffer value, long timestamp,
                   int ttl) implements Effect {
        Written(String family, ByteBuffer key, ByteBuffer superColumn, ByteBuffer name, ByteBuffer value, long timestamp) {
            this(family, key, superColumn, name, value, timestamp, 0);
        }
    }

    /**
     * A Deletion by a slice range at the top level of a row (columns of a standard family, super columns of a super
     * one); an empty bound is open.
     */
    record RangeDeleted(String family, ByteBuffer key, ByteBuffer start, ByteBuffer finish, long timestamp) implements Effect {
        boolean covers(Comparator<ByteBuffer> order, ByteBuffer name) {
            return (!start.hasRemaining() || order.compare(start, name) <= 0) && (!finish.hasRemaining() || order.compare(name, finish) <= 0);
        }
    }

    /** An effect and when it was taken. */
    private record Taken<E extends Effect>(E effect, int sequence) {
    }

    private final List<Taken<Written>> writes = new ArrayList<>();
    private final List<Taken<RangeDeleted>> rangeDeletions = new ArrayList<>();
    /** The bytes behind a name's text in answers (long names are shortened there). */
    private final Map<String, ByteBuffer> names = new HashMap<>();
    private int sequence;

    /** Records the effects of a write both servers took. */
    void took(List<Effect> effects) {
        for (Effect e : effects) {
            sequence++;
            if (e instanceof Written w) {
                writes.add(new Taken<>(w, sequence));
                names.put(V20Call.hex(w.name()), w.name());
                if (w.superColumn() != null) names.put(V20Call.hex(w.superColumn()), w.superColumn());
            } else if (e instanceof RangeDeleted r) {
                rangeDeletions.add(new Taken<>(r, sequence));
            }
        }
    }

    /** The bytes of a row key written or range-deleted, by the text answers give it (long keys are shortened). */
    Optional<ByteBuffer> key(String text) {
        for (Taken<Written> t : writes) {
            if (V20Call.hex(t.effect().key()).equals(text)) return Optional.of(t.effect().key());
        }
        for (Taken<RangeDeleted> t : rangeDeletions) {
            if (V20Call.hex(t.effect().key()).equals(text)) return Optional.of(t.effect().key());
        }
        return Optional.empty();
    }

    /** Whether a deletion by a slice range was taken in row {@code key} of {@code family}. */
    boolean rangeDeleted(String family, String key) {
        return rangeDeletions.stream().anyMatch(t -> t.effect().family().equals(family) && V20Call.hex(t.effect().key()).equals(key));
    }

    /**
     * Whether a range tombstone of 3.11 hides the column {@code name} (of super column {@code superColumn}, null in
     * a standard family) at {@code timestamp}: a range deletion of its row covers it (its super column in a super
     * family) with a timestamp at least its own.
     */
    boolean hiddenBy311(String family, String key, String superColumn, String name, long timestamp) {
        ByteBuffer topName = names.get(superColumn != null ? superColumn : name);
        if (topName == null) return false;
        Comparator<ByteBuffer> order = order(family);
        for (Taken<RangeDeleted> t : rangeDeletions) {
            RangeDeleted r = t.effect();
            if (r.family().equals(family) && V20Call.hex(r.key()).equals(key) && r.timestamp() >= timestamp && r.covers(order, topName)) return true;
        }
        return false;
    }

    /**
     * How many range deletions of row {@code key} cover the column {@code name} (its super column in a super
     * family): where two or more overlap, 3.11 may leave out a column newer than all of them (docs/differences.md
     * §Where 3.11 fails, Sibyl answers).
     */
    int rangesCovering(String family, String key, String superColumn, String name) {
        ByteBuffer topName = names.get(superColumn != null ? superColumn : name);
        if (topName == null) return 0;
        Comparator<ByteBuffer> order = order(family);
        int covering = 0;
        for (Taken<RangeDeleted> t : rangeDeletions) {
            RangeDeleted r = t.effect();
            if (r.family().equals(family) && V20Call.hex(r.key()).equals(key) && r.covers(order, topName)) covering++;
        }
        return covering;
    }

    /**
     * How many entries a count of row {@code key} (under {@code superColumn}, or null) may count in Sibyl and not in
     * 3.11: the distinct names written after a range deletion that covers them, at a timestamp no later than its.
     */
    int hideable(String family, String key, String superColumn) {
        Comparator<ByteBuffer> order = order(family);
        boolean superFamily = family(family).isSuper();
        Set<String> entries = new HashSet<>();
        for (Taken<Written> w : writes) {
            Written c = w.effect();
            if (!c.family().equals(family) || !V20Call.hex(c.key()).equals(key)) continue;
            if (superColumn != null && (c.superColumn() == null || !V20Call.hex(c.superColumn()).equals(superColumn))) continue;
            ByteBuffer top = superFamily ? c.superColumn() : c.name();
            for (Taken<RangeDeleted> t : rangeDeletions) {
                RangeDeleted r = t.effect();
                if (t.sequence() < w.sequence() && r.family().equals(family) && r.key().equals(c.key()) && r.timestamp() >= c.timestamp()
                        && r.covers(order, top)) {
                    entries.add(V20Call.hex(superFamily && superColumn == null ? c.superColumn() : c.name()));
                }
            }
        }
        return entries.size();
    }

    /** Whether the value shown as {@code value} was written to a column at exactly {@code timestamp} with a TTL. */
    boolean expiringAt(String family, String key, String superColumn, String name, long timestamp, String value) {
        for (Taken<Written> w : writes) {
            Written c = w.effect();
            if (c.ttl() > 0 && c.family().equals(family) && c.timestamp() == timestamp && V20Call.hex(c.key()).equals(key)
                    && V20Call.hex(c.name()).equals(name) && V20Call.value(c.value()).equals(value)
                    && (superColumn == null ? c.superColumn() == null : c.superColumn() != null && V20Call.hex(c.superColumn()).equals(superColumn))) {
                return true;
            }
        }
        return false;
    }

    /** Every value written to a column at exactly {@code timestamp}, each once. */
    List<ByteBuffer> valuesAt(String family, String key, String superColumn, String name, long timestamp) {
        List<ByteBuffer> values = new ArrayList<>();
        for (Taken<Written> w : writes) {
            Written c = w.effect();
            if (c.family().equals(family) && c.timestamp() == timestamp && V20Call.hex(c.key()).equals(key) && V20Call.hex(c.name()).equals(name)
                    && (superColumn == null ? c.superColumn() == null : c.superColumn() != null && V20Call.hex(c.superColumn()).equals(superColumn))
                    && !values.contains(c.value())) {
                values.add(c.value());
            }
        }
        return values;
    }

    private static Family family(String name) {
        return Diff07Schema.FAMILIES.stream().filter(f -> f.name().equals(name)).findFirst().orElseThrow();
    }

    /** The order of a family's top-level names, the level its range deletions cover. */
    private static Comparator<ByteBuffer> order(String family) {
        return Diff07Vocabulary.order(family(family).names());
    }
}
