package sibyl.db.marshal;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Names made of components, each {@code <type part><2-byte length><value><end-of-component byte>}, where the type
 * part is empty for {@link CompositeType} (the i-th component has the i-th type) and names the type for
 * {@link DynamicCompositeType}. The end-of-component byte is 0 in a stored name; a slice bound sets the last one to
 * -1 (sorts before every name with that prefix) or 1 (after every one). Order, validation and texts are Cassandra
 * 3.11's (docs/semantics.md §Composite names): component by component, then by end-of-component byte, then the
 * shorter name first; the empty name before every other.
 */
public abstract class AbstractCompositeType extends UniformlyCheckedType {
    /** A component's type, and where its value's length begins. */
    record Part(AbstractType type, int valueAt) {
    }

    /** Skips a static-column prefix where this kind of composite has one; returns where the components begin. */
    abstract int start(byte[] name);

    /** The type of component {@code i} that begins at {@code at} of {@code name}, assumed valid. */
    abstract Part part(int i, byte[] name, int at);

    /** As {@link #part}, for a name not yet known valid: refuses a missing or unknown type with 3.11's words. */
    abstract Part checkedPart(int i, ByteBuffer name, int at);

    /** The text 3.11 puts before a component's value in {@link #getString}: nothing, or its type and {@code @}. */
    abstract String prefix(byte[] name, int at, Part part);

    /**
     * The type that compares component {@code i} of two names whose types may differ: {@code null} where they
     * differ, which orders the names by {@link #typeOrder}.
     */
    AbstractType comparatorFor(Part a, Part b) {
        return a.type();
    }

    /** The order of two names whose component types differ (only {@link DynamicCompositeType}'s can). */
    int typeOrder(Part a, Part b) {
        return 0;
    }

    @Override
    public int compare(byte[] a, byte[] b) {
        if (a.length == 0 || b.length == 0) return Integer.compare(a.length == 0 ? 0 : 1, b.length == 0 ? 0 : 1);
        int sa = start(a);
        int sb = start(b);
        if ((sa == 0) != (sb == 0)) return sa != 0 ? -1 : 1; // a static name first
        int i = 0;
        while (sa < a.length && sb < b.length) {
            Part pa = part(i, a, sa);
            Part pb = part(i, b, sb);
            AbstractType type = comparatorFor(pa, pb);
            if (type == null) return typeOrder(pa, pb);
            int la = length(a, pa.valueAt());
            int lb = length(b, pb.valueAt());
            int va = pa.valueAt() + 2;
            int vb = pb.valueAt() + 2;
            int c = type.compare(Arrays.copyOfRange(a, va, va + la), Arrays.copyOfRange(b, vb, vb + lb));
            if (c != 0) return c;
            byte ea = a[va + la];
            byte eb = b[vb + lb];
            if (ea != eb) return ea - eb;
            sa = va + la + 1;
            sb = vb + lb + 1;
            i++;
        }
        if (sa >= a.length) return sb >= b.length ? 0 : -1;
        return 1;
    }

    @Override
    public void conform(ByteBuffer value) {
        int at = value.position() + start(remainingBytes(value));
        int end = value.limit();
        int i = 0;
        while (at < end) {
            Part part = checkedPart(i, value, at);
            at = part.valueAt();
            if (end - at < 2) throw new MarshalException("Not enough bytes to read value size of component " + i);
            int length = value.getShort(at) & 0xffff;
            at += 2;
            if (end - at < length) throw new MarshalException("Not enough bytes to read value of component " + i);
            part.type().conform(value.slice(at, length));
            at += length;
            if (at == end) {
                throw new MarshalException("Not enough bytes to read the end-of-component byte of component" + i);
            }
            byte eoc = value.get(at++);
            if (eoc != 0 && at != end) {
                throw new MarshalException("Invalid bytes remaining after an end-of-component at component" + i);
            }
            i++;
        }
    }

    /**
     * 3.11's text: components joined by {@code :} (a {@code :} inside one escaped), each after its
     * {@link #prefix}; a last end-of-component byte of -1 adds {@code :_}, of 1 {@code :!}.
     */
    @Override
    public String getString(byte[] name) {
        validate(name);
        StringBuilder text = new StringBuilder();
        int at = start(name);
        int i = 0;
        while (at < name.length) {
            if (i > 0 || at > 0) text.append(':');
            Part part = part(i, name, at);
            text.append(prefix(name, at, part));
            int length = length(name, part.valueAt());
            int v = part.valueAt() + 2;
            text.append(escape(part.type().getString(Arrays.copyOfRange(name, v, v + length))));
            byte eoc = name[v + length];
            at = v + length + 1;
            if (eoc != 0) {
                text.append(eoc < 0 ? ":_" : ":!");
                break;
            }
            i++;
        }
        return text.toString();
    }

    static int length(byte[] name, int at) {
        return ((name[at] & 0xff) << 8) | (name[at + 1] & 0xff);
    }

    private static byte[] remainingBytes(ByteBuffer value) {
        byte[] bytes = new byte[Math.min(2, value.remaining())];
        value.get(value.position(), bytes);
        return bytes;
    }

    private static String escape(String component) {
        if (component.isEmpty()) return component;
        String escaped = component.replace(":", "\\:");
        char last = escaped.charAt(escaped.length() - 1);
        return last == '\\' || last == '!' ? escaped + '!' : escaped;
    }
}
