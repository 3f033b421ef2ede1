package sibyl.config;

import java.util.Map;
import java.util.Objects;
import java.util.function.BiFunction;
import java.util.function.Function;
import sibyl.config.Setting.Absent;

/**
 * One setting of a {@code <ColumnFamily>}, declared once: its attribute name, how it is read (and
 * so the refusal a bad value gets), what stands when it is absent, its value in
 * {@link ColumnFamilyConf}, and what a reload does with a change to it. {@link ColumnFamilyReader},
 * {@link ConfigDiff} and docs/configuration.md §Column families follow from the ordered list of
 * these in {@link ColumnFamilySettings}. Immutable; compared by identity.
 *
 * @param <T> the value's type in {@link ColumnFamilyConf}
 */
public final class ColumnFamilyAttribute<T> {
    private final String name;
    private final Absent absent;
    private final OnReload onReload;
    private final String reason;
    private final Reader<T> reader;
    private final Function<ColumnFamilyConf, T> value;
    private final Function<T, Object> shown;
    private final BiFunction<Object, Object, String> change;
    private final boolean element;

    /** What a reload does when the attribute's value differs from the running one. */
    public enum OnReload {
        /** The column family's name: what the comparison goes by, never a change of one column family. */
        KEY,
        /** Applied while the node runs. */
        LIVE,
        /** Refused: the stored rows depend on it (a restart does not help either). */
        REFUSED
    }

    /** Reads the attribute from its {@code <ColumnFamily>}, given the attributes read before it. */
    @FunctionalInterface
    interface Reader<T> {
        T read(ConfigNode columnFamily, Map<ColumnFamilyAttribute<?>, Object> earlier) throws ConfigurationException;
    }

    private ColumnFamilyAttribute(String name, Absent absent, OnReload onReload, String reason, Reader<T> reader,
                                  Function<ColumnFamilyConf, T> value, Function<T, Object> shown,
                                  BiFunction<Object, Object, String> change, boolean element) {
        this.name = Objects.requireNonNull(name, "name");
        this.absent = Objects.requireNonNull(absent, "absent");
        this.onReload = Objects.requireNonNull(onReload, "onReload");
        this.reason = reason;
        this.reader = Objects.requireNonNull(reader, "reader");
        this.value = Objects.requireNonNull(value, "value");
        this.shown = shown;
        this.change = change;
        this.element = element;
    }

    /** The name, which identifies the column family in its keyspace. */
    static <T> ColumnFamilyAttribute<T> key(String name, Reader<T> reader, Function<ColumnFamilyConf, T> value) {
        return new ColumnFamilyAttribute<>(name, Absent.required("required attribute is missing"), OnReload.KEY,
                null, reader, value, v -> v, null, false);
    }

    /** An attribute whose change a reload refuses, saying {@code why}; its values shown as {@code shown} gives them. */
    static <T> ColumnFamilyAttribute<T> refused(String name, Absent absent, String why, Reader<T> reader,
                                                Function<ColumnFamilyConf, T> value, Function<T, Object> shown) {
        return new ColumnFamilyAttribute<>(name, absent, OnReload.REFUSED, Objects.requireNonNull(why, "why"), reader,
                value, shown, null, false);
    }

    /** An attribute a reload applies live; the change is shown as {@code changed from X to Y} and {@code note}. */
    static <T> ColumnFamilyAttribute<T> live(String name, Absent absent, String note, Reader<T> reader,
                                             Function<ColumnFamilyConf, T> value) {
        return new ColumnFamilyAttribute<>(name, absent, OnReload.LIVE, null, reader, value, v -> v,
                (was, is) -> ConfigDiff.changed(was, is) + note, false);
    }

    /** This attribute given as a child element rather than an attribute, its change described as {@code change} says. */
    ColumnFamilyAttribute<T> asElement(BiFunction<Object, Object, String> change) {
        return new ColumnFamilyAttribute<>(name, absent, onReload, reason, reader, value, shown, change, true);
    }

    public String name() {
        return name;
    }

    public Absent absent() {
        return absent;
    }

    public OnReload onReload() {
        return onReload;
    }

    /** Why a reload refuses a change, as the refusal says it. */
    String reason() {
        return Objects.requireNonNull(reason, () -> name + " is not refused on reload");
    }

    /** Where the attribute sits: {@code .../ColumnFamily[@Name='CF']/@Name}, or {@code .../Comment} for the element. */
    String path(String keyspace, String columnFamily) {
        return element ? ElementPath.columnFamily(keyspace, columnFamily) + "/" + name
                : ElementPath.columnFamilyAttribute(keyspace, columnFamily, name);
    }

    T read(ConfigNode columnFamily, Map<ColumnFamilyAttribute<?>, Object> earlier) throws ConfigurationException {
        return reader.read(columnFamily, earlier);
    }

    /** The attribute's value in {@code conf}, as a reload's refusal shows it. */
    Object shownIn(ColumnFamilyConf conf) {
        T v = value.apply(conf);
        return v == null ? null : shown.apply(v);
    }

    /** How a reload reports the change from {@code was}'s value to {@code is}'s. */
    String change(ColumnFamilyConf was, ColumnFamilyConf is) {
        return change.apply(value.apply(was), value.apply(is));
    }

    /** Whether the two configurations give it different values. */
    boolean differs(ColumnFamilyConf was, ColumnFamilyConf is) {
        return !Objects.equals(value.apply(was), value.apply(is));
    }

    @Override
    public String toString() {
        return name;
    }
}
