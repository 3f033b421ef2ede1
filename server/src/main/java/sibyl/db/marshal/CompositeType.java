package sibyl.db.marshal;

import java.nio.ByteBuffer;
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
