package sibyl.tools;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.HexFormat;
import sibyl.db.CFMetaData;
import sibyl.db.Column;
import sibyl.db.ColumnFamily;
import sibyl.db.SuperColumn;
import sibyl.db.marshal.AbstractType;
import sibyl.db.marshal.MarshalException;
import sibyl.tools.JsonTokens.BadJson;

/**
 * Reads rows of a column family from an export (see JSON.md) one at a time, checking each
 * against the column family's schema as a write is checked: keys not empty and at most 65535
 * bytes, names not empty, at most 65535 bytes and valid for their comparator, tombstone values
 * of 4 bytes. Rows are read as they come, so the input need not be in any order and may be of
 * any size; a row itself is held whole.
 */
final class JsonRowReader {
    /** One row as read, with the line its key is on. */
    record Row(String key, ColumnFamily columns, int line) {
    }

    private static final int MAX_NAME_LENGTH = 0xFFFF;
    private static final HexFormat HEX = HexFormat.of();

    private final JsonTokens tokens;
    private final CFMetaData metadata;
    private final int nowSeconds;
    private boolean started;
    private boolean finished;

    /**
     * @param nowSeconds the local deletion time of a tombstone the input gives none for (0.6's
     *                   own exports), as 0.6's import took the time of the import
     */
    JsonRowReader(JsonTokens tokens, CFMetaData metadata, int nowSeconds) {
        this.tokens = tokens;
        this.metadata = metadata;
        this.nowSeconds = nowSeconds;
    }

    /** The next row, or null once the closing brace (and nothing after it) was read. */
    Row next() throws IOException, BadJson {
        if (finished) return null;
        if (!started) {
            started = true;
            tokens.expect('{', "'{' opening the rows (an object of row key to columns)");
            if (tokens.consumeIf('}')) return end();
        } else if (!tokens.consumeIf(',')) {
            if (tokens.consumeIf('}')) return end();
            tokens.expect(',', "',' or '}' after a row");
        }
        tokens.context("");
        String rowKey = tokens.string("a row key (a string)");
        int line = tokens.tokenLine();
        checkKey(rowKey);
        tokens.context("row " + quoted(rowKey) + ": ");
        tokens.expect(':', "':' after the row key");
        ColumnFamily.Builder row = ColumnFamily.builder(metadata, 16);
        int c = tokens.peek();
        if (c == '[' && !metadata.isSuper()) {
            columns(metadata.comparator(), row::add);
        } else if (c == '{') {
            object(row);
        } else {
            throw tokens.unexpected(metadata.isSuper() ? "the row's super columns, an object of hex name to super column"
                    : "the row's columns, an array of [name, value, timestamp, deleted]");
        }
        return new Row(rowKey, row.build(), line);
    }

    private Row end() throws IOException, BadJson {
        finished = true;
        tokens.context("");
        tokens.end();
        return null;
    }

    /**
     * A row as an object: 0.6's super column family row ({"name": super column, ...}), or
     * Sibyl's row with its tombstone ({"deletedAt", "localDeletionTime", "columns"}), whose
     * columns are what 0.6 wrote for the row. Field names tell them apart: a super column's is
     * hex, which the three names are not.
     */
    private void object(ColumnFamily.Builder row) throws IOException, BadJson {
        tokens.expect('{', "'{'");
        TombstoneFields deletion = new TombstoneFields();
        boolean superColumns = false;
        boolean extension = false;
        boolean columns = false;
        if (!tokens.consumeIf('}')) {
            do {
                String field = tokens.string("a field name (a string)");
                long at = tokens.mark();
                tokens.expect(':', "':' after \"" + field + "\"");
                boolean sibylField = TombstoneFields.isField(field) || field.equals(JsonFormat.COLUMNS);
                boolean otherKindBefore = sibylField ? superColumns : metadata.isSuper() && extension;
                if (otherKindBefore) {
                    throw tokens.errorAt(at, "super columns beside \"deletedAt\", \"localDeletionTime\" or \"columns\":"
                            + " a row with a tombstone keeps its super columns under \"columns\"");
                }
                if (deletion.read(field, at)) {
                    extension = true;
                } else if (field.equals(JsonFormat.COLUMNS)) {
                    if (columns) throw tokens.errorAt(at, "\"columns\" given twice");
                    columns = true;
                    extension = true;
                    if (metadata.isSuper()) {
                        superColumns(row);
                    } else {
                        columns(metadata.comparator(), row::add);
                    }
                } else if (metadata.isSuper()) {
                    superColumn(field, at, row);
                    superColumns = true;
                } else {
                    throw tokens.errorAt(at, "unknown field \"" + field + "\": a row of a standard column family is an"
                            + " array of columns, or {\"deletedAt\", \"localDeletionTime\", \"columns\"}");
                }
            } while (tokens.consumeIf(','));
            tokens.expect('}', "',' or '}' in the row");
        }
        deletion.applyTo(row::delete, "row");
    }

    private void superColumns(ColumnFamily.Builder row) throws IOException, BadJson {
        tokens.expect('{', "the row's super columns, an object of hex name to super column");
        if (tokens.consumeIf('}')) return;
        do {
            String name = tokens.string("a super column name (hex)");
            long at = tokens.mark();
            tokens.expect(':', "':' after the super column name");
            superColumn(name, at, row);
        } while (tokens.consumeIf(','));
        tokens.expect('}', "',' or '}' after a super column");
    }

    /**
     * {@code "name": {"deletedAt": T, "localDeletionTime": S, "subColumns": [...]}}, the name
     * (at {@code nameAt}) and ':' read already.
     */
    private void superColumn(String hexName, long nameAt, ColumnFamily.Builder row) throws IOException, BadJson {
        byte[] name = name(hexName, nameAt, "super column name", metadata.comparator());
        tokens.expect('{', "a super column {\"deletedAt\": ..., \"subColumns\": [...]}");
        SuperColumn.Builder superColumn = SuperColumn.builder(name, metadata.subcomparator(), 8);
        TombstoneFields deletion = new TombstoneFields();
        boolean subColumns = false;
        if (!tokens.consumeIf('}')) {
            do {
                String field = tokens.string("a field name of the super column (a string)");
                long at = tokens.mark();
                tokens.expect(':', "':' after \"" + field + "\"");
                if (field.equals(JsonFormat.SUBCOLUMNS)) {
                    if (subColumns) throw tokens.errorAt(at, "\"subColumns\" given twice in super column " + hexName);
                    subColumns = true;
                    columns(metadata.subcomparator(), superColumn::add);
                } else if (!deletion.read(field, at)) {
                    throw tokens.errorAt(at, "unknown field \"" + field + "\" in super column " + hexName
                            + "; it has \"deletedAt\", \"localDeletionTime\" and \"subColumns\"");
                }
            } while (tokens.consumeIf(','));
            tokens.expect('}', "',' or '}' in the super column");
        }
        deletion.applyTo(superColumn::delete, "super column " + hexName);
        row.add(superColumn.build());
    }

    private interface ColumnSink {
        void add(Column c);
    }

    /** {@code [[name, value, timestamp, deleted], ...]}. */
    private void columns(AbstractType comparator, ColumnSink sink) throws IOException, BadJson {
        tokens.expect('[', "an array of columns [name, value, timestamp, deleted]");
        if (tokens.consumeIf(']')) return;
        do {
            sink.add(column(comparator));
        } while (tokens.consumeIf(','));
        tokens.expect(']', "',' or ']' after a column");
    }

    private Column column(AbstractType comparator) throws IOException, BadJson {
        tokens.expect('[', "a column [name, value, timestamp, deleted]");
        String nameHex = tokens.string("the column name (hex)");
        byte[] name = name(nameHex, tokens.mark(), "column name", comparator);
        tokens.expect(',', "',' after the column name");
        String valueHex = tokens.string("the column value (hex)");
        long valueAt = tokens.mark();
        byte[] value = hex(valueHex, valueAt, "column value");
        tokens.expect(',', "',' after the column value");
        long timestamp = tokens.integer("the column timestamp");
        tokens.expect(',', "',' after the column timestamp");
        boolean deleted = tokens.bool("true or false (whether the column is deleted)");
        boolean more = !deleted && tokens.consumeIf(',');
        if (more && tokens.peek() == '"') { // a counter: [name, count, timestamp, false, "counter"]
            long markerAt = tokens.mark();
            String marker = tokens.string("\"" + JsonFormat.COUNTER + "\" or a ttl");
            if (!marker.equals(JsonFormat.COUNTER)) {
                throw tokens.errorAt(markerAt, "a column's fifth element is a ttl or \"" + JsonFormat.COUNTER + "\"; found \""
                        + marker + "\"");
            }
            if (value.length != 8) throw tokens.errorAt(valueAt, "a counter's value is its count as 8 bytes; found " + value.length);
            if (!metadata.isCounter()) {
                throw tokens.errorAt(markerAt, "a counter in " + metadata.name() + ", which is not a counter column family");
            }
            tokens.expect(']', "']' closing the counter");
            return Column.counter(name, ByteBuffer.wrap(value).getLong(), timestamp);
        }
        if (!deleted && metadata.isCounter()) {
            throw tokens.errorAt(valueAt, "a column in " + metadata.name() + ", which holds counters only (a counter is"
                    + " [name, count, timestamp, false, \"" + JsonFormat.COUNTER + "\"])");
        }
        if (more) { // an expiring column: [name, value, timestamp, false, ttl, expiration]
            long ttl = tokens.integer("the column's ttl (seconds)");
            long ttlAt = tokens.mark();
            if (ttl <= 0 || ttl > Integer.MAX_VALUE) throw tokens.errorAt(ttlAt, "a ttl is a positive number of seconds; found " + ttl);
            tokens.expect(',', "',' after the column's ttl");
            long expiresAt = tokens.integer("the column's local expiration time (seconds since the epoch)");
            long expiresAtMark = tokens.mark();
            if (expiresAt < 0 || expiresAt > Integer.MAX_VALUE) {
                throw tokens.errorAt(expiresAtMark, "an expiration time is 0 to " + Integer.MAX_VALUE + " seconds; found " + expiresAt);
            }
            tokens.expect(']', "']' closing the expiring column");
            return Column.expiring(name, value, timestamp, (int) ttl, (int) expiresAt);
        }
        if (!tokens.consumeIf(']')) {
            if (tokens.peek() == ',') {
                throw tokens.error("a deleted column has four elements [name, value, timestamp, true]; this one has more");
            }
            tokens.expect(']', "']' closing the column");
        }
        if (!deleted) return Column.live(name, value, timestamp);
        if (value.length != 4) {
            throw tokens.errorAt(valueAt, "a deleted column's value is its local deletion time, 4 bytes; found " + value.length);
        }
        int deletionTime = ((value[0] & 0xff) << 24) | ((value[1] & 0xff) << 16) | ((value[2] & 0xff) << 8) | (value[3] & 0xff);
        return Column.tombstone(name, timestamp, deletionTime);
    }

    private byte[] name(String hexName, long at, String what, AbstractType comparator) throws BadJson {
        byte[] name = hex(hexName, at, what);
        if (name.length == 0) throw tokens.errorAt(at, what + " must not be empty");
        if (name.length > MAX_NAME_LENGTH) {
            throw tokens.errorAt(at, what + " of " + name.length + " bytes; at most " + MAX_NAME_LENGTH);
        }
        try {
            comparator.validate(name);
        } catch (MarshalException e) {
            throw tokens.errorAt(at, what + " " + hexName + " is not valid for " + comparator.className() + ": " + e.getMessage());
        }
        return name;
    }

    private byte[] hex(String hex, long at, String what) throws BadJson {
        try {
            return HEX.parseHex(hex);
        } catch (IllegalArgumentException e) {
            throw tokens.errorAt(at, what + " \"" + shorten(hex) + "\" is not hex (pairs of digits 0-9, a-f)");
        }
    }

    private void checkKey(String rowKey) throws BadJson {
        if (rowKey.isEmpty()) throw tokens.error("a row key must not be empty");
        long length = JsonFormat.modifiedUtf8Length(rowKey);
        if (length > MAX_NAME_LENGTH) {
            throw tokens.error("row key " + quoted(rowKey) + " is " + length + " bytes in modified UTF-8; at most "
                    + MAX_NAME_LENGTH);
        }
    }

    private static String shorten(String s) {
        return s.length() <= 40 ? s : s.substring(0, 37) + "...";
    }

    /** A key for an error message: short, and escaped as in the file, so the message stays one line. */
    private static String quoted(String key) {
        StringBuilder s = new StringBuilder();
        JsonFormat.appendQuoted(s, shorten(key));
        return s.toString();
    }

    /** A tombstone's two fields, in either order, each at most once. */
    private final class TombstoneFields {
        private Long markedForDeleteAt;
        private Integer localDeletionTime;

        static boolean isField(String field) {
            return field.equals(JsonFormat.DELETED_AT) || field.equals(JsonFormat.LOCAL_DELETION_TIME);
        }

        /** Reads the field's value if it is one of the two (its name at {@code at}); false for any other field. */
        boolean read(String field, long at) throws IOException, BadJson {
            if (field.equals(JsonFormat.DELETED_AT)) {
                if (markedForDeleteAt != null) throw tokens.errorAt(at, "\"deletedAt\" given twice");
                markedForDeleteAt = tokens.integer("the tombstone's timestamp (deletedAt)");
                return true;
            }
            if (field.equals(JsonFormat.LOCAL_DELETION_TIME)) {
                if (localDeletionTime != null) throw tokens.errorAt(at, "\"localDeletionTime\" given twice");
                long seconds = tokens.integer("the tombstone's local deletion time in seconds");
                if (seconds < Integer.MIN_VALUE || seconds > Integer.MAX_VALUE) {
                    throw tokens.error("localDeletionTime " + seconds + " does not fit 32 bits");
                }
                localDeletionTime = (int) seconds;
                return true;
            }
            return false;
        }

        interface Target {
            void delete(long timestamp, int deletionTime);
        }

        /** 0.6 wrote deletedAt Long.MIN_VALUE for "not deleted", and no local deletion time at all. */
        void applyTo(Target target, String what) throws BadJson {
            if (markedForDeleteAt == null || markedForDeleteAt == Long.MIN_VALUE) {
                if (localDeletionTime != null) throw tokens.error(what + " has a localDeletionTime but no deletedAt");
                return;
            }
            target.delete(markedForDeleteAt, localDeletionTime == null ? nowSeconds : localDeletionTime);
        }
    }
}
