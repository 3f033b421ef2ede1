package sibyl.config;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.stream.Collectors;
import sibyl.config.Setting.Absent;

/**
 * One setting inside a structured element of storage-conf.xml, declared once: an attribute of a
 * {@code <ColumnFamily>}, a child of a {@code <Keyspace>} or of Sibyl's {@code <Cluster>}. It
 * holds its name and whether it is an attribute or a child element, how it is read (and so the
 * refusal a bad value gets), what stands when it is absent, its value in the element's record,
 * and what a reload does with a change to it. The readers, {@link ConfigDiff} and the tables of
 * docs/configuration.md follow from the ordered lists of these in {@link ColumnFamilySettings},
 * {@link KeyspaceSettings} and {@link ClusterSettings}. Immutable; compared by identity.
 *
 * @param <C> the record the element is read into, e.g. {@link ColumnFamilyConf}
 * @param <T> the setting's value in that record
 */
public final class ChildSetting<C, T> {
    private final String name;
    private final boolean attribute;
    private final Absent absent;
    private final OnChange onChange;
    private final Reader<T> reader;
    private final Parser<T> parser;
    private final Function<C, T> value;
    private final Function<T, Object> shown;
    private final BiFunction<T, T, String> change;

    /** What a reload does when the setting's value differs from the running one. */
    public enum OnReload {
        /** The element's name: what the comparison goes by, never a change of one element. */
        KEY,
        /** Applied while the node runs. */
        LIVE,
        /** Refused: what is stored depends on it, so a restart does not help either. */
        REFUSED,
        /** Refused: the node takes it only when it starts. */
        RESTART,
        /** A structure of its own, which {@link ConfigDiff} compares part by part. */
        BY_PART
    }

    /**
     * What a reload does with a change, and the words it adds: the reason of a refusal, or the
     * note after a live change's {@code changed from X to Y}.
     */
    record OnChange(OnReload onReload, String words) {
        OnChange {
            Objects.requireNonNull(onReload, "onReload");
            boolean refused = onReload == OnReload.REFUSED || onReload == OnReload.RESTART;
            if (refused || onReload == OnReload.LIVE) Objects.requireNonNull(words, "words");
        }

        static OnChange key() {
            return new OnChange(OnReload.KEY, null);
        }

        static OnChange live(String note) {
            return new OnChange(OnReload.LIVE, note);
        }

        static OnChange refused(String why) {
            return new OnChange(OnReload.REFUSED, why);
        }

        static OnChange restart(String why) {
            return new OnChange(OnReload.RESTART, why);
        }

        static OnChange byPart() {
            return new OnChange(OnReload.BY_PART, null);
        }
    }

    /** Reads the setting from its element, given the settings read before it. */
    @FunctionalInterface
    interface Reader<T> {
        T read(ConfigNode parent, ChildValues earlier) throws ConfigurationException;
    }

    /** Turns the child element's text into its value, refusing text the node cannot run with. */
    @FunctionalInterface
    interface Parser<T> {
        T parse(ConfigValue value, ChildValues earlier) throws ConfigurationException;
    }

    private ChildSetting(String name, boolean attribute, Absent absent, OnChange onChange, Reader<T> reader,
                         Parser<T> parser, Function<C, T> value, Function<T, Object> shown,
                         BiFunction<T, T, String> change) {
        this.name = Objects.requireNonNull(name, "name");
        this.attribute = attribute;
        this.absent = Objects.requireNonNull(absent, "absent");
        this.onChange = Objects.requireNonNull(onChange, "onChange");
        this.reader = reader;
        this.parser = parser;
        this.value = Objects.requireNonNull(value, "value");
        this.shown = Objects.requireNonNull(shown, "shown");
        this.change = change;
        if ((reader == null) == (parser == null)) {
            throw new IllegalArgumentException(name + " is read by a reader or by a parser");
        }
    }

    /** The name attribute, which identifies the element among its siblings. */
    static <C, T> ChildSetting<C, T> key(String name, Reader<T> reader, Function<C, T> value) {
        return new ChildSetting<>(name, true, Absent.required("required attribute is missing"), OnChange.key(),
                reader, null, value, v -> v, null);
    }

    /** An attribute read by {@code reader} as a whole; {@code absent} describes what it does without one. */
    static <C, T> ChildSetting<C, T> attribute(String name, Absent absent, OnChange onChange, Reader<T> reader,
                                               Function<C, T> value) {
        return new ChildSetting<>(name, true, absent, onChange, reader, null, value, v -> v, null);
    }

    /** A child element read by {@code reader} as a whole (a list, a structure, a value that depends on others). */
    static <C, T> ChildSetting<C, T> element(String name, Absent absent, OnChange onChange, Reader<T> reader,
                                             Function<C, T> value) {
        return new ChildSetting<>(name, false, absent, onChange, reader, null, value, v -> v, null);
    }

    /** A child element whose text {@code parser} reads; when it is absent, {@code absent} stands. */
    static <C, T> ChildSetting<C, T> parsed(String name, Absent absent, OnChange onChange, Parser<T> parser,
                                            Function<C, T> value) {
        return new ChildSetting<>(name, false, absent, onChange, null, parser, value, v -> v, null);
    }

    /** This setting given as a child element rather than an attribute. */
    ChildSetting<C, T> asElement() {
        return new ChildSetting<>(name, false, absent, onChange, reader, parser, value, shown, change);
    }

    /** This setting, its values shown in changes and refusals as {@code shown} gives them. */
    ChildSetting<C, T> shownAs(Function<T, Object> shown) {
        return new ChildSetting<>(name, attribute, absent, onChange, reader, parser, value, shown, change);
    }

    /** This setting, a change to it described as {@code change} says (a secret's without its values). */
    ChildSetting<C, T> describedAs(BiFunction<T, T, String> change) {
        return new ChildSetting<>(name, attribute, absent, onChange, reader, parser, value, shown, change);
    }

    public String name() {
        return name;
    }

    /** Whether it is an attribute of its element; otherwise it is a child element. */
    public boolean isAttribute() {
        return attribute;
    }

    public Absent absent() {
        return absent;
    }

    public OnReload onReload() {
        return onChange.onReload();
    }

    /** Why a reload refuses a change, as the refusal says it. */
    String reason() {
        if (onReload() != OnReload.REFUSED && onReload() != OnReload.RESTART) {
            throw new IllegalStateException(name + " is not refused on reload");
        }
        return onChange.words();
    }

    /** Where the setting sits below {@code parent}: {@code parent/@Name}, or {@code parent/Comment} for an element. */
    String path(String parent) {
        return parent + "/" + step();
    }

    private String step() {
        return attribute ? "@" + name : name;
    }

    /** Reads the setting from {@code parent}, as the element's reader does; the value may be null when it has none. */
    T read(ConfigNode parent, ChildValues earlier) throws ConfigurationException {
        if (reader != null) {
            return reader.read(parent, earlier);
        }
        Optional<ConfigValue> text = parent.value(name); // only child elements are declared with a parser
        if (text.isPresent()) {
            return parser.parse(text.get(), earlier);
        }
        if (absent instanceof Absent.Required required) {
            throw parent.error(step(), required.problem());
        }
        if (absent instanceof Absent.Default given) {
            return parser.parse(new ConfigValue(parent.file(), path(parent.path()), given.text()), earlier);
        }
        return null;
    }

    /** How a reload reports the change from {@code was}'s value to {@code is}'s (a refusal adds the reason). */
    String change(C was, C is) {
        T before = value.apply(was);
        T after = value.apply(is);
        if (change != null) return change.apply(before, after);
        String changed = ConfigDiff.changed(shown(before), shown(after));
        return onReload() == OnReload.LIVE ? changed + onChange.words() : changed;
    }

    private Object shown(T v) {
        return v == null ? null : shown.apply(v);
    }

    /** Whether the two records give it different values. */
    boolean differs(C was, C is) {
        return !Objects.equals(value.apply(was), value.apply(is));
    }

    /** The names of the child elements among {@code settings}: what their element knows. */
    static Set<String> elements(List<? extends ChildSetting<?, ?>> settings) {
        return settings.stream().filter(s -> !s.isAttribute()).map(ChildSetting::name)
                .collect(Collectors.toUnmodifiableSet());
    }

    /** The names of the attributes among {@code settings}. */
    static Set<String> attributes(List<? extends ChildSetting<?, ?>> settings) {
        return settings.stream().filter(ChildSetting::isAttribute).map(ChildSetting::name)
                .collect(Collectors.toUnmodifiableSet());
    }

    @Override
    public String toString() {
        return name;
    }
}
