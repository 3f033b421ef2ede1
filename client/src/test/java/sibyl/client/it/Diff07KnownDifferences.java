package sibyl.client.it;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The differences between Cassandra 3.11 and Sibyl that docs/differences.md §The 0.7+ dialect
 * documents, each recognised only where a check shows that a difference is exactly that one:
 *
 * <ul>
 * <li>a request 3.11 fails on (an internal error, a closed connection) and Sibyl answers (docs/differences.md
 *     §Where 3.11 fails, Sibyl answers): by the request's shape and both answers ({@link Where311Fails});</li>
 * <li>3.11's range tombstones: a column Sibyl answers and 3.11 does not, which a range deletion of its row covers
 *     with a timestamp at least its own ({@link Diff07Ledger#hiddenBy311}); the columns 3.11 answers after it
 *     instead, at the end of a slice its count cut; a row a range deletion left with nothing live, which 3.11 lists
 *     empty in a key range and Sibyl does not (and the rows Sibyl answers instead at the end of the range); a count
 *     that is higher in Sibyl by no more than such columns;</li>
 * <li>a column newer than every deletion over it that 3.11 leaves out where two or more range deletions of its row
 *     overlap at its name (a fault of 3.11's, docs/differences.md §Where 3.11 fails, Sibyl answers);</li>
 * <li>two values written to one column at one timestamp: Sibyl answers the greater in unsigned byte order, 3.11 the
 *     greater in signed byte order, of exactly the values the ledger has at that timestamp;</li>
 * <li>in cluster mode only, a row that holds nothing live, which 3.11 lists empty in a key range and Sibyl over a
 *     cluster does not list (README, "Where Sibyl differs from 0.6"), shown so by 3.11 itself answering the whole
 *     row empty ({@link #emptyIn311}); and the rows Sibyl answers instead at the end of the range; and a column's
 *     TTL, which Sibyl over a cluster answers as the time it has left, no more than 3.11's TTL as written; and a tie
 *     at one timestamp that Cassandra 5 gives to a value the ledger shows written with a TTL.</li>
 * </ul>
 *
 * Anything else, and any answer that does not parse, stays a difference.
 */
final class Diff07KnownDifferences {
    /**
     * A request 3.11 fails on: what it is, how 3.11's answer starts, and what Sibyl answers.
     *
     * @param sibyl whether an answer of Sibyl's is the one documented
     */
    record Where311Fails(String what, String reference, Predicate<String> sibyl) {
        static final Where311Fails NEGATIVE_COUNT = new Where311Fails("get_count with a negative count", "!TimedOutException",
                a -> a.equals("!InvalidRequestException: get_slice requires non-negative count"));
        static final Where311Fails TOKEN_NOT_A_NUMBER = new Where311Fails("a KeyRange token that is not a number", "!closed:",
                a -> a.startsWith("!InvalidRequestException: invalid start token 'not a number'"));
        static final Where311Fails NO_KEYS = new Where311Fails("multiget_slice of no keys", "!closed:", a -> a.equals("0 keys"));
        static final Where311Fails REVERSED_MULTI_SLICE = new Where311Fails(
                "a reversed get_multi_slice that selects a column", "!TimedOutException", a -> !a.startsWith("!"));

        /**
         * get_count of a super column's subcolumns by a slice range of {@code count}, which 3.11 fails on when the
         * range selects more live subcolumns than that: Sibyl answers the count, as many as it may count.
         */
        static Where311Fails subcolumnsPastCount(int count) {
            return new Where311Fails("get_count of more subcolumns than the slice range's count", "!TimedOutException",
                    a -> a.equals(String.valueOf(count)));
        }
    }

    /** One column of an answer: its super column's text (or null), name, value and timestamp. */
    private record Entry(String superColumn, String name, String value, long timestamp, int ttl) {
        String place() {
            return (superColumn == null ? "" : superColumn + "/") + name;
        }
    }

    private static final Pattern CELL = Pattern.compile("S\\((\\S+) \\[([^\\]]*)\\]\\)|C\\(([^=]+)=(\\S*) @(-?\\d+)(?: ttl (\\d+))?\\)");
    private static final Pattern COLUMN = Pattern.compile("C\\(([^=]+)=(\\S*) @(-?\\d+)(?: ttl (\\d+))?\\)");

    /** Whether 3.11 holds nothing live in a row of a family (its key's bytes); asked in cluster mode only. */
    interface EmptyRow {
        boolean in311(String family, ByteBuffer key);
    }

    private final Diff07Ledger ledger;
    /** Null unless Sibyl stores in a cluster. */
    private final EmptyRow emptyIn311;

    Diff07KnownDifferences(Diff07Ledger ledger) {
        this(ledger, null);
    }

    /** @param emptyIn311 3.11's answer on rows Sibyl in cluster mode does not list; null when Sibyl is embedded */
    Diff07KnownDifferences(Diff07Ledger ledger, EmptyRow emptyIn311) {
        this.ledger = ledger;
        this.emptyIn311 = emptyIn311;
    }

    /** Why {@code call}'s answers differ, when they differ only as documented; empty otherwise. */
    Optional<String> explain(V20Call call, String reference, String sibyl) {
        Diff07Shape shape = call.shape();
        Where311Fails w = shape.where311Fails();
        if (w != null && reference.startsWith(w.reference()) && w.sibyl().test(sibyl)) {
            return Optional.of("3.11 fails on " + w.what() + ", Sibyl answers");
        }
        if (shape.family() == null || refused(reference) || refused(sibyl)) return Optional.empty();
        try {
            List<String> reasons = new ArrayList<>();
            return rowsDiffer(shape, rows(shape, reference), rows(shape, sibyl), reasons) && !reasons.isEmpty()
                    ? Optional.of(String.join("; ", reasons.stream().distinct().toList())) : Optional.empty();
        } catch (IllegalArgumentException unparsed) {
            return Optional.empty();
        }
    }

    /** A row key's bytes from its text in an answer: a short key's hex, a shortened long one's from the ledger. */
    private Optional<ByteBuffer> keyBytes(String text) {
        if (text.startsWith("0x")) return Optional.of(ByteBuffer.wrap(HexFormat.of().parseHex(text.substring(2))));
        return ledger.key(text);
    }

    /** An exception other than get's NotFoundException, which answers no column. */
    private static boolean refused(String answer) {
        return answer.startsWith("!") && !answer.equals("!NotFoundException");
    }

    /**
     * An answer as its rows in order, each key's text to its entries (or its count): the lines of a key range or a
     * multiget, or the one row of a call of one key ({@code !NotFoundException} of get being no entry).
     */
    private static Map<String, String> rows(Diff07Shape shape, String answer) {
        Map<String, String> rows = new LinkedHashMap<>();
        if (shape.key() != null) {
            rows.put(V20Call.hex(shape.key()), answer.equals("!NotFoundException") ? "[]" : answer);
            return rows;
        }
        String[] lines = answer.split("\n");
        for (int i = 0; i < lines.length - 1; i++) {
            String line = lines[i];
            int arrow = line.indexOf(" -> ");
            int space = line.indexOf(' ');
            if (arrow >= 0) rows.put(line.substring(0, arrow), line.substring(arrow + 4));
            else if (space > 0) rows.put(line.substring(0, space), line.substring(space + 1));
            else throw new IllegalArgumentException("not a row: " + line);
        }
        if (!lines[lines.length - 1].matches("\\d+ (rows|keys)")) throw new IllegalArgumentException("no row count: " + answer);
        return rows;
    }

    /** Whether rows that differ differ only as documented; the reasons found are added to {@code reasons}. */
    private boolean rowsDiffer(Diff07Shape shape, Map<String, String> reference, Map<String, String> sibyl, List<String> reasons) {
        String family = shape.family();
        // Rows a range deletion left with nothing live: 3.11 lists them empty, Sibyl not at all.
        List<String> referenceKeys = new ArrayList<>(reference.keySet());
        int ghosts = 0;
        for (String key : reference.keySet()) {
            if (sibyl.containsKey(key) || !reference.get(key).equals("[]")) continue;
            if (ledger.rangeDeleted(family, key)) {
                reasons.add("3.11 lists a row only a range tombstone is left in");
            } else if (emptyIn311 != null && keyBytes(key).map(k -> emptyIn311.in311(family, k)).orElse(false)) {
                reasons.add("Sibyl over a cluster does not list a row that holds nothing live");
            } else {
                continue;
            }
            referenceKeys.remove(key);
            ghosts++;
        }
        List<String> sibylKeys = new ArrayList<>(sibyl.keySet());
        // Rows of Sibyl's past 3.11's last: the places 3.11's empty rows took, in a range of a counted number of rows.
        List<String> beyond = sibylKeys.subList(Math.min(referenceKeys.size(), sibylKeys.size()), sibylKeys.size());
        if (!beyond.isEmpty() && (beyond.size() > ghosts || beyond.stream().anyMatch(reference::containsKey))) return false;
        if (!beyond.isEmpty()) reasons.add("rows Sibyl answers in the places of 3.11's empty rows");
        if (!sibylKeys.subList(0, sibylKeys.size() - beyond.size()).equals(referenceKeys)) return false;
        for (String key : referenceKeys) {
            String a = reference.get(key);
            String b = sibyl.get(key);
            if (a.equals(b)) continue;
            if (a.matches("\\d+") && b.matches("\\d+")) {
                int more = Integer.parseInt(b) - Integer.parseInt(a);
                if (more <= 0 || more > ledger.hideable(family, key, shape.superColumn() == null ? null : V20Call.hex(shape.superColumn()))) return false;
                reasons.add("Sibyl counts columns 3.11's range tombstones hide");
            } else if (!entriesDiffer(family, key, entries(shape, a), entries(shape, b), reasons)) {
                return false;
            }
        }
        return true;
    }

    /** Whether one row's entries differ only as documented. */
    private boolean entriesDiffer(String family, String key, List<Entry> reference, List<Entry> sibyl, List<String> reasons) {
        Map<String, Entry> inReference = new LinkedHashMap<>();
        for (Entry e : reference) inReference.put(e.place(), e);
        Map<String, Entry> inSibyl = new LinkedHashMap<>();
        for (Entry e : sibyl) inSibyl.put(e.place(), e);
        int hidden = 0;
        for (Entry e : sibyl) {
            if (inReference.containsKey(e.place())) continue;
            if (ledger.hiddenBy311(family, key, e.superColumn(), e.name(), e.timestamp())) {
                reasons.add("3.11's range tombstone hides a column written after it with an older timestamp");
            } else if (ledger.rangesCovering(family, key, e.superColumn(), e.name()) >= 2) {
                reasons.add("3.11 leaves out a column newer than the overlapping range tombstones over it");
            } else {
                return false;
            }
            hidden++;
        }
        // The entries both answer, in the same order, and 3.11's others only after them all.
        List<String> common = new ArrayList<>();
        boolean extraSeen = false;
        for (Entry e : reference) {
            if (!inSibyl.containsKey(e.place())) {
                if (hidden == 0) return false;
                extraSeen = true;
                continue;
            }
            if (extraSeen) return false;
            common.add(e.place());
        }
        if (extraSeen) reasons.add("3.11 answers columns past those its range tombstones hid, within the slice's count");
        List<String> sibylCommon = sibyl.stream().map(Entry::place).filter(inReference::containsKey).toList();
        if (!sibylCommon.equals(common)) return false;
        for (String place : common) {
            Entry a = inReference.get(place);
            Entry b = inSibyl.get(place);
            if (a.equals(b)) continue;
            if (emptyIn311 != null && a.ttl() > 0 && b.ttl() > 0 && b.ttl() <= a.ttl()
                    && a.equals(new Entry(b.superColumn(), b.name(), b.value(), b.timestamp(), a.ttl()))) {
                reasons.add("Sibyl over a cluster answers the time a column has left, not the TTL it was written with");
                continue;
            }
            if (a.timestamp() != b.timestamp()) return false;
            if (emptyIn311 != null && clusterTie(family, key, a, b)) {
                reasons.add("a tie of two values at one timestamp, which Cassandra 5 gives to the one that expires");
                continue;
            }
            if (!tie(family, key, a, b)) return false;
            reasons.add("a tie of two values at one timestamp: Sibyl keeps the greater unsigned, 3.11 the greater signed");
        }
        return true;
    }

    /**
     * Whether Sibyl over a cluster answers {@code b} where 3.11 answers {@code a} as Cassandra 5 decides a tie
     * (docs/differences.md §The 0.7+ dialect): both values written at their timestamp, Sibyl's with a TTL, which
     * Cassandra 5 prefers to a value without one, and of two with one, the later to expire, before the values count.
     */
    private boolean clusterTie(String family, String key, Entry a, Entry b) {
        List<ByteBuffer> values = ledger.valuesAt(family, key, a.superColumn(), a.name(), a.timestamp());
        return b.ttl() > 0 && values.stream().anyMatch(v -> V20Call.value(v).equals(a.value()))
                && ledger.expiringAt(family, key, b.superColumn(), b.name(), b.timestamp(), b.value());
    }

    /** Whether 3.11's {@code a} and Sibyl's {@code b} are the signed and unsigned greatest of the values written at their timestamp. */
    private boolean tie(String family, String key, Entry a, Entry b) {
        List<ByteBuffer> values = ledger.valuesAt(family, key, a.superColumn(), a.name(), a.timestamp());
        if (values.size() < 2) return false;
        ByteBuffer signed = values.stream().max(ByteBuffer::compareTo).orElseThrow();
        ByteBuffer unsigned = values.stream().max((x, y) -> Arrays.compareUnsigned(bytes(x), bytes(y))).orElseThrow();
        return V20Call.value(signed).equals(a.value()) && V20Call.value(unsigned).equals(b.value());
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] copy = new byte[b.remaining()];
        b.duplicate().get(copy);
        return copy;
    }

    /** A column's TTL as an answer shows it; 0 for none. */
    private static int ttl(String shown) {
        return shown == null ? 0 : Integer.parseInt(shown);
    }

    /** A row's entries in the answer's order, subcolumns with their super column (the read's, when it reads under one). */
    private static List<Entry> entries(Diff07Shape shape, String cells) {
        String parent = shape.superColumn() == null ? null : V20Call.hex(shape.superColumn());
        List<Entry> entries = new ArrayList<>();
        if (!CELL.matcher(cells).replaceAll("").matches("(\\[(, )*\\])?")) throw new IllegalArgumentException("not columns: " + cells);
        Matcher m = CELL.matcher(cells);
        while (m.find()) {
            if (m.group(1) != null) {
                Matcher c = COLUMN.matcher(m.group(2));
                while (c.find()) entries.add(new Entry(m.group(1), c.group(1), c.group(2), Long.parseLong(c.group(3)), ttl(c.group(4))));
            } else {
                entries.add(new Entry(parent, m.group(3), m.group(4), Long.parseLong(m.group(5)), ttl(m.group(6))));
            }
        }
        return entries;
    }
}
