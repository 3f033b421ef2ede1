package sibyl.tools;

/**
 * The names and encodings of the export format shared by its reader and writer (see JSON.md):
 * 0.6's field names, and Sibyl's two additions for the tombstones 0.6 dropped.
 */
final class JsonFormat {
    /** A tombstone's timestamp: 0.6's, in super columns; Sibyl's too in a row with a tombstone. */
    static final String DELETED_AT = "deletedAt";
    /** A super column's subcolumns (0.6). */
    static final String SUBCOLUMNS = "subColumns";
    /** Sibyl: a tombstone's local deletion time in seconds, which 0.6 did not export. */
    static final String LOCAL_DELETION_TIME = "localDeletionTime";
    /** Sibyl: the columns of a row with a tombstone, as 0.6 wrote the row itself. */
    static final String COLUMNS = "columns";
    /** Sibyl: the fifth element of a counter cell, {@code [name, count, timestamp, false, "counter"]}. */
    static final String COUNTER = "counter";

    private JsonFormat() {
    }

    /** The length of {@code s} in Java's modified UTF-8, which SSTables store keys in. */
    static long modifiedUtf8Length(String s) {
        long length = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            length += c >= 0x0001 && c <= 0x007F ? 1 : c <= 0x07FF ? 2 : 3;
        }
        return length;
    }

    /**
     * {@code s} as a JSON string literal: quotes, backslashes and control characters escaped,
     * and every surrogate too, so a key with a lone one (which Thrift keys may hold) survives
     * the trip through UTF-8.
     */
    static void appendQuoted(StringBuilder out, String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> {
                    if (c < 0x20 || Character.isSurrogate(c)) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
