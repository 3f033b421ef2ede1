package sibyl.io;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sibyl.fs.Directories;

/**
 * One snapshot being made in one keyspace directory, as 0.6 laid them out:
 * {@code <DataFileDirectory>/<Keyspace>/snapshots/<name>/} holds hard links to SSTable components
 * under their own names. Links are made in {@code snapshots/tmp-<name>/}, which is renamed to
 * its final name once every link is in, so a snapshot directory under its final name is always
 * complete; {@link #abort} deletes the temporary one. Snapshot names begin with a digit (the
 * time), so no snapshot is ever called {@code tmp-...}.
 *
 * <p>A hard link shares the file's data: a snapshot costs directory entries, not a copy, and
 * keeps the SSTable's bytes alive after compaction deletes its own name for them.
 */
public final class SnapshotDirectory {
    private static final Logger log = LoggerFactory.getLogger(SnapshotDirectory.class);
    /** The directory of a keyspace directory that holds its snapshots. */
    public static final String SNAPSHOTS = "snapshots";
    private static final String TEMPORARY_PREFIX = "tmp-";

    private final Path temporary;
    private final Path target;

    private SnapshotDirectory(Path temporary, Path target) {
        this.temporary = temporary;
        this.target = target;
    }

    /**
     * Starts the snapshot {@code name} in {@code keyspaceDirectory}: creates its temporary
     * directory.
     *
     * @throws IOException when a snapshot of that name exists there already, or the directory
     *                     cannot be created (a full disk), saying which and why
     */
    public static SnapshotDirectory begin(Path keyspaceDirectory, String name) throws IOException {
        Path snapshots = keyspaceDirectory.resolve(SNAPSHOTS);
        Path target = snapshots.resolve(name);
        if (Files.exists(target)) throw new IOException("a snapshot " + target + " exists already");
        Path temporary = snapshots.resolve(TEMPORARY_PREFIX + name);
        try {
            Directories.createDurably(snapshots);
            Files.createDirectory(temporary);
        } catch (IOException e) {
            throw new IOException("could not create " + temporary + ": " + reason(e), e);
        }
        return new SnapshotDirectory(temporary, target);
    }

    /** Links the components of a complete SSTable of this keyspace directory into the snapshot. */
    public void add(Descriptor sstable) throws IOException {
        try {
            SSTableDirectory.link(sstable, temporary);
        } catch (IOException e) {
            throw new IOException("could not link " + sstable + " into " + temporary + ": " + reason(e), e);
        }
    }

    /** Gives the snapshot its final name, durably; returns its directory. */
    public Path commit() throws IOException {
        try {
            SSTableWriter.syncDirectory(temporary);
            Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE);
            SSTableWriter.syncDirectory(target.getParent());
        } catch (IOException e) {
            throw new IOException("could not rename " + temporary + " to " + target + ": " + reason(e), e);
        }
        return target;
    }

    /**
     * Moves every SSTable of {@code sstables} (of this keyspace directory) into the new snapshot {@code name} of
     * {@code keyspaceDirectory}: a column family dropped by API keeps its data so (docs/configuration.md §Keyspaces
     * made by API). Made under its final name, not a temporary one, since start-up deletes temporary snapshot
     * directories and these hold the only copy; the directories are synced once every file is in.
     *
     * @return the snapshot's directory
     * @throws IOException naming the file that could not be moved; those moved before stay in the snapshot
     */
    public static Path moveInto(Path keyspaceDirectory, String name, List<Descriptor> sstables) throws IOException {
        Path snapshots = keyspaceDirectory.resolve(SNAPSHOTS);
        Path target = snapshots.resolve(name);
        if (Files.exists(target)) throw new IOException("a snapshot " + target + " exists already");
        Directories.createDurably(target);
        try {
            for (Descriptor d : sstables) SSTableDirectory.move(d, target);
        } catch (IOException e) {
            throw new IOException("could not move an SSTable into " + target + ": " + reason(e), e);
        } finally {
            SSTableWriter.syncDirectory(target);
            SSTableWriter.syncDirectory(keyspaceDirectory);
        }
        return target;
    }

    /** Deletes the temporary directory and its links (not the SSTables they link to). Never throws. */
    public void abort() {
        try {
            deleteTree(temporary);
        } catch (IOException e) {
            log.warn("Could not delete the unfinished snapshot {}: {}", temporary, reason(e));
        }
    }

    /**
     * Deletes the snapshots of {@code keyspaceDirectory} whose names {@code which} accepts, and
     * the snapshots directory once it is empty.
     *
     * @return the snapshot directories deleted
     */
    public static List<Path> clear(Path keyspaceDirectory, Predicate<String> which) throws IOException {
        List<Path> cleared = new ArrayList<>();
        Path snapshots = keyspaceDirectory.resolve(SNAPSHOTS);
        if (!Files.isDirectory(snapshots)) return cleared;
        try (DirectoryStream<Path> all = Files.newDirectoryStream(snapshots)) {
            for (Path snapshot : all) {
                String name = snapshot.getFileName().toString();
                if (Files.isDirectory(snapshot) && !name.startsWith(TEMPORARY_PREFIX) && which.test(name)) {
                    deleteTree(snapshot);
                    cleared.add(snapshot);
                }
            }
        }
        try (Stream<Path> left = Files.list(snapshots)) {
            if (left.findAny().isEmpty()) Files.delete(snapshots);
        }
        return cleared;
    }

    /** Deletes the temporary directories of snapshots a crash interrupted. Before any snapshot starts. */
    public static void removeLeftovers(Path keyspaceDirectory) throws IOException {
        Path snapshots = keyspaceDirectory.resolve(SNAPSHOTS);
        if (!Files.isDirectory(snapshots)) return;
        try (DirectoryStream<Path> all = Files.newDirectoryStream(snapshots, TEMPORARY_PREFIX + "*")) {
            for (Path leftover : all) {
                deleteTree(leftover);
                log.info("Removed the unfinished snapshot {}", leftover);
            }
        }
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) return;
        try (Stream<Path> files = Files.walk(root)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
        }
    }

    /** "No space left on device" rather than the paths again; the kind of failure when that is all there is. */
    private static String reason(IOException e) {
        if (e instanceof FileSystemException f) {
            return f.getReason() != null ? f.getReason() : f.getClass().getSimpleName() + ": " + f.getFile();
        }
        return e.getMessage() == null ? e.toString() : e.getMessage();
    }
}
