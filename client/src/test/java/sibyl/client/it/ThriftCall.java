package sibyl.client.it;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.CRC32;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.cassandra.thrift.Column;
import org.apache.cassandra.thrift.ColumnOrSuperColumn;
import org.apache.cassandra.thrift.ColumnParent;
import org.apache.cassandra.thrift.ColumnPath;
import org.apache.cassandra.thrift.InvalidRequestException;
import org.apache.cassandra.thrift.KeyRange;
import org.apache.cassandra.thrift.KeySlice;
import org.apache.cassandra.thrift.SlicePredicate;
import org.apache.cassandra.thrift.SuperColumn;
import org.apache.thrift.TApplicationException;
import org.apache.thrift.TException;
import org.apache.thrift.transport.TTransportException;

/**
 * One call of the Thrift API, described so that a reader can repeat it, and its answer as text: the same
 * answer in shape and order gives the same text, and an exception gives its class and message, so two
 * servers' answers are compared as strings. A reversed slice carries a {@link ReversedSliceCheck}, a slice with a
 * count over the rows of a super column family a {@link SuperCountCheck}; other calls have null for them.
 */
record ThriftCall(String description, Invocation invocation, ReversedSliceCheck reversedSlice, SuperCountCheck superCount) {
    /** A call that no check explains a difference of. */
    ThriftCall(String description, Invocation invocation) {
        this(description, invocation, null, null);
    }

    interface Invocation {
        /** Makes the call; its answer as text. */
        String call(Cassandra.Client client) throws TException;
    }

    /**
     * The answer of {@code client}, or the exception it answered with as {@code !Class: message}.
     *
     * @throws TTransportException when the connection failed: the server is gone, and no answer can be compared
     */
    String answer(Cassandra.Client client) throws TTransportException {
        try {
            return invocation.call(client);
        } catch (TTransportException e) {
            throw e;
        } catch (InvalidRequestException e) {
            return "!InvalidRequestException: " + e.getWhy();
        } catch (TApplicationException e) {
            return "!TApplicationException(type " + e.getType() + "): " + e.getMessage();
        } catch (TException e) {
            return "!" + e.getClass().getSimpleName() + ": " + (e.getMessage() == null ? "" : e.getMessage());
        }
    }

    // ---- answers as text

    private static final HexFormat HEX = HexFormat.of();

    static String cells(List<ColumnOrSuperColumn> cells) {
        StringBuilder out = new StringBuilder("[");
        for (ColumnOrSuperColumn cell : cells) {
            if (out.length() > 1) out.append(", ");
            out.append(cell(cell));
        }
        return out.append(']').toString();
    }

    static String cell(ColumnOrSuperColumn cell) {
        StringBuilder out = new StringBuilder();
        if (cell.isSetColumn()) out.append(column(cell.getColumn()));
        if (cell.isSetSuper_column()) {
            if (out.length() > 0) out.append(" & ");
            SuperColumn sc = cell.getSuper_column();
            out.append("S(").append(hex(sc.getName())).append(" [");
            for (int i = 0; i < sc.getColumnsSize(); i++) {
                if (i > 0) out.append(", ");
                out.append(column(sc.getColumns().get(i)));
            }
            out.append("])");
        }
        return out.length() == 0 ? "(empty ColumnOrSuperColumn)" : out.toString();
    }

    private static String column(Column c) {
        return "C(" + hex(c.getName()) + "=" + value(c.getValue()) + " @" + c.getTimestamp() + ")";
    }

    /** Short values in full, long ones by length and checksum (a report stays readable; a difference still shows). */
    private static String value(byte[] v) {
        if (v == null) return "null";
        if (v.length <= 24) return hex(v);
        CRC32 crc = new CRC32();
        crc.update(v);
        return v.length + "B:" + Long.toHexString(crc.getValue());
    }

    static String keySlices(List<KeySlice> rows) {
        StringBuilder out = new StringBuilder();
        for (KeySlice row : rows) out.append(key(row.getKey())).append(' ').append(cells(row.getColumns())).append('\n');
        return out.append(rows.size()).append(" rows").toString();
    }

    /** A map answer (multiget_slice, multiget) by key order: a Thrift map has no order of its own. */
    static <V> String byKey(Map<String, V> answer, java.util.function.Function<V, String> value) {
        StringBuilder out = new StringBuilder();
        for (Map.Entry<String, V> e : new TreeMap<>(answer).entrySet()) {
            out.append(key(e.getKey())).append(" -> ").append(e.getValue() == null ? "null" : value.apply(e.getValue())).append('\n');
        }
        return out.append(answer.size()).append(" keys").toString();
    }

    // ---- calls as text

    static String hex(byte[] b) {
        return b == null ? "null" : HEX.formatHex(b);
    }

    static String hex(ByteBuffer b) {
        if (b == null) return "null";
        byte[] copy = new byte[b.remaining()];
        b.duplicate().get(copy);
        return HEX.formatHex(copy);
    }

    /** A key as a Java string literal, so that it can be pasted into a test. */
    static String key(String key) {
        if (key == null) return "null";
        StringBuilder out = new StringBuilder("\"");
        for (char c : key.toCharArray()) {
            if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') out.append(c);
            else out.append(String.format("\\u%04x", (int) c));
        }
        return out.append('"').toString();
    }

    static String parent(ColumnParent p) {
        return p.getColumn_family() + (p.isSetSuper_column() ? "/sc=" + hex(p.getSuper_column()) : "");
    }

    static String path(ColumnPath p) {
        return p.getColumn_family() + (p.isSetSuper_column() ? "/sc=" + hex(p.getSuper_column()) : "")
                + (p.isSetColumn() ? "/c=" + hex(p.getColumn()) : "");
    }

    static String predicate(SlicePredicate p) {
        StringBuilder out = new StringBuilder();
        if (p.isSetColumn_names()) {
            out.append("names[");
            for (int i = 0; i < p.getColumn_namesSize(); i++) out.append(i > 0 ? "," : "").append(hex(p.getColumn_names().get(i)));
            out.append(']');
        }
        if (p.isSetSlice_range()) {
            var r = p.getSlice_range();
            out.append("range[").append(hex(r.bufferForStart())).append("..").append(hex(r.bufferForFinish()))
                    .append(r.isReversed() ? " reversed" : "").append(" count=").append(r.getCount()).append(']');
        }
        return out.length() == 0 ? "(empty predicate)" : out.toString();
    }

    static String range(KeyRange r) {
        StringBuilder out = new StringBuilder();
        if (r.isSetStart_key() || r.isSetEnd_key()) out.append("keys ").append(key(r.getStart_key())).append("..").append(key(r.getEnd_key()));
        if (r.isSetStart_token() || r.isSetEnd_token()) {
            out.append(out.length() > 0 ? " " : "").append("tokens (").append(r.getStart_token()).append("..").append(r.getEnd_token()).append(']');
        }
        return out.append(" count=").append(r.getCount()).toString();
    }

    static String utf8(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }
}
