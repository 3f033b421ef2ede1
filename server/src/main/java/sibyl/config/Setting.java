package sibyl.config;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One global element of storage-conf.xml, declared once: its name below {@code <Storage>}, how it
 * is read (and so the refusal a bad value gets), what stands when it is absent, and where it
 * applies, which says whether a reload applies a change live ({@link AppliesTo}). The loader, the
 * {@link StorageConf} view, {@link ConfigDiff} and the tables of docs/configuration.md follow
 * from the ordered list of these in {@link NodeSettings}. Immutable; compared by identity.
 *
 * @param <T> the value's type in {@link StorageConf}
 */
public final class Setting<T> {
    /** Notes about absent elements go to the loader's logger: that is where a user (and a test) looks. */
    private static final Logger log = LoggerFactory.getLogger(StorageConfLoader.class);

    private final String element;
    private final Absent absent;
    private final AppliesTo appliesTo;
    private final Reader<T> reader;
    private final Parser<T> parser;
    private final Function<T, Object> shown;

    /** Reads a setting from {@code <Storage>}, given the settings read before it. */
    @FunctionalInterface
    interface Reader<T> {
        T read(ConfigNode storage, StorageConf.Builder earlier) throws ConfigurationException;
    }

    /** Turns one element's text into its value, refusing text the node cannot run with. */
    @FunctionalInterface
    interface Parser<T> {
        T parse(ConfigValue value, Path installDirectory) throws ConfigurationException;
    }

    private Setting(String element, Absent absent, AppliesTo appliesTo, Reader<T> reader, Parser<T> parser,
                    Function<T, Object> shown) {
        this.element = Objects.requireNonNull(element, "element");
        this.absent = Objects.requireNonNull(absent, "absent");
        this.appliesTo = Objects.requireNonNull(appliesTo, "appliesTo");
        this.reader = reader;
        this.parser = parser;
        this.shown = shown;
    }

    /** An element whose text {@code parser} reads; when it is absent, {@code absent} stands. */
    static <T> Setting<T> parsed(String element, Absent absent, AppliesTo appliesTo, Parser<T> parser) {
        return new Setting<>(element, absent, appliesTo, null, parser, value -> value);
    }

    /**
     * An element read by {@code reader} as a whole (a list, a child structure, or a value that
     * depends on another); {@code absent} only describes what it does without the element.
     */
    static <T> Setting<T> read(String element, Absent absent, AppliesTo appliesTo, Reader<T> reader) {
        return new Setting<>(element, absent, appliesTo, reader, null, value -> value);
    }

    /** A whole number in {@code min..max}. */
    static Setting<Integer> integer(String element, Absent absent, AppliesTo appliesTo, int min, int max) {
        return parsed(element, absent, appliesTo, (value, install) -> value.asInt(min, max));
    }

    /** {@code true} or {@code false}. */
    static Setting<Boolean> bool(String element, Absent absent, AppliesTo appliesTo) {
        return parsed(element, absent, appliesTo, (value, install) -> value.asBoolean());
    }

    /** Free text, as written. */
    static Setting<String> text(String element, Absent absent, AppliesTo appliesTo) {
        return parsed(element, absent, appliesTo, (value, install) -> value.text());
    }

    /** This setting, its values shown in changes and refusals as {@code shown} gives them. */
    Setting<T> shownAs(Function<T, Object> shown) {
        return new Setting<>(element, absent, appliesTo, reader, parser, shown);
    }

    /** The element's name below {@code <Storage>}, e.g. {@code MemtableThroughputInMB}. */
    public String element() {
        return element;
    }

    /** The element's path as messages name it, e.g. {@code Storage/MemtableThroughputInMB}. */
    public String path() {
        return ElementPath.global(element);
    }

    public Absent absent() {
        return absent;
    }

    public AppliesTo appliesTo() {
        return appliesTo;
    }

    /** The value as a reload's change or refusal shows it (a mode by its spelling in the file). */
    Object shown(T value) {
        return value == null ? null : shown.apply(value);
    }

    /** Reads this setting from {@code storage}, as the loader does; the value may be null when it has none. */
    T read(ConfigNode storage, StorageConf.Builder earlier) throws ConfigurationException {
        if (reader != null) {
            return reader.read(storage, earlier);
        }
        Optional<ConfigValue> value = storage.value(element);
        if (value.isPresent()) {
            return parser.parse(value.get(), earlier.installDirectory());
        }
        if (absent instanceof Absent.Required required) {
            throw storage.error(element, required.problem());
        }
        if (absent instanceof Absent.Default given) {
            if (given.note() != null) {
                log.info("{}: " + given.note(), storage.file(), given.text());
            }
            return parser.parse(new ConfigValue(storage.file(), path(), given.text()), earlier.installDirectory());
        }
        return null;
    }

    /**
     * The value a configuration built without a file has: the default's text read as the file's
     * would be, with relative directories under {@code installDirectory}; null when there is none.
     */
    T defaultValue(Path configFile, Path installDirectory) {
        if (!(absent instanceof Absent.Default given) || parser == null) {
            return null;
        }
        try {
            return parser.parse(new ConfigValue(configFile, path(), given.text()), installDirectory);
        } catch (ConfigurationException e) {
            throw new IllegalStateException("the declared default of " + element + " does not read", e);
        }
    }

    @Override
    public String toString() {
        return element;
    }

    /** What stands when a setting is absent (missing, or present with empty text). */
    public sealed interface Absent {
        /**
         * The text the node reads in its place, as the file would give it.
         *
         * @param note logged when the default is used (with the file and the text), or null
         */
        record Default(String text, String note) implements Absent {
            public Default {
                Objects.requireNonNull(text, "text");
            }
        }

        /** The file is refused, with this problem. */
        record Required(String problem) implements Absent {
            public Required {
                Objects.requireNonNull(problem, "problem");
            }
        }

        /** The setting has no value; what that means is the user's of the value to say. */
        record Unset() implements Absent {
        }

        static Absent value(String text) {
            return new Default(text, null);
        }

        static Absent logged(String text, String note) {
            return new Default(text, note);
        }

        static Absent required(String problem) {
            return new Required(problem);
        }

        static Absent unset() {
            return new Unset();
        }
    }
}
