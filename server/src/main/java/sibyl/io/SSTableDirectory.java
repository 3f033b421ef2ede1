package sibyl.io;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The SSTables of one keyspace directory, as start-up finds them. Not thread-safe with writers
 * in the same directory: call before any flush or compaction starts.
 */
public final class SSTableDirectory {
    private static final Logger log = LoggerFactory.getLogger(SSTableDirectory.class);

    private SSTableDirectory() {
    }

    /**
     * Deletes what an interrupted writer or deletion left behind: every temporary file, and the
     * components of any SSTable whose Statistics component is missing (it is renamed into place
     * last and deleted first, so without it the SSTable never was, or no longer is, complete).
     *
     * @return the files deleted
     */
    public static List<Path> removeLeftovers(Path directory) throws IOException {
        List<Path> removed = new ArrayList<>();
        if (!Files.isDirectory(directory)) return removed;
        Map<Descriptor, Set<Component>> complete = new HashMap<>();
        Map<Descriptor, List<Path>> finalFiles = new HashMap<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory)) {
            for (Path file : files) {
                Descriptor.FileName name = Descriptor.parse(directory, file.getFileName().toString());
                if (name == null) continue;
                if (name.temporary()) {
                    delete(file, removed);
                } else {
                    complete.computeIfAbsent(name.descriptor(), d -> EnumSet.noneOf(Component.class)).add(name.component());
                    finalFiles.computeIfAbsent(name.descriptor(), d -> new ArrayList<>()).add(file);
                }
            }
        }
        for (Map.Entry<Descriptor, Set<Component>> e : complete.entrySet()) {
            if (!e.getValue().contains(Component.STATISTICS)) {
                for (Path file : finalFiles.get(e.getKey())) delete(file, removed);
            }
        }
        return removed;
    }

    /**
     * Deletes the final-named components of an SSTable, Statistics first: without it the rest is
     * an incomplete SSTable that start-up removes, so a crash half-way through leaves nothing
     * that looks alive. Missing components are skipped.
     */
    public static void delete(Descriptor descriptor) throws IOException {
        Files.deleteIfExists(descriptor.path(Component.STATISTICS));
        for (Component c : Component.values()) Files.deleteIfExists(descriptor.path(c));
    }

    /**
     * Hard-links every component of a complete SSTable into {@code target}, an existing directory
     * on the same file system, under the same names; Statistics last, so the links too make a
     * complete SSTable exactly when its Statistics link exists. Components the SSTable lacks
     * (an optional Summary) are skipped. The caller keeps the SSTable from being deleted
     * meanwhile (holds a reference to its reader).
     *
     * @return the number of files linked
     */
    public static int link(Descriptor descriptor, Path target) throws IOException {
        int linked = 0;
        for (Component c : Component.values()) {
            if (c == Component.STATISTICS || !Files.exists(descriptor.path(c))) continue;
            Files.createLink(target.resolve(descriptor.path(c).getFileName()), descriptor.path(c));
            linked++;
        }
        Path statistics = descriptor.path(Component.STATISTICS);
        Files.createLink(target.resolve(statistics.getFileName()), statistics);
        return linked + 1;
    }

    private static void delete(Path file, List<Path> removed) throws IOException {
        Files.deleteIfExists(file);
        removed.add(file);
        log.info("Removed leftover sstable file {}", file);
    }

    /**
     * The complete SSTables of {@code columnFamily} in {@code directory}, oldest generation
     * first. Call {@link #removeLeftovers} first.
     */
    public static List<Descriptor> list(Path directory, String columnFamily) throws IOException {
        List<Descriptor> found = new ArrayList<>();
        if (!Files.isDirectory(directory)) return found;
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory)) {
            for (Path file : files) {
                Descriptor.FileName name = Descriptor.parse(directory, file.getFileName().toString());
                if (name != null && !name.temporary() && name.component() == Component.STATISTICS
                        && name.descriptor().columnFamily().equals(columnFamily)) {
                    found.add(name.descriptor());
                }
            }
        }
        found.sort(Comparator.comparingInt(Descriptor::generation));
        return found;
    }

    /** The highest generation of any SSTable file in {@code directory}, temporary or not; -1 if none. */
    public static int highestGeneration(Path directory) throws IOException {
        int highest = -1;
        if (!Files.isDirectory(directory)) return highest;
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory)) {
            for (Path file : files) {
                Descriptor.FileName name = Descriptor.parse(directory, file.getFileName().toString());
                if (name != null) highest = Math.max(highest, name.descriptor().generation());
            }
        }
        return highest;
    }

    /**
     * Whether a writer holds that generation of the column family in any of {@code directories}, as writers claim
     * one: by creating its temporary Data file first, exclusively, and by renaming components into place later.
     * The node's key cache tells a column family's SSTables apart by generation alone, so every directory counts.
     */
    public static boolean generationInUse(List<Path> directories, String columnFamily, int generation) {
        for (Path dir : directories) {
            Descriptor d = new Descriptor(dir, columnFamily, generation);
            if (Files.exists(d.temporaryPath(Component.DATA))) return true;
            for (Component c : Component.values()) {
                if (Files.exists(d.path(c))) return true;
            }
        }
        return false;
    }

    /** The one of {@code directories} (not empty) with the most usable space, where a new SSTable goes. */
    public static Path roomiest(List<Path> directories) {
        if (directories.size() == 1) return directories.get(0);
        Path best = directories.get(0);
        long bestFree = -1;
        for (Path dir : directories) {
            long free = usableSpace(dir);
            if (free > bestFree) {
                best = dir;
                bestFree = free;
            }
        }
        return best;
    }

    /** The usable space of the file store of {@code dir}, or of its nearest existing parent; 0 if unknown. */
    private static long usableSpace(Path dir) {
        try {
            Path existing = dir;
            while (existing != null && !Files.exists(existing)) existing = existing.getParent();
            return existing == null ? 0 : Files.getFileStore(existing).getUsableSpace();
        } catch (IOException e) {
            return 0;
        }
    }
}
