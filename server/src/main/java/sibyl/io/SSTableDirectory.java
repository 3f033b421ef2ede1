package sibyl.io;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import sibyl.fs.Directories;

/**
 * The SSTables of keyspace directories: listing them (of both formats, as {@link DataFileInventory}
 * tells them apart), deleting, linking and naming new ones.
 */
public final class SSTableDirectory {
    private SSTableDirectory() {
    }

    /**
     * Deletes an SSTable's files. Sibyl's: Statistics first, since without it the rest is an incomplete SSTable
     * that start-up recognises as Sibyl's leftover and removes, so a crash half-way through leaves nothing that
     * looks alive. Cassandra 0.6's: first Sibyl's marker ({@link CompactedMarker}, unless one is there already),
     * synced, so a crash before the end leaves a table start-up does not load and finishes deleting; then Data,
     * Index and Filter, synced; then the marker, synced. Missing components are skipped.
     */
    public static void delete(Descriptor descriptor) throws IOException {
        if (descriptor.format() == SSTableFormat.SIBYL) {
            Files.deleteIfExists(descriptor.path(Component.STATISTICS));
            for (Component c : Component.values()) Files.deleteIfExists(descriptor.path(c));
            return;
        }
        Path marker = CompactedMarker.path(descriptor);
        if (!Files.exists(marker)
                || CompactedMarker.read(marker, descriptor.generation()).writer() != CompactedMarker.Writer.SIBYL) {
            CompactedMarker.write(descriptor, List.of(descriptor.generation()), "an SSTable of Sibyl's");
            Directories.sync(descriptor.directory());
        }
        for (Component c : descriptor.components()) Files.deleteIfExists(descriptor.path(c));
        Directories.sync(descriptor.directory());
        Files.deleteIfExists(marker);
        Directories.sync(descriptor.directory());
    }

    /**
     * Marks Cassandra 0.6 SSTables of a compaction or scrub whose output is durable as replaced, so that they
     * are not loaded at the next start even if their files outlive a crash (see {@link CompactedMarker}).
     * Sibyl's own SSTables in {@code sstables} need no mark and get none. Call before the output takes their
     * place.
     *
     * @param by the replacing SSTable, or null when nothing survived the compaction
     * @throws MarkersLeftException when marking failed and some markers could not be taken back: keep the output
     * @throws IOException          when marking failed and nothing of it is left
     */
    public static void markReplaced(List<Descriptor> sstables, Descriptor by) throws IOException {
        String into = by == null ? "nothing" : by.columnFamily() + "-" + by.generation();
        Map<String, List<Descriptor>> byColumnFamily = new HashMap<>();
        for (Descriptor d : sstables) {
            if (d.format() == SSTableFormat.CASSANDRA_06) {
                byColumnFamily.computeIfAbsent(d.columnFamily(), k -> new ArrayList<>()).add(d);
            }
        }
        for (List<Descriptor> same : byColumnFamily.values()) CompactedMarker.writeAll(same, into);
    }

    /**
     * Hard-links every component of a complete SSTable into {@code target}, an existing directory
     * on the same file system, under the same names: Sibyl's with Statistics last, so the links too
     * make a complete SSTable exactly when its Statistics link exists; Cassandra 0.6's with Data
     * last, as 0.6 renamed them. Components the SSTable lacks (an optional Summary) are skipped.
     * The caller keeps the SSTable from being deleted meanwhile (holds a reference to its reader).
     *
     * @return the number of files linked
     */
    public static int link(Descriptor descriptor, Path target) throws IOException {
        Component last = descriptor.format() == SSTableFormat.SIBYL ? Component.STATISTICS : Component.DATA;
        int linked = 0;
        for (Component c : descriptor.components()) {
            if (c == last || !Files.exists(descriptor.path(c))) continue;
            Files.createLink(target.resolve(descriptor.path(c).getFileName()), descriptor.path(c));
            linked++;
        }
        Path lastPath = descriptor.path(last);
        Files.createLink(target.resolve(lastPath.getFileName()), lastPath);
        return linked + 1;
    }

    /**
     * Moves the components of {@code descriptor} into {@code target} (a directory of the same file system) under
     * their own names, the one written last (Statistics of Sibyl's, Data of 0.6's) last: until then the SSTable left
     * behind still reads as complete, so a crash midway leaves every byte in one of the two places, none deleted.
     *
     * @return components moved
     */
    public static int move(Descriptor descriptor, Path target) throws IOException {
        Component last = descriptor.format() == SSTableFormat.SIBYL ? Component.STATISTICS : Component.DATA;
        int moved = 0;
        for (Component c : descriptor.components()) {
            if (c == last || !Files.exists(descriptor.path(c))) continue;
            Files.move(descriptor.path(c), target.resolve(descriptor.path(c).getFileName()));
            moved++;
        }
        Path lastPath = descriptor.path(last);
        Files.move(lastPath, target.resolve(lastPath.getFileName()));
        return moved + 1;
    }

    /**
     * The SSTables of {@code columnFamily} in {@code directory}, of both formats, oldest generation first, as
     * {@link DataFileInventory} tells them from the files' content: complete ones, none marked replaced.
     * What start-up would refuse is not listed.
     */
    public static List<Descriptor> list(Path directory, String columnFamily) throws IOException {
        return DataFileInventory.take(List.of(directory), Set.of(columnFamily), Set.of()).sstables(columnFamily);
    }

    /**
     * The SSTable {@code file} is a component of, in its format, as {@link #list} finds it.
     *
     * @throws IOException saying what the file is instead
     */
    public static Descriptor identify(Path file) throws IOException {
        Path name = file.getFileName();
        DataFileName parsed = name == null ? new DataFileName.Unknown(null) : DataFileName.ofFile(name.toString());
        if (!(parsed instanceof DataFileName.Part part)) {
            throw new IOException(file + " is not an SSTable file (such as Standard1-1-Data.db)");
        }
        Path directory = file.toAbsolutePath().getParent();
        DataFileInventory inventory = DataFileInventory.take(List.of(directory), Set.of(part.columnFamily()), Set.of());
        for (Descriptor d : inventory.sstables(part.columnFamily())) {
            if (d.generation() == part.generation()) return d;
        }
        for (Descriptor d : inventory.superseded()) {
            if (d.generation() == part.generation()) {
                throw new IOException(file + " is part of an SSTable a compaction replaced (its rows are in that"
                        + " compaction's output; the next start deletes it)");
            }
        }
        String prefix = part.columnFamily() + "-" + part.generation() + "-";
        if (Files.exists(directory.resolve(prefix + DataFileName.COMPACTED))) {
            throw new IOException(file + " is part of an SSTable marked replaced by compaction ("
                    + directory.resolve(prefix + DataFileName.COMPACTED) + ")");
        }
        List<DataFileInventory.Finding> findings = new ArrayList<>(inventory.unrecognised());
        findings.addAll(inventory.ignored());
        findings.addAll(inventory.leftovers());
        for (DataFileInventory.Finding f : findings) {
            if (f.file().getFileName().toString().startsWith(prefix)) {
                throw new IOException(file + " is not part of an SSTable Sibyl can read: " + f);
            }
        }
        throw new IOException(file + " is not part of a complete SSTable");
    }

    /**
     * The highest generation of any SSTable file in {@code directory}, of either format, temporary or not,
     * or of a compaction marker; -1 if none.
     */
    public static int highestGeneration(Path directory) throws IOException {
        int highest = -1;
        if (!Files.isDirectory(directory)) return highest;
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory)) {
            for (Path file : files) highest = Math.max(highest, DataFileName.ofFile(file.getFileName().toString()).generation());
        }
        return highest;
    }

    /**
     * Whether a writer holds that generation of the column family in any of {@code directories}, as writers claim
     * one: by creating its temporary Data file first, exclusively, and by renaming components into place later.
     * Cassandra 0.6's files count too (its SSTables, its temporary files, its and Sibyl's compaction markers):
     * they share the names. The node's key cache tells a column family's SSTables apart by generation alone, so
     * every directory counts.
     */
    public static boolean generationInUse(List<Path> directories, String columnFamily, int generation) {
        for (Path dir : directories) {
            Descriptor d = new Descriptor(dir, columnFamily, generation);
            if (Files.exists(d.temporaryPath(Component.DATA))) return true;
            for (Component c : Component.values()) {
                if (Files.exists(d.path(c))) return true;
            }
            if (Files.exists(CompactedMarker.path(d)) || Files.exists(CompactedMarker.temporaryPath(d))) return true;
            for (Component c : SSTableFormat.CASSANDRA_06.components()) {
                if (Files.exists(dir.resolve(columnFamily + "-tmp-" + generation + "-" + c.suffix()))) return true;
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
