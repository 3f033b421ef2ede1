package sibyl.db.marshal;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A composite of a fixed list of types: component i has type i; a name may have fewer components (a prefix) but
 * not more. A name that begins with the two bytes {@code FF FF} is a static column's and sorts first, as in 3.11.
 */
public final class CompositeType extends AbstractCompositeType {
    private static final int STATIC_MARKER = 0xffff;

    private final List<AbstractType> types;

    public CompositeType(List<AbstractType> types) {
        this.types = List.copyOf(types);
    }

    public List<AbstractType> types() {
        return types;
    }

    /**
     * A name taken apart: its components' values in order, the end-of-component byte of the last one (0 in a stored
     * name; -1 or 1 in a slice bound), and whether it began with the static marker.
     */
    public record Components(List<byte[]> values, byte endOfComponent, boolean isStatic) {
    }

    /** The components of a name {@link #conform} has accepted; the empty name has none. */
    public Components components(byte[] name) {
        int first = start(name);
        int at = first;
        List<byte[]> values = new ArrayList<>(types.size());
        byte eoc = 0;
        while (at < name.length) {
            int length = length(name, at);
            values.add(Arrays.copyOfRange(name, at + 2, at + 2 + length));
            eoc = name[at + 2 + length];
            at += 3 + length;
        }
        return new Components(values, eoc, first > 0);
    }

    /** The stored name of these components' values: each with its length and an end-of-component byte of 0. */
    public static byte[] name(List<byte[]> values) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] v : values) {
            if (v.length > 0xffff) throw new MarshalException("a component of " + v.length + " bytes is too long");
            out.write(v.length >> 8);
            out.write(v.length);
            out.writeBytes(v);
            out.write(0);
        }
        return out.toByteArray();
    }

    @Override
    int start(byte[] name) {
        return name.length >= 2 && length(name, 0) == STATIC_MARKER ? 2 : 0;
    }

    @Override
    Part part(int i, byte[] name, int at) {
        return new Part(types.get(i), at);
    }

    @Override
    Part checkedPart(int i, ByteBuffer name, int at) {
        if (i >= types.size()) throw new MarshalException("Too many bytes for comparator");
        return new Part(types.get(i), at);
    }

    @Override
    String prefix(byte[] name, int at, Part part) {
        return "";
    }

    @Override
    public String className() {
        return types.stream().map(AbstractType::className)
                .collect(Collectors.joining(",", PACKAGE + ".CompositeType(", ")"));
    }
}
