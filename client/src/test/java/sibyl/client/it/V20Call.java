package sibyl.client.it;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;
import org.apache.thrift.TApplicationException;
import org.apache.thrift.TException;
import org.apache.thrift.transport.TTransportException;
import sibyl.iface.v20.Column;
import sibyl.iface.v20.ColumnOrSuperColumn;
import sibyl.iface.v20.ColumnParent;
import sibyl.iface.v20.ColumnPath;
import sibyl.iface.v20.Deletion;
import sibyl.iface.v20.InvalidRequestException;
import sibyl.iface.v20.KeyRange;
import sibyl.iface.v20.KeySlice;
import sibyl.iface.v20.Mutation;
import sibyl.iface.v20.NotFoundException;
import sibyl.iface.v20.SlicePredicate;
import sibyl.iface.v20.SliceRange;
import sibyl.iface.v20.SuperColumn;

/**
 * One call of the 0.7+ Thrift API, described so that a reader can repeat it, and its answer as text: answers equal
 * in shape, order, values and timestamps give the same text, and an exception gives its class and message, so that
 * two servers' answers are compared as strings.
 */
record V20Call(String description, Invocation invocation, Diff07Shape shape) {
    V20Call(String description, Invocation invocation) {
        this(description, invocation, Diff07Shape.NONE);
    }

    interface Invocation {
        /** Makes the call through {@code server}; its answer as text. */
        String call(V20Server server) throws TException;
    }

    /** The text of a call that answers nothing (void). */
    static final String DONE = "ok";

    /**
     * The answer of {@code server}, or the exception it answered with as {@code !Class: message}. A connection the
     * server closed is an answer too ({@code !closed}); the server's connection is opened anew for the next call.
     *
     * @throws TTransportException when the server cannot be reached again: no later answer can be compared
     */
    String answer(V20Server server) throws TException {
        try {
            return invocation.call(server);
        } catch (TTransportException e) {
            server.reconnect();
            return "!closed: the server closed the connection (" + e.getMessage() + ")";
        } catch (TException e) {
            return "!" + refusal(e);
        }
    }

    /** An exception's class and what it says: {@code why}, the type of an application error, or its message. */
    private static String refusal(TException e) {
        String kind = e.getClass().getSimpleName();
        if (e instanceof InvalidRequestException ire) return kind + ": " + ire.getWhy();
        if (e instanceof NotFoundException) return kind;
        if (e instanceof TApplicationException app) return kind + "(type " + app.getType() + "): " + app.getMessage();
        return kind + ": " + (e.getMessage() == null ? "" : e.getMessage());
    }

    // ---- answers as text

    private static final HexFormat HEX = HexFormat.of();

    static String cells(List<ColumnOrSuperColumn> cells) {
        List<String> parts = new ArrayList<>();
        for (ColumnOrSuperColumn cell : cells) parts.add(cell(cell));
        return "[" + String.join(", ", parts) + "]";
    }

    static String cell(ColumnOrSuperColumn cell) {
        List<String> parts = new ArrayList<>();
        if (cell.isSetColumn()) parts.add(column(cell.getColumn()));
        if (cell.isSetSuper_column()) parts.add(superColumn(cell.getSuper_column()));
        if (cell.isSetCounter_column()) parts.add("counter " + cell.getCounter_column());
        if (cell.isSetCounter_super_column()) parts.add("counter super " + cell.getCounter_super_column());
        return parts.isEmpty() ? "(empty ColumnOrSuperColumn)" : String.join(" & ", parts);
    }

    private static String superColumn(SuperColumn sc) {
        List<String> columns = new ArrayList<>();
        for (Column c : sc.getColumns()) columns.add(column(c));
        return "S(" + hex(sc.bufferForName()) + " [" + String.join(", ", columns) + "])";
    }

    static String column(Column c) {
        return "C(" + hex(c.bufferForName()) + "=" + (c.isSetValue() ? value(c.bufferForValue()) : "(no value)")
                + (c.isSetTimestamp() ? " @" + c.getTimestamp() : " (no timestamp)") + (c.isSetTtl() ? " ttl " + c.getTtl() : "") + ")";
    }

    /** Short values in full, long ones by length and checksum (a report stays readable; a difference still shows). */
    static String value(ByteBuffer v) {
        if (v.remaining() <= 24) return hex(v);
        CRC32 crc = new CRC32();
        crc.update(v.duplicate());
        return v.remaining() + "B:" + Long.toHexString(crc.getValue());
    }

    static String keySlices(List<KeySlice> rows) {
        StringBuilder out = new StringBuilder();
        for (KeySlice row : rows) out.append(hex(row.bufferForKey())).append(' ').append(cells(row.getColumns())).append('\n');
        return out.append(rows.size()).append(" rows").toString();
    }

    /** A map answer (multiget_slice, multiget_count) in the order of its keys' text: a Thrift map has none of its own. */
    static <V> String byKey(Map<ByteBuffer, V> answer, java.util.function.Function<V, String> value) {
        java.util.TreeMap<String, String> sorted = new java.util.TreeMap<>();
        answer.forEach((key, v) -> sorted.put(hex(key), v == null ? "null" : value.apply(v)));
        StringBuilder out = new StringBuilder();
        sorted.forEach((key, v) -> out.append(key).append(" -> ").append(v).append('\n'));
        return out.append(answer.size()).append(" keys").toString();
    }

    // ---- calls as text

    static String hex(ByteBuffer b) {
        if (b == null) return "null";
        byte[] copy = new byte[b.remaining()];
        b.duplicate().get(copy);
        return copy.length > 40 ? copy.length + "B:" + HEX.formatHex(copy, 0, 8) + ".." : "0x" + HEX.formatHex(copy);
    }

    static String hex(byte[] b) {
        return b == null ? "null" : hex(ByteBuffer.wrap(b));
    }

    static String keys(List<ByteBuffer> keys) {
        return keys.stream().map(V20Call::hex).toList().toString();
    }

    static String parent(ColumnParent p) {
        return place(p.getColumn_family(), p.bufferForSuper_column(), null);
    }

    static String path(ColumnPath p) {
        return place(p.getColumn_family(), p.bufferForSuper_column(), p.bufferForColumn());
    }

    /** {@code Family/sc=NAME/c=NAME}, the parts that are set. */
    private static String place(String family, ByteBuffer superColumn, ByteBuffer column) {
        return family + (superColumn == null ? "" : "/sc=" + hex(superColumn)) + (column == null ? "" : "/c=" + hex(column));
    }

    static String predicate(SlicePredicate p) {
        if (p == null) return "(no predicate)";
        List<String> parts = new ArrayList<>();
        if (p.isSetColumn_names()) parts.add("names" + keys(p.getColumn_names()));
        if (p.isSetSlice_range()) {
            SliceRange r = p.getSlice_range();
            parts.add("range[" + hex(r.bufferForStart()) + ".." + hex(r.bufferForFinish()) + (r.isReversed() ? " reversed" : "")
                    + " count=" + r.getCount() + "]");
        }
        return parts.isEmpty() ? "(empty predicate)" : String.join(" & ", parts);
    }

    /** A KeyRange's keys and tokens, those that are set, and its count. */
    static String range(KeyRange r) {
        List<String> parts = new ArrayList<>();
        if (r.isSetStart_key() || r.isSetEnd_key()) parts.add("keys " + hex(r.bufferForStart_key()) + ".." + hex(r.bufferForEnd_key()));
        if (r.isSetStart_token() || r.isSetEnd_token()) parts.add("tokens " + r.getStart_token() + ".." + r.getEnd_token());
        parts.add("count=" + r.getCount());
        return String.join(" ", parts);
    }

    static String mutation(Mutation m) {
        List<String> parts = new ArrayList<>();
        if (m.isSetColumn_or_supercolumn()) parts.add("put " + cell(m.getColumn_or_supercolumn()));
        if (m.isSetDeletion()) {
            Deletion d = m.getDeletion();
            parts.add("delete" + (d.isSetTimestamp() ? " @" + d.getTimestamp() : " (no timestamp)")
                    + (d.isSetSuper_column() ? " sc=" + hex(d.bufferForSuper_column()) : "")
                    + (d.isSetPredicate() ? " " + predicate(d.getPredicate()) : ""));
        }
        return parts.isEmpty() ? "(empty Mutation)" : String.join(" & ", parts);
    }
}
