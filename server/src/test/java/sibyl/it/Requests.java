package sibyl.it;

import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import org.apache.cassandra.thrift.Column;
import org.apache.cassandra.thrift.ColumnOrSuperColumn;
import org.apache.cassandra.thrift.ColumnParent;
import org.apache.cassandra.thrift.ColumnPath;
import org.apache.cassandra.thrift.Deletion;
import org.apache.cassandra.thrift.InvalidRequestException;
import org.apache.cassandra.thrift.KeyRange;
import org.apache.cassandra.thrift.KeySlice;
import org.apache.cassandra.thrift.Mutation;
import org.apache.cassandra.thrift.SlicePredicate;
import org.apache.cassandra.thrift.SliceRange;
import org.apache.cassandra.thrift.SuperColumn;
import org.junit.jupiter.api.function.Executable;

/** Short builders for the generated 0.6 structs, and readers for their answers. */
final class Requests {
    private Requests() {
    }

    // ---- bytes

    static ByteBuffer b(String text) {
        return ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
    }

    static ByteBuffer b(byte... bytes) {
        return ByteBuffer.wrap(bytes);
    }

    static ByteBuffer longName(long n) {
        return ByteBuffer.allocate(8).putLong(0, n);
    }

    static ByteBuffer uuid(UUID u) {
        return ByteBuffer.allocate(16).putLong(0, u.getMostSignificantBits()).putLong(8, u.getLeastSignificantBits());
    }

    /** A version 1 UUID whose 60-bit timestamp is {@code time}, with the given node bits. */
    static UUID timeUuid(long time, long node) {
        long msb = (time & 0xFFFF_FFFFL) << 32 | ((time >>> 32) & 0xFFFF) << 16 | 0x1000 | ((time >>> 48) & 0x0FFF);
        return new UUID(msb, 0x8000_0000_0000_0000L | (node & 0x3FFF_FFFF_FFFF_FFFFL));
    }

    static String text(ByteBuffer b) {
        return StandardCharsets.UTF_8.decode(b.duplicate()).toString();
    }

    static String hex(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return HexFormat.of().formatHex(out);
    }

    // ---- structs

    static Column column(String name, String value, long ts) {
        return new Column(b(name), b(value), ts);
    }

    static Column column(ByteBuffer name, String value, long ts) {
        return new Column(name, b(value), ts);
    }

    static SuperColumn superColumn(String name, Column... columns) {
        return new SuperColumn(b(name), new ArrayList<>(Arrays.asList(columns)));
    }

    static ColumnOrSuperColumn cosc(Column c) {
        return new ColumnOrSuperColumn().setColumn(c);
    }

    static ColumnOrSuperColumn cosc(SuperColumn sc) {
        return new ColumnOrSuperColumn().setSuper_column(sc);
    }

    static ColumnPath path(String cf) {
        return new ColumnPath(cf);
    }

    static ColumnPath path(String cf, String column) {
        return new ColumnPath(cf).setColumn(b(column));
    }

    static ColumnPath path(String cf, String superColumn, String column) {
        ColumnPath p = new ColumnPath(cf).setSuper_column(b(superColumn));
        return column == null ? p : p.setColumn(b(column));
    }

    static ColumnParent parent(String cf) {
        return new ColumnParent(cf);
    }

    static ColumnParent parent(String cf, String superColumn) {
        return new ColumnParent(cf).setSuper_column(b(superColumn));
    }

    static SlicePredicate names(String... names) {
        List<ByteBuffer> list = new ArrayList<>();
        for (String n : names) list.add(b(n));
        return new SlicePredicate().setColumn_names(list);
    }

    static SlicePredicate nameBuffers(ByteBuffer... names) {
        return new SlicePredicate().setColumn_names(new ArrayList<>(Arrays.asList(names)));
    }

    static SlicePredicate range(String start, String finish, boolean reversed, int count) {
        return range(b(start), b(finish), reversed, count);
    }

    static SlicePredicate range(ByteBuffer start, ByteBuffer finish, boolean reversed, int count) {
        return new SlicePredicate().setSlice_range(new SliceRange(start, finish, reversed, count));
    }

    /** Every column, in comparator order. */
    static SlicePredicate all() {
        return range("", "", false, 10_000);
    }

    static KeyRange keys(String start, String end, int count) {
        return new KeyRange(count).setStart_key(start).setEnd_key(end);
    }

    static KeyRange tokens(String start, String end, int count) {
        return new KeyRange(count).setStart_token(start).setEnd_token(end);
    }

    static Mutation insertion(Column c) {
        return new Mutation().setColumn_or_supercolumn(cosc(c));
    }

    static Mutation insertion(SuperColumn sc) {
        return new Mutation().setColumn_or_supercolumn(cosc(sc));
    }

    static Mutation deletion(long ts, String superColumn, SlicePredicate predicate) {
        Deletion d = new Deletion(ts);
        if (superColumn != null) d.setSuper_column(b(superColumn));
        if (predicate != null) d.setPredicate(predicate);
        return new Mutation().setDeletion(d);
    }

    // ---- answers

    /** The names of a slice's columns or super columns, as text. */
    static List<String> namesOf(List<ColumnOrSuperColumn> slice) {
        List<String> out = new ArrayList<>();
        for (ColumnOrSuperColumn c : slice) {
            out.add(text(c.isSetColumn() ? c.getColumn().bufferForName() : c.getSuper_column().bufferForName()));
        }
        return out;
    }

    /** The names of a slice's columns or super columns, as hex. */
    static List<String> hexNamesOf(List<ColumnOrSuperColumn> slice) {
        List<String> out = new ArrayList<>();
        for (ColumnOrSuperColumn c : slice) {
            out.add(hex(c.isSetColumn() ? c.getColumn().bufferForName() : c.getSuper_column().bufferForName()));
        }
        return out;
    }

    static List<String> keysOf(List<KeySlice> rows) {
        return rows.stream().map(KeySlice::getKey).toList();
    }

    /** The {@code why} of the InvalidRequestException {@code call} must throw. */
    static String why(Executable call) {
        return assertThrows(InvalidRequestException.class, call).getWhy();
    }
}
