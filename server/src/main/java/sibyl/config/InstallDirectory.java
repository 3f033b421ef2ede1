package sibyl.config;

import java.nio.file.Path;

/**
 * Where Sibyl is installed: the directory holding {@code conf/}, {@code bin/} and {@code var/}.
 * Relative directories in storage-conf.xml are resolved against it, so the shipped configuration
 * works from a fresh checkout.
 */
public final class InstallDirectory {
    private InstallDirectory() {
    }

    /** The parent of the configuration directory, absolute. */
    public static Path ofConfDirectory(Path confDirectory) {
        Path absolute = confDirectory.toAbsolutePath().normalize();
        Path parent = absolute.getParent();
        return parent != null ? parent : absolute;
    }

    /** The parent of the directory holding the configuration file, absolute. */
    public static Path ofConfigFile(Path configFile) {
        Path confDirectory = configFile.toAbsolutePath().normalize().getParent();
        return ofConfDirectory(confDirectory != null ? confDirectory : configFile.toAbsolutePath().getRoot());
    }
}
