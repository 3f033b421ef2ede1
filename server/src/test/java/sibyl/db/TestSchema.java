package sibyl.db;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import sibyl.db.marshal.BytesType;
import sibyl.db.marshal.LongType;
import sibyl.db.marshal.UTF8Type;

/** Builds fresh stores for tests, and small helpers to write them briefly. */
public final class TestSchema {
    public static final String KS = "Keyspace1";
    public static final String STD = "Standard1";
    public static final String STD2 = "Standard2";
    public static final String LONGS = "StandardLong";
    public static final String SUPER = "Super1";

    private TestSchema() {
    }

    public static KSMetaData keyspace1() {
        return new KSMetaData(KS, 1, List.of(
                CFMetaData.standard(KS, STD, BytesType.instance),
                CFMetaData.standard(KS, STD2, UTF8Type.instance),
                CFMetaData.standard(KS, LONGS, LongType.instance),
                CFMetaData.ofSuper(KS, SUPER, BytesType.instance, BytesType.instance)));
    }


    public static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    public static byte[] l(long v) {
        return ByteBuffer.allocate(8).putLong(v).array();
    }

    public static String s(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }

    /** Names of cells as UTF-8 strings, in result order. */
    public static List<String> names(List<Cell> cells) {
        List<String> r = new ArrayList<>();
        for (Cell c : cells) r.add(s(c.name()));
        return r;
    }

    /** "sc:[a, b]" for super columns, "name" for columns. */
    public static List<String> shape(List<Cell> cells) {
        List<String> r = new ArrayList<>();
        for (Cell c : cells) {
            if (c instanceof SuperColumn sc) {
                List<String> subs = new ArrayList<>();
                for (Column sub : sc.subcolumns()) subs.add(s(sub.name()));
                r.add(s(sc.name()) + ":" + subs);
            } else {
                r.add(s(c.name()));
            }
        }
        return r;
    }

    public static List<String> keys(List<RowSlice> rows) {
        List<String> r = new ArrayList<>();
        for (RowSlice row : rows) r.add(row.key());
        return r;
    }

    public static RowMutation.Builder m(String key) {
        return RowMutation.builder(KS, key);
    }
}
