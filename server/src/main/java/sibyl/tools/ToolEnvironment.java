package sibyl.tools;

import java.nio.file.Path;

/** What the offline tools take from their surroundings, as bin/server does: the install and the configuration. */
final class ToolEnvironment {
    private ToolEnvironment() {
    }

    /**
     * Sends what the SSTable classes log to stderr, warnings only: a tool's standard output is
     * its result. Call first in main, before any class that logs is loaded.
     */
    static void quietLogging() {
        if (System.getProperty("logback.configurationFile") == null) {
            System.setProperty("logback.configurationFile", "sibyl-tools-logback.xml");
        }
    }

    /** The install directory (bin/ scripts set sibyl.home), against which relative directories resolve. */
    static Path home() {
        return Path.of(System.getProperty("sibyl.home", ".")).toAbsolutePath().normalize();
    }

    /** The configuration directory: {@code --conf DIR} when given, else $SIBYL_CONF, else conf/ of the install. */
    static Path conf(String given) {
        if (given != null) return Path.of(given).toAbsolutePath().normalize();
        String env = System.getenv("SIBYL_CONF");
        return env != null && !env.isEmpty() ? Path.of(env).toAbsolutePath().normalize() : home().resolve("conf");
    }
}
