package sibyl.io;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sibyl.fs.Directories;
import sibyl.fs.ForeignFilesException;

/**
 * Every entry of a keyspace's data directories, recognised by name and content before anything is deleted or
 * opened (FORMAT.md, "Start-up"). An entry is one of:
 * <ul>
 *   <li>an SSTable to open: Sibyl's (its Statistics file begins with Sibyl's magic) or Cassandra 0.6's (Data
 *       and Index files that begin as 0.6 writes them, and no marker);</li>
 *   <li>a leftover of Sibyl's own, which {@link #cleanUp} deletes: a {@code tmp-} file, or a final-named
 *       component whose content is Sibyl's (a checksummed first unit, a magic number) but that is not part of a
 *       complete SSTable (an interrupted rename or deletion) — never a file merely missing a companion;</li>
 *   <li>a Cassandra 0.6 SSTable Sibyl's compaction replaced ({@link CompactedMarker}), whose deletion
 *       {@link #cleanUp} finishes;</li>
 *   <li>an SSTable of Sibyl's that a compaction's or scrub's output lists as replaced
 *       ({@link SSTableMetadata#replaces}) but a crash kept from being deleted: not loaded, since its rows are
 *       in that output, and deleted by {@link #cleanUp};</li>
 *   <li>something of Cassandra 0.6's that 0.6 itself would not have read: its temporary files, SSTables it
 *       marked compacted, index and filter files without data ("orphans"), empty files. Left as they are, and
 *       logged;</li>
 *   <li>Sibyl's {@code snapshots} directory, files the caller names (the node's token), and anything of a
 *       column family that is not configured: left alone;</li>
 *   <li>anything else — a later Cassandra's SSTables, unknown files — which {@link #refuseUnrecognised}
 *       turns into one error naming each of them.</li>
 * </ul>
 * Taking the inventory reads and changes nothing else, so a start that is refused deletes nothing.
 */
public final class DataFileInventory {
    /**
     * The name prefix of the directories bin/json2sstable sorts its input in, beside the SSTable it writes: hidden
     * from the node, which recognises them and leaves them alone.
     */
    public static final String IMPORT_WORK_PREFIX = ".json2sstable-";
    private static final Logger log = LoggerFactory.getLogger(DataFileInventory.class);

    /** A file and what it is, in a message's words. */
    public record Finding(Path file, String what) {
        @Override
        public String toString() {
            return file + ": " + what;
        }
    }

    /** The files of one generation of one column family in one directory. */
    private static final class Group {
        final Path directory;
        final String columnFamily;
        final int generation;
        final Map<Component, Path> parts = new EnumMap<>(Component.class);
        Path marker;

        Group(Path directory, String columnFamily, int generation) {
            this.directory = directory;
            this.columnFamily = columnFamily;
            this.generation = generation;
        }
    }

    private record GroupKey(Path directory, String columnFamily, int generation) {
    }

    private final Map<String, List<Descriptor>> sstables = new HashMap<>();
    private final List<Finding> leftovers = new ArrayList<>();
    private final List<Descriptor> replaced = new ArrayList<>();
    private final List<Descriptor> superseded = new ArrayList<>();
    private final Map<Descriptor, Set<Integer>> replacedAlong = new HashMap<>();
    private final List<Finding> ignored = new ArrayList<>();
    private final Map<String, List<Path>> unconfigured = new TreeMap<>();
    private final List<Finding> unrecognised = new ArrayList<>();
    private final List<Path> directories;
    private int highestGeneration = -1;
    private boolean cleaned;

    private DataFileInventory(List<Path> directories) {
        this.directories = List.copyOf(directories);
    }

    /**
     * Takes the inventory of {@code directories} (missing ones hold nothing).
     *
     * @param columnFamilies the column families configured in the keyspace; files of others are left alone
     * @param othersFiles    names of files in these directories that other parts of the node keep (the token)
     */
    public static DataFileInventory take(List<Path> directories, Set<String> columnFamilies, Set<String> othersFiles)
            throws IOException {
        DataFileInventory inventory = new DataFileInventory(directories);
        Map<GroupKey, Group> groups = new LinkedHashMap<>();
        for (Path dir : directories) inventory.list(dir, columnFamilies, othersFiles, groups);
        Map<String, Set<Integer>> replacedGenerations = new HashMap<>();
        Map<Descriptor, SSTableMetadata> statistics = new HashMap<>();
        for (Group g : groups.values()) {
            try {
                inventory.resolve(g, replacedGenerations, statistics);
            } catch (NoSuchFileException e) {
                // Deleted while being looked at: a running node's compaction (a listing for a refresh); never at start-up.
            }
        }
        inventory.dropReplaced(replacedGenerations);
        inventory.dropSuperseded(statistics);
        for (List<Descriptor> list : inventory.sstables.values()) list.sort(Comparator.comparingInt(Descriptor::generation));
        return inventory;
    }

    private void list(Path dir, Set<String> columnFamilies, Set<String> othersFiles, Map<GroupKey, Group> groups)
            throws IOException {
        if (!Files.isDirectory(dir)) return;
        List<Path> entries = new ArrayList<>();
        try (DirectoryStream<Path> all = Files.newDirectoryStream(dir)) {
            for (Path p : all) entries.add(p);
        }
        entries.sort(Comparator.naturalOrder());
        for (Path entry : entries) {
            String name = entry.getFileName().toString();
            if (Files.isDirectory(entry)) {
                if (name.equals(SnapshotDirectory.SNAPSHOTS)) continue;
                if (name.startsWith(IMPORT_WORK_PREFIX)) {
                    // bin/json2sstable's sorted runs: an import under way, or one a kill cut short (which deletes
                    // them when it can); neither an SSTable nor the node's to touch.
                    ignored.add(new Finding(entry, "the work directory of a bin/json2sstable run; left as it is"));
                    continue;
                }
                DataFileName parsed = DataFileName.ofDirectory(name);
                if (isUnconfigured(parsed, columnFamilies, entry)) continue;
                unrecognised.add(new Finding(entry, parsed instanceof DataFileName.LaterCassandra later
                        ? later.what() + "; export its SSTables with that version's sstable2json, or move it out of the"
                        + " data directory"
                        : "a directory Sibyl does not use; move it out of the data directory"));
                continue;
            }
            if (othersFiles.contains(name)) continue;
            DataFileName parsed = DataFileName.ofFile(name);
            highestGeneration = Math.max(highestGeneration, parsed.generation());
            if (isUnconfigured(parsed, columnFamilies, entry)) continue;
            if (parsed instanceof DataFileName.Part p) {
                group(groups, dir, p.columnFamily(), p.generation()).parts.put(p.component(), entry);
            } else if (parsed instanceof DataFileName.Marker m) {
                group(groups, dir, m.columnFamily(), m.generation()).marker = entry;
            } else if (parsed instanceof DataFileName.SibylTemporary) {
                // tmp-e-1-Data.db is also Cassandra 0.7's name for an SSTable of a column family called "tmp".
                if (columnFamilies.contains("tmp")) {
                    ignored.add(new Finding(entry, "a temporary file of Sibyl's or a file of column family tmp;"
                            + " left as it is"));
                } else {
                    leftovers.add(new Finding(entry, "a file Sibyl was writing"));
                }
            } else if (parsed instanceof DataFileName.Cassandra06Temporary) {
                ignored.add(new Finding(entry, "a file Cassandra 0.6 was writing (0.6 deletes these at start);"
                        + " left as it is"));
            } else if (parsed instanceof DataFileName.LaterCassandra later) {
                unrecognised.add(new Finding(entry, later.what()
                        + "; export it with that version's sstable2json, or move it out of the data directory"));
            } else {
                unrecognised.add(new Finding(entry, "not a file Sibyl or Cassandra 0.6 writes; move it out of the data"
                        + " directory"));
            }
        }
    }

    private static Group group(Map<GroupKey, Group> groups, Path dir, String columnFamily, int generation) {
        return groups.computeIfAbsent(new GroupKey(dir, columnFamily, generation),
                k -> new Group(dir, columnFamily, generation));
    }

    /** Whether the entry belongs to a column family the keyspace does not configure (and is noted as such). */
    private boolean isUnconfigured(DataFileName parsed, Set<String> columnFamilies, Path entry) {
        String cf = parsed.columnFamily();
        if (cf == null || columnFamilies.contains(cf)) return false;
        unconfigured.computeIfAbsent(cf, k -> new ArrayList<>()).add(entry);
        return true;
    }

    private void resolve(Group g, Map<String, Set<Integer>> replacedGenerations,
                         Map<Descriptor, SSTableMetadata> sibylStatistics) throws IOException {
        Path statistics = g.parts.get(Component.STATISTICS);
        if (statistics != null) {
            if (!Signatures.isSibyls(Component.STATISTICS, statistics)) {
                unrecognised.add(new Finding(statistics, "a Statistics file Sibyl did not write (nor does Cassandra 0.6);"
                        + " move it and the other files of " + g.columnFamily + "-" + g.generation
                        + " out of the data directory"));
            } else if (g.marker != null) {
                unrecognised.add(new Finding(g.marker, "a compaction marker beside a Sibyl SSTable, which neither Sibyl"
                        + " nor Cassandra 0.6 writes; move it out of the data directory"));
            } else {
                Descriptor d = new Descriptor(g.directory, g.columnFamily, g.generation, SSTableFormat.SIBYL);
                add(d);
                SSTableMetadata stats = readStatistics(statistics);
                if (stats != null) sibylStatistics.put(d, stats);
            }
            return;
        }
        if (g.marker != null) {
            resolveMarked(g, replacedGenerations);
            return;
        }
        for (var part : new ArrayList<>(g.parts.entrySet())) {
            if (Files.size(part.getValue()) == 0) {
                ignored.add(new Finding(part.getValue(), "an empty file (Cassandra 0.6 deletes these at start); left as it is"));
                g.parts.remove(part.getKey());
            }
        }
        Path data = g.parts.get(Component.DATA);
        Path index = g.parts.get(Component.INDEX);
        if (data != null && !Signatures.isSibyls(Component.DATA, data)) {
            resolveForeignData(g, data, index);
            return;
        }
        // No data file, or Sibyl's: whatever is Sibyl's is what an interrupted rename or deletion left.
        for (var part : g.parts.entrySet()) {
            Path file = part.getValue();
            if (Signatures.isSibyls(part.getKey(), file)) {
                leftovers.add(new Finding(file, "a component of Sibyl's not part of a complete SSTable (no Statistics"
                        + " file): what an interrupted write or deletion left"));
            } else if (part.getKey() == Component.INDEX || part.getKey() == Component.FILTER) {
                ignored.add(new Finding(file, "a Cassandra 0.6 " + (part.getKey() == Component.INDEX ? "index" : "filter")
                        + " file without its data file (0.6 deletes these at start); left as it is"));
            } else {
                unrecognised.add(new Finding(file, "not a file Sibyl or Cassandra 0.6 writes; move it out of the data"
                        + " directory"));
            }
        }
    }

    /** A data file that is not Sibyl's: a Cassandra 0.6 SSTable if its index agrees, else refused. */
    private void resolveForeignData(Group g, Path data, Path index) throws IOException {
        String problem = index == null ? "its index file " + g.columnFamily + "-" + g.generation + "-Index.db is missing"
                : Signatures.isSibyls(Component.INDEX, index) ? "its index file is Sibyl's"
                : Signatures.cassandra06Problem(data, index);
        if (problem != null) {
            unrecognised.add(new Finding(data, "not Sibyl's, and not a Cassandra 0.6 SSTable Sibyl can read: " + problem
                    + "; move it (and its other files) out of the data directory"));
            return;
        }
        for (Component c : List.of(Component.SUMMARY)) {
            Path file = g.parts.get(c);
            if (file != null) {
                unrecognised.add(new Finding(file, "a " + c.suffix() + " file beside a Cassandra 0.6 SSTable, which"
                        + " neither Sibyl nor 0.6 writes; move it out of the data directory"));
            }
        }
        add(new Descriptor(g.directory, g.columnFamily, g.generation, SSTableFormat.CASSANDRA_06));
    }

    private void resolveMarked(Group g, Map<String, Set<Integer>> replacedGenerations) throws IOException {
        CompactedMarker.Content marker = CompactedMarker.read(g.marker, g.generation);
        switch (marker.writer()) {
            case CASSANDRA_06 -> {
                ignored.add(new Finding(g.marker, "Cassandra 0.6's mark of an SSTable its compaction replaced: "
                        + g.columnFamily + "-" + g.generation + " is not loaded, and its files are left as they are"
                        + " (0.6 deletes them at start)"));
                for (Path part : g.parts.values()) {
                    ignored.add(new Finding(part, "part of an SSTable Cassandra 0.6 marked compacted; left as it is"));
                }
            }
            case SIBYL -> {
                Descriptor d = new Descriptor(g.directory, g.columnFamily, g.generation, SSTableFormat.CASSANDRA_06);
                replaced.add(d);
                replacedAlong.put(d, marker.generations());
                replacedGenerations.computeIfAbsent(g.columnFamily, k -> new HashSet<>()).addAll(marker.generations());
            }
            case UNKNOWN -> unrecognised.add(new Finding(g.marker, "a -Compacted file that is neither Cassandra 0.6's"
                    + " (empty) nor Sibyl's; move it out of the data directory"));
        }
    }

    /**
     * An SSTable's Statistics, or null when it cannot be read: opening it reports the damage, and the SSTables it
     * may list as replaced, if still there, are loaded as they were before it was written.
     */
    private static SSTableMetadata readStatistics(Path statistics) throws IOException {
        try {
            return ChecksummedFile.read(statistics, (in, length) -> SSTableMetadata.readFrom(in));
        } catch (NoSuchFileException e) {
            throw e;
        } catch (IOException e) {
            return null;
        }
    }

    /**
     * Sibyl's SSTables that another one lists as replaced: a crash came between its compaction's output becoming
     * durable and their deletion. The lists are followed through every SSTable present, even one itself replaced
     * (an output compacted again before its inputs were gone), so nothing is loaded beside what holds its rows.
     */
    private void dropSuperseded(Map<Descriptor, SSTableMetadata> statistics) {
        Map<String, Map<Integer, List<SSTableMetadata.Replaced>>> listed = new HashMap<>();
        for (Map.Entry<Descriptor, SSTableMetadata> e : statistics.entrySet()) {
            for (SSTableMetadata.Replaced r : e.getValue().replaces()) {
                listed.computeIfAbsent(e.getKey().columnFamily(), k -> new HashMap<>())
                        .computeIfAbsent(r.generation(), k -> new ArrayList<>()).add(r);
            }
        }
        for (Map.Entry<Descriptor, SSTableMetadata> e : statistics.entrySet()) {
            Descriptor d = e.getKey();
            List<SSTableMetadata.Replaced> byGeneration =
                    listed.getOrDefault(d.columnFamily(), Map.of()).getOrDefault(d.generation(), List.of());
            if (byGeneration.stream().anyMatch(r -> r.is(e.getValue()))) {
                sstables.get(d.columnFamily()).remove(d);
                superseded.add(d);
            }
        }
        superseded.sort(Comparator.comparing(Descriptor::columnFamily).thenComparingInt(Descriptor::generation));
    }

    /** Cassandra 0.6 SSTables listed by a marker of Sibyl's are replaced too, even before their own marker was written. */
    private void dropReplaced(Map<String, Set<Integer>> replacedGenerations) {
        for (Map.Entry<String, Set<Integer>> e : replacedGenerations.entrySet()) {
            List<Descriptor> list = sstables.get(e.getKey());
            if (list == null) continue;
            for (Descriptor d : new ArrayList<>(list)) {
                if (d.format() == SSTableFormat.CASSANDRA_06 && e.getValue().contains(d.generation())) {
                    list.remove(d);
                    replaced.add(d);
                    replacedAlong.put(d, e.getValue());
                }
            }
        }
    }

    private void add(Descriptor d) {
        sstables.computeIfAbsent(d.columnFamily(), k -> new ArrayList<>()).add(d);
    }

    /** The SSTables of {@code columnFamily} to open, both formats, oldest generation first. */
    public List<Descriptor> sstables(String columnFamily) {
        return List.copyOf(sstables.getOrDefault(columnFamily, List.of()));
    }

    /** The highest generation any file of an SSTable, marker or temporary has; -1 if none. */
    public int highestGeneration() {
        return highestGeneration;
    }

    /** Files nothing here recognises; see {@link #refuseUnrecognised}. */
    public List<Finding> unrecognised() {
        return List.copyOf(unrecognised);
    }

    /** Cassandra 0.6's leftovers and files left for safety; each logged once by {@link #logFindings}. */
    public List<Finding> ignored() {
        return List.copyOf(ignored);
    }

    /** Sibyl's own leftovers, which {@link #cleanUp} deletes. */
    public List<Finding> leftovers() {
        return List.copyOf(leftovers);
    }

    /** Cassandra 0.6 SSTables compaction replaced, whose deletion {@link #cleanUp} finishes. */
    public List<Descriptor> replaced() {
        return List.copyOf(replaced);
    }

    /** Sibyl's SSTables a compaction's or scrub's output replaced, which {@link #cleanUp} deletes. */
    public List<Descriptor> superseded() {
        return List.copyOf(superseded);
    }

    /**
     * Throws when any file is unrecognised: one IOException naming each, what it looks like and what to do.
     *
     * @param what names the directories' owner in the message, e.g. "keyspace Keyspace1"
     */
    public void refuseUnrecognised(String what) throws ForeignFilesException {
        refuseUnrecognised(List.of(this), what);
    }

    /**
     * As {@link #refuseUnrecognised(String)} over several inventories (every keyspace of a node), in one error.
     *
     * @param what names the directories' owners in the message, e.g. "keyspaces Keyspace1, system"
     */
    public static void refuseUnrecognised(Collection<DataFileInventory> inventories, String what)
            throws ForeignFilesException {
        List<Finding> all = new ArrayList<>();
        for (DataFileInventory i : inventories) all.addAll(i.unrecognised);
        if (all.isEmpty()) return;
        StringBuilder m = new StringBuilder("Cannot start on the data directories of ").append(what).append(": ")
                .append(all.size() == 1 ? "a file there is" : all.size() + " files there are")
                .append(" neither Sibyl's nor a Cassandra 0.6 SSTable it can read. Nothing was changed or deleted.");
        for (Finding f : all) m.append("\n  ").append(f);
        throw new ForeignFilesException(m.toString());
    }

    /** Logs what is left as it is: one line per file of Cassandra 0.6's, one per column family not configured. */
    public void logFindings(String what) {
        for (Finding f : ignored) log.info("Left {}", f);
        for (Map.Entry<String, List<Path>> e : unconfigured.entrySet()) {
            log.info("Left {} file(s) of column family {}, which {} does not configure, as they are: {}",
                    e.getValue().size(), e.getKey(), what, e.getValue());
        }
    }

    /**
     * Deletes Sibyl's leftovers and the SSTables of its own a compaction replaced, and finishes deleting the
     * Cassandra 0.6 SSTables compaction replaced, syncing
     * the directories. Once, after the start is decided (nothing else runs in the directories yet); failures
     * are logged, and the next start tries again.
     */
    public void cleanUp() {
        if (cleaned) return;
        cleaned = true;
        try {
            for (Finding f : leftovers) {
                Files.deleteIfExists(f.file());
                log.info("Removed leftover {}", f);
            }
            for (Path dir : directories) {
                if (Files.isDirectory(dir) && !leftovers.isEmpty()) Directories.sync(dir);
            }
        } catch (IOException e) {
            log.warn("Could not remove the leftovers of interrupted writes: {}", e.toString());
        }
        try {
            for (Descriptor d : superseded) {
                SSTableDirectory.delete(d);
                log.info("Deleted SSTable {}, which a compaction's output replaced before a crash let it be deleted", d);
            }
        } catch (IOException e) {
            log.warn("Could not delete the SSTables a compaction's output replaced: {}", e.toString());
        }
        // Every replaced SSTable gets its own marker before any of their files goes, so a crash meanwhile
        // leaves each of them still marked.
        try {
            for (Descriptor d : replaced) {
                Path marker = CompactedMarker.path(d);
                if (!Files.exists(marker)) CompactedMarker.write(d, replacedAlong.get(d), "an SSTable of Sibyl's");
            }
            for (Path dir : directories) {
                if (Files.isDirectory(dir) && !replaced.isEmpty()) Directories.sync(dir);
            }
            for (Descriptor d : replaced) {
                SSTableDirectory.delete(d);
                log.info("Finished deleting Cassandra 0.6 SSTable {}, which compaction replaced", d);
            }
        } catch (IOException e) {
            log.warn("Could not finish deleting the Cassandra 0.6 SSTables compaction replaced: {}", e.toString());
        }
    }
}
