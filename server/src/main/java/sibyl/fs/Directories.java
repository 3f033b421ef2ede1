package sibyl.fs;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Directories that survive a power cut. Creating a directory or renaming a file changes only the
 * parent directory's entries, which the operating system may keep in memory until that directory
 * itself is synced: a node that deletes commit log segments once their data sits in a directory it
 * just created, or that renames a token file into place, must sync the parent before it relies on
 * the change.
 */
public final class Directories {
    private Directories() {
    }

    /**
     * Creates {@code directory} and any missing parents, syncing the parent of each directory
     * created (outermost first), so every one of them is on disk when this returns. An existing
     * directory is left alone.
     *
     * @throws IOException when a directory cannot be created or synced, or the path names a file
     */
    public static void createDurably(Path directory) throws IOException {
        Path absolute = directory.toAbsolutePath();
        Deque<Path> missing = new ArrayDeque<>();
        for (Path p = absolute; p != null && !Files.isDirectory(p); p = p.getParent()) missing.push(p);
        while (!missing.isEmpty()) {
            Path dir = missing.pop();
            try {
                Files.createDirectory(dir);
            } catch (FileAlreadyExistsException e) {
                if (!Files.isDirectory(dir)) throw e;
                // Another thread or process made it; it syncs the parent, but syncing twice is harmless.
            }
            sync(dir.getParent());
        }
    }

    /** Syncs a directory's entries (files created, renamed or deleted in it) to disk. */
    public static void sync(Path directory) throws IOException {
        try (FileChannel dir = FileChannel.open(directory, StandardOpenOption.READ)) {
            dir.force(true);
        }
    }
}
