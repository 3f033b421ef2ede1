package sibyl.engine;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sibyl.io.Descriptor;
import sibyl.io.SSTableReader;
import sibyl.io.SnapshotDirectory;

/**
 * Takes and clears the node's snapshots: hard links to the live SSTables of column families, in
 * {@code <DataFileDirectory>/<Keyspace>/snapshots/<name>/}, named as 0.6 named them: the time in
 * milliseconds, then {@code -<tag>} when there is a tag.
 *
 * <p>A snapshot is all or nothing: its directories appear under their final names only once
 * every link is in ({@link SnapshotDirectory}), and on any failure (a full disk) what was made
 * is deleted. It never races compaction: each store's SSTables are acquired while they are
 * linked, so none of their files can be deleted under the links, and the SSTables linked are
 * whole ones (only complete SSTables are ever live). One snapshot or clear at a time.
 */
final class Snapshots {
    private static final Logger log = LoggerFactory.getLogger(Snapshots.class);
    private static final Pattern TAG = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]{0,199}");

    private final Clock clock;
    private long lastMillis;

    Snapshots(Clock clock) {
        this.clock = clock;
    }

    /**
     * Refuses a tag that cannot be a file name's part on every platform, or that could reach
     * outside the snapshots directory.
     *
     * @throws IllegalArgumentException saying what a tag may be
     */
    static void checkTag(String tag) {
        if (tag != null && !tag.isEmpty() && !TAG.matcher(tag).matches()) {
            throw new IllegalArgumentException("snapshot tag '" + tag + "' must be 1 to 200 letters, digits, '_', '.'"
                    + " or '-', and not begin with '.' or '-'");
        }
    }

    /**
     * Links every live SSTable of {@code stores} into a new snapshot tagged {@code tag} (null or
     * empty for none).
     *
     * @throws IOException when a link or directory cannot be made; the message says which and why,
     *                     and nothing of the snapshot is left
     */
    synchronized Snapshot take(String tag, Collection<ColumnFamilyStore> stores) throws IOException {
        checkTag(tag);
        String name = nextName(tag);
        Map<Path, SnapshotDirectory> made = new LinkedHashMap<>();
        int sstables = 0;
        try {
            for (ColumnFamilyStore store : stores) {
                List<SSTableReader> live = store.acquireLiveSSTables();
                try {
                    for (SSTableReader sstable : live) {
                        Path keyspaceDirectory = sstable.descriptor().directory();
                        SnapshotDirectory snapshot = made.get(keyspaceDirectory);
                        if (snapshot == null) {
                            snapshot = SnapshotDirectory.begin(keyspaceDirectory, name);
                            made.put(keyspaceDirectory, snapshot);
                        }
                        snapshot.add(sstable.descriptor());
                        sstables++;
                    }
                } finally {
                    for (SSTableReader sstable : live) sstable.release();
                }
            }
            List<Path> directories = new ArrayList<>();
            for (SnapshotDirectory snapshot : made.values()) directories.add(snapshot.commit());
            log.info("Snapshot {} taken: {} sstables in {}", name, sstables, directories.isEmpty() ? "no directory"
                    : directories);
            return new Snapshot(name, sstables, directories);
        } catch (IOException | RuntimeException e) {
            IOException failure = new IOException("snapshot " + name + " failed: " + e.getMessage()
                    + "; nothing of it is kept", e);
            for (SnapshotDirectory snapshot : made.values()) snapshot.abort();
            try {
                clear(made.keySet(), name::equals); // renamed ones go too: a snapshot is whole or absent
            } catch (IOException c) {
                failure.addSuppressed(c);
                log.warn("Could not delete the parts of failed snapshot {}: {}", name, c.toString());
            }
            log.error(failure.getMessage());
            throw failure;
        }
    }

    /**
     * Deletes the snapshots tagged {@code tag} (every snapshot when null or empty) in
     * {@code keyspaceDirectories}.
     *
     * @return the snapshot directories deleted
     */
    synchronized List<Path> clear(Collection<Path> keyspaceDirectories, String tag) throws IOException {
        checkTag(tag);
        boolean all = tag == null || tag.isEmpty();
        Pattern tagged = all ? null : Pattern.compile("\\d+-" + Pattern.quote(tag));
        List<Path> cleared = clear(keyspaceDirectories, name -> all || tagged.matcher(name).matches());
        log.info("Cleared {} snapshot directories{}", cleared.size(), all ? "" : " tagged " + tag);
        return cleared;
    }

    private static List<Path> clear(Collection<Path> keyspaceDirectories, Predicate<String> which)
            throws IOException {
        List<Path> cleared = new ArrayList<>();
        for (Path dir : keyspaceDirectories) cleared.addAll(SnapshotDirectory.clear(dir, which));
        return cleared;
    }

    /**
     * Moves {@code sstables} into one new snapshot tagged {@code tag}, a directory of it in each keyspace directory
     * they are in (a drop by API: docs/configuration.md §Keyspaces made by API).
     *
     * @return the snapshot directories made
     */
    synchronized List<Path> moveIn(String tag, List<Descriptor> sstables) throws IOException {
        checkTag(tag);
        String name = nextName(tag);
        Map<Path, List<Descriptor>> byDirectory = new LinkedHashMap<>();
        for (Descriptor d : sstables) byDirectory.computeIfAbsent(d.directory(), k -> new ArrayList<>()).add(d);
        List<Path> made = new ArrayList<>();
        for (Map.Entry<Path, List<Descriptor>> e : byDirectory.entrySet()) {
            made.add(SnapshotDirectory.moveInto(e.getKey(), name, e.getValue()));
        }
        log.info("Snapshot {} made of {} sstables moved aside in {}", name, sstables.size(), made);
        return made;
    }

    /** The time now in milliseconds, later than any name given before, so two snapshots never share one. */
    private String nextName(String tag) {
        long millis = Math.max(clock.millis(), lastMillis + 1);
        lastMillis = millis;
        return tag == null || tag.isEmpty() ? Long.toString(millis) : millis + "-" + tag;
    }
}
