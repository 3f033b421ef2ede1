package sibyl;

import java.nio.file.Files;
import java.nio.file.Path;

/** The checkout the tests run in, for tests that hold the code to the project's docs. */
public final class RepositoryRoot {
    private RepositoryRoot() {
    }

    /** The nearest directory at or above the working directory that holds docs/ and a pom.xml. */
    public static Path find() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null
                && !(Files.isDirectory(dir.resolve("docs")) && Files.isRegularFile(dir.resolve("pom.xml")))) {
            dir = dir.getParent();
        }
        if (dir == null) {
            throw new IllegalStateException("no repository root with docs/ above " + Path.of("").toAbsolutePath());
        }
        return dir;
    }
}
