package sibyl.db.marshal;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A composite whose every component names its own type: a 2-byte header whose top bit set means an alias (its low
 * byte, one of the aliases this comparator was defined with), and otherwise gives the length of the type's name
 * that follows (short or full, with parameters). Components of different types order by their types' class names,
 * the short name first, as 3.11 orders them.
 */
public final class DynamicCompositeType extends AbstractCompositeType {
    private final Map<Byte, AbstractType> aliases;

    /** @param aliases in the order the type string gives them */
    public DynamicCompositeType(Map<Byte, AbstractType> aliases) {
        this.aliases = Collections.unmodifiableMap(new LinkedHashMap<>(aliases));
    }

    public Map<Byte, AbstractType> aliases() {
        return aliases;
    }

    @Override
    int start(byte[] name) {
        return 0;
    }

    @Override
    Part part(int i, byte[] name, int at) {
        int header = length(name, at);
        if ((header & 0x8000) != 0) return new Part(aliases.get((byte) header), at + 2);
        String typeName = new String(name, at + 2, header, StandardCharsets.UTF_8);
        return new Part(TypeParser.parse(typeName), at + 2 + header);
    }

    @Override
    Part checkedPart(int i, ByteBuffer name, int at) {
        int end = name.limit();
        if (end - at < 2) {
            throw new MarshalException("Not enough bytes to header of the comparator part of component " + i);
        }
        int header = name.getShort(at) & 0xffff;
        AbstractType type;
        int valueAt;
        if ((header & 0x8000) != 0) {
            type = aliases.get((byte) header);
            valueAt = at + 2;
        } else {
            if (end - at - 2 < header) {
                throw new MarshalException("Not enough bytes to read comparator name of component " + i);
            }
            byte[] typeName = new byte[header];
            name.get(at + 2, typeName);
            type = parseOrNull(typeName);
            valueAt = at + 2 + header;
        }
        if (type == null) throw new MarshalException("Cannot find comparator for component " + i);
        return new Part(type, valueAt);
    }

    private static AbstractType parseOrNull(byte[] typeName) {
        try {
            return TypeParser.parse(StandardCharsets.UTF_8.newDecoder()
                    .decode(ByteBuffer.wrap(typeName)).toString());
        } catch (java.nio.charset.CharacterCodingException | IllegalArgumentException e) {
            return null;
        }
    }

    @Override
    String prefix(byte[] name, int at, Part part) {
        int header = length(name, at);
        if ((header & 0x8000) != 0) return (char) (header & 0xff) + "@";
        return new String(name, at + 2, header, StandardCharsets.UTF_8) + "@";
    }

    @Override
    AbstractType comparatorFor(Part a, Part b) {
        return typeOrder(a, b) == 0 ? a.type() : null;
    }

    /** Reversed types of either side are compared by what they reverse. */
    @Override
    int typeOrder(Part a, Part b) {
        AbstractType ta = a.type();
        AbstractType tb = b.type();
        if (ta instanceof ReversedType ra && tb instanceof ReversedType rb) {
            ta = ra.base();
            tb = rb.base();
        }
        if (ta == tb || ta.className().equals(tb.className())) return 0;
        int c = ta.getClass().getSimpleName().compareTo(tb.getClass().getSimpleName());
        return c != 0 ? Integer.signum(c) : Integer.signum(ta.getClass().getName().compareTo(tb.getClass().getName()));
    }

    /**
     * The aliases in the order 3.11 prints them, which is the order a {@code java.util.HashMap} of them iterates in
     * (3.11 keeps them in one): by hash bucket of the alias byte, and in the order given within a bucket.
     */
    @Override
    public String className() {
        int buckets = 16;
        while (aliases.size() > buckets * 3 / 4) buckets *= 2;
        int mask = buckets - 1;
        List<Map.Entry<Byte, AbstractType>> printed = new ArrayList<>(aliases.entrySet());
        printed.sort(Comparator.comparingInt(e -> {
            int h = e.getKey().hashCode();
            return (h ^ (h >>> 16)) & mask;
        }));
        return printed.stream()
                .map(e -> (char) (e.getKey() & 0xff) + "=>" + e.getValue().className())
                .collect(Collectors.joining(",", PACKAGE + ".DynamicCompositeType(", ")"));
    }
}
