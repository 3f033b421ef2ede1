package sibyl.tools;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import sibyl.io.Component;
import sibyl.io.DataFileInventory;
import sibyl.io.DataFileInventory.Finding;
import sibyl.io.Descriptor;
import sibyl.io.SSTableDirectory;

/**
 * The SSTables of one column family that bin/sstableloader reads, found from the directories and files its
 * command line names, as {@link DataFileInventory} recognises files (by name, then by content): Sibyl's and
 * Cassandra 0.6's. Only reads: nothing is renamed, written or deleted, Sibyl's own leftovers included.
 *
 * <p>Copies from several nodes reuse generations, so an SSTable is known by its Data file's path, never by
 * its generation. In a directory, files of other column families are passed over, as are files that the node
 * itself would not load (what Cassandra 0.6 marked compacted, its temporary and orphaned files, Sibyl's
 * leftovers of interrupted writes, 0.6 SSTables Sibyl's compaction replaced): {@link #skipped} names them. Any
 * other file is refused, as is a named file that is no complete SSTable of the column family, before anything
 * is opened.
 */
final class LoadInputs {
    private final List<Descriptor> sstables;
    private final List<Finding> skipped;
    private final List<Finding> empty;

    private LoadInputs(List<Descriptor> sstables, List<Finding> skipped, List<Finding> empty) {
        this.sstables = List.copyOf(sstables);
        this.skipped = List.copyOf(skipped);
        this.empty = List.copyOf(empty);
    }

    /**
     * The SSTables of {@code columnFamily} that {@code given} names: every one in a directory, or the one a file
     * is part of (any of its components names it). The same SSTable named twice counts once.
     *
     * @throws ToolError naming every file that is not part of an SSTable of the column family that can be read
     */
    static LoadInputs find(List<Path> given, String columnFamily) throws ToolError {
        Map<Path, Descriptor> found = new LinkedHashMap<>();
        List<Finding> skipped = new ArrayList<>();
        List<String> refused = new ArrayList<>();
        List<Finding> empty = new ArrayList<>();
        for (Path path : given) {
            if (Files.isDirectory(path)) {
                inDirectory(path, columnFamily, found, skipped, refused, empty);
            } else if (Files.exists(path)) {
                named(path, columnFamily, found, refused);
            } else {
                refused.add(path + ": no such file or directory");
            }
        }
        if (!refused.isEmpty()) {
            StringBuilder m = new StringBuilder(refused.size() == 1 ? "a file given is" : refused.size() + " files given are")
                    .append(" not part of an SSTable of ").append(columnFamily)
                    .append(" that can be read; nothing was sent:");
            for (String r : refused) m.append("\n  ").append(r);
            throw new ToolError(m.toString());
        }
        return new LoadInputs(new ArrayList<>(found.values()), skipped, empty);
    }

    private static void inDirectory(Path dir, String columnFamily, Map<Path, Descriptor> found, List<Finding> skipped,
                                    List<String> refused, List<Finding> empty) throws ToolError {
        DataFileInventory inventory;
        try {
            inventory = DataFileInventory.take(List.of(dir), Set.of(columnFamily), Set.of());
        } catch (IOException e) {
            throw new ToolError("cannot list " + dir + ": " + e.getMessage(), e);
        }
        for (Finding f : inventory.unrecognised()) {
            refused.add(f.file() + ": " + (Files.isDirectory(f.file())
                    ? "a directory; name the directories that hold the SSTables (a node's DataFileDirectory/KEYSPACE)"
                    : f.what().replace("; move it out of the data directory", "")
                            .replace(", or move it out of the data directory", "")));
        }
        int skippedBefore = skipped.size();
        skipped.addAll(inventory.ignored());
        skipped.addAll(inventory.leftovers());
        for (Descriptor d : inventory.replaced()) {
            skipped.add(new Finding(d.path(Component.DATA), "a Cassandra 0.6 SSTable Sibyl's compaction replaced"
                    + " (its rows are in that compaction's output)"));
        }
        for (Descriptor d : inventory.superseded()) {
            skipped.add(new Finding(d.path(Component.DATA), "an SSTable a compaction replaced before a crash kept it"
                    + " from being deleted (its rows are in that compaction's output)"));
        }
        List<Descriptor> sstables = inventory.sstables(columnFamily);
        if (sstables.isEmpty() && inventory.unrecognised().isEmpty() && skipped.size() == skippedBefore) {
            empty.add(new Finding(dir, nothingIn(dir, columnFamily)));
        }
        for (Descriptor d : sstables) add(d, found);
    }

    /** Why a directory holds nothing to load: perhaps it is the one above the SSTables' (a DataFileDirectory). */
    private static String nothingIn(Path dir, String columnFamily) throws ToolError {
        List<String> below = new ArrayList<>();
        try (var entries = Files.newDirectoryStream(dir, Files::isDirectory)) {
            for (Path p : entries) {
                if (!p.getFileName().toString().equals("snapshots")) below.add(p.toString());
            }
        } catch (IOException e) {
            throw new ToolError("cannot list " + dir + ": " + e.getMessage(), e);
        }
        below.sort(null);
        return "holds no SSTable of " + columnFamily + (below.isEmpty() ? ""
                : " (to load those of a keyspace directory under it, name that directory: " + String.join(", ", below)
                + ")");
    }

    private static void named(Path file, String columnFamily, Map<Path, Descriptor> found, List<String> refused)
            throws ToolError {
        Descriptor d;
        try {
            d = SSTableDirectory.identify(file); // its message names the file and says what it is
        } catch (IOException e) {
            refused.add(e.getMessage() == null ? file + ": " + e : e.getMessage());
            return;
        }
        if (!d.columnFamily().equals(columnFamily)) {
            refused.add(file + ": part of an SSTable of column family " + d.columnFamily() + ", not of " + columnFamily);
            return;
        }
        add(d, found);
    }

    private static void add(Descriptor d, Map<Path, Descriptor> found) throws ToolError {
        Path data = d.path(Component.DATA);
        try {
            found.putIfAbsent(data.toRealPath(), d);
        } catch (IOException e) {
            throw new ToolError("cannot resolve " + data + ": " + e.getMessage(), e);
        }
    }

    /** The SSTables to read, in the order the command line named them (a directory's oldest generation first). */
    List<Descriptor> sstables() {
        return sstables;
    }

    /** Files in the directories given that are passed over, and why. */
    List<Finding> skipped() {
        return skipped;
    }

    /** Directories given that hold no file of the column family at all, and what to do. */
    List<Finding> empty() {
        return empty;
    }
}
