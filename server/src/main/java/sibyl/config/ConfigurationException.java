package sibyl.config;

import java.nio.file.Path;

/**
 * storage-conf.xml cannot be used as written. The message always names the file, the offending
 * element (an XPath-like path such as {@code Storage/CommitLogSync} or
 * {@code Storage/Keyspaces/Keyspace[@Name='Twitter']/ColumnFamily[@Name='Foo']/@CompareWith}) and
 * the problem, so a user can fix the file without reading code.
 */
public final class ConfigurationException extends Exception {
    private static final long serialVersionUID = 1L;

    private final transient Path file;
    private final String element;
    private final String problem;

    /**
     * @param file the configuration file as it was given to the loader
     * @param element where in the file; for problems with the file as a whole (not found, not
     *     well-formed) a position such as {@code line 3, column 7}, or empty when there is none
     * @param problem what is wrong, in words a user can act on
     */
    public ConfigurationException(Path file, String element, String problem) {
        this(file, element, problem, null);
    }

    public ConfigurationException(Path file, String element, String problem, Throwable cause) {
        super(format(file, element, problem), cause);
        this.file = file;
        this.element = element;
        this.problem = problem;
    }

    private static String format(Path file, String element, String problem) {
        return element.isEmpty() ? file + ": " + problem : file + ": " + element + ": " + problem;
    }

    public Path file() {
        return file;
    }

    public String element() {
        return element;
    }

    public String problem() {
        return problem;
    }
}
