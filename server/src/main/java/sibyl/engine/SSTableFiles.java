package sibyl.engine;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sibyl.db.LogPosition;
import sibyl.io.DataFileInventory;
import sibyl.io.Descriptor;
import sibyl.io.SSTableDirectory;
import sibyl.io.SnapshotDirectory;
import sibyl.io.TruncationRecords;
import sibyl.io.TruncationRecords.Truncation;

/**
 * Where one keyspace's SSTables live: a directory per data directory
 * ({@code <DataFileDirectory>/<Keyspace>}), and the generation counter new SSTables are named by,
 * one counter over all of them so a generation never repeats within the keyspace. Cassandra 0.6's
 * SSTables there share the names and the generations: the counter passes over theirs too.
 *
 * <p>It also knows which SSTables are this node's: those found at start-up and those it named
 * since. Any other complete SSTable in the directories was put there from outside while the node
 * ran (bin/json2sstable, files copied in), and {@link #unclaimed} finds it. Such a tool may
 * take a generation the counter has not reached yet, so {@link #next} passes over generations
 * another writer holds.
 */
public final class SSTableFiles {
    private static final Logger log = LoggerFactory.getLogger(SSTableFiles.class);

    /** An SSTable as its store tells it apart from the others: the key cache knows it by generation. */
    private record Name(String columnFamily, int generation) {
    }

    private final List<Path> directories;
    private final Set<Name> claimed = new HashSet<>();
    /** What start-up found; until {@link #cleanUp}, nothing of it is deleted. */
    private final DataFileInventory inventory;
    private int generation;
    private boolean cleanedUp;
    /** The keyspace's truncations; replaced as a whole by {@link #recordTruncation}. */
    private TruncationRecords truncations;
    /** SSTables a truncate discarded whose files a crash left: deleted by {@link #cleanUp}, never loaded. */
    private final List<Descriptor> truncatedLeft = new ArrayList<>();

    private SSTableFiles(List<Path> directories, DataFileInventory inventory, TruncationRecords truncations) {
        this.directories = List.copyOf(directories);
        this.inventory = inventory;
        this.truncations = truncations;
        this.generation = inventory.highestGeneration();
        // A generation a truncate discarded is never used again, though its files may be gone: the record names it.
        for (Truncation t : truncations.all()) {
            for (int g : t.generations()) generation = Math.max(generation, g);
        }
    }

    /**
     * The keyspace's directories, every file in them recognised ({@link DataFileInventory}) and nothing changed
     * yet: Sibyl's leftovers stay until {@link #cleanUp}, so a start refused later (another keyspace's files, the
     * commit log) deletes nothing. Call before any flush, compaction or snapshot.
     *
     * @param columnFamilies the keyspace's column families; files of others are left alone
     * @param othersFiles    names of files other parts of the node keep in these directories (the token)
     * @throws IOException naming every file that is neither Sibyl's nor a Cassandra 0.6 SSTable it reads, what it
     *                     looks like and what to do
     */
    public static SSTableFiles open(List<Path> dataDirectories, String keyspace, Set<String> columnFamilies,
                                    Set<String> othersFiles) throws IOException {
        SSTableFiles files = inspect(dataDirectories, keyspace, columnFamilies, othersFiles);
        files.inventory.refuseUnrecognised("keyspace " + keyspace);
        files.inventory.logFindings("keyspace " + keyspace);
        return files;
    }

    /** As {@link #open}, without refusing or logging what it found: for checking several keyspaces at once. */
    static SSTableFiles inspect(List<Path> dataDirectories, String keyspace, Set<String> columnFamilies,
                                Set<String> othersFiles) throws IOException {
        List<Path> dirs = new ArrayList<>();
        for (Path data : dataDirectories) dirs.add(Descriptor.directory(data, keyspace));
        Set<String> others = new HashSet<>(othersFiles);
        others.add(TruncationRecords.FILE_NAME);
        others.add(TruncationRecords.TEMPORARY_NAME);
        return new SSTableFiles(dirs, DataFileInventory.take(dirs, columnFamilies, others),
                TruncationRecords.read(dirs.get(0)));
    }

    /** What start-up found in the directories. */
    DataFileInventory inventory() {
        return inventory;
    }

    /**
     * Deletes what interrupted writes, deletions and snapshots of Sibyl's left, and finishes deleting the
     * Cassandra 0.6 SSTables a compaction replaced: once the start is decided, before any flush, compaction or
     * snapshot. Idempotent; failures are logged (the next start tries again).
     */
    public synchronized void cleanUp() {
        if (cleanedUp) return;
        cleanedUp = true;
        inventory.cleanUp();
        for (Descriptor d : truncatedLeft) {
            try {
                SSTableDirectory.delete(d);
                log.info("Deleted {}, which a truncate of {} discarded before the node stopped", d, d.columnFamily());
            } catch (IOException e) {
                log.warn("Could not delete {}, which a truncate discarded: {}", d, e.toString());
            }
        }
        for (Path dir : directories) {
            try {
                SnapshotDirectory.removeLeftovers(dir);
            } catch (IOException e) {
                log.warn("Could not remove the unfinished snapshots of {}: {}", dir, e.toString());
            }
        }
    }

    /** The keyspace's directory in each data directory ({@code <DataFileDirectory>/<Keyspace>}). */
    public List<Path> directories() {
        return directories;
    }

    /**
     * The SSTables of a column family start-up found, of both formats, over every directory; the node loads
     * them as its own.
     */
    public synchronized List<Descriptor> list(String columnFamily) {
        List<Descriptor> found = new ArrayList<>();
        List<Descriptor> truncated = new ArrayList<>();
        for (Descriptor d : inventory.sstables(columnFamily)) (isTruncated(d) ? truncated : found).add(d);
        claim(found);
        claim(truncated);
        truncatedLeft.addAll(truncated);
        return found;
    }

    private boolean isTruncated(Descriptor d) {
        Truncation t = truncations.of(d.columnFamily());
        return t != null && t.generations().contains(d.generation());
    }

    /** The column family's last truncate, or null when it was never truncated. */
    public synchronized Truncation truncation(String columnFamily) {
        return truncations.of(columnFamily);
    }

    /**
     * Records durably that a truncate of the column family discarded its writes up to {@code position} and
     * {@code discarded}, its SSTables: before anything is taken from the store. The generations of an earlier
     * truncate whose files are still on disk are kept in the record.
     */
    public synchronized void recordTruncation(String columnFamily, long atMillis, LogPosition position,
                                              List<Descriptor> discarded) throws IOException {
        Set<Integer> generations = new TreeSet<>();
        for (Descriptor d : discarded) generations.add(d.generation());
        Truncation earlier = truncations.of(columnFamily);
        if (earlier != null) {
            for (int g : earlier.generations()) {
                if (SSTableDirectory.generationInUse(directories, columnFamily, g)) generations.add(g);
            }
        }
        TruncationRecords next = truncations.with(columnFamily, new Truncation(atMillis, position, generations));
        next.write(directories.get(0));
        truncations = next;
    }

    private List<Descriptor> listOnDisk(String columnFamily) throws IOException {
        List<Descriptor> found = new ArrayList<>();
        for (Path dir : directories) found.addAll(SSTableDirectory.list(dir, columnFamily));
        return found;
    }

    /**
     * The SSTables of a column family (either format, listed from the disk now) that are not this node's:
     * neither found at
     * start-up nor named by {@link #next}. They stay unclaimed until {@link #claim}ed, so a
     * caller that cannot open them finds them again next time.
     *
     * @throws IOException when one uses the generation of one of the node's own SSTables of the
     *                     column family (in another directory), which the key cache would confuse
     */
    public synchronized List<Descriptor> unclaimed(String columnFamily) throws IOException {
        List<Descriptor> fresh = new ArrayList<>();
        Set<Name> seenClaimed = new HashSet<>();
        for (Descriptor d : listOnDisk(columnFamily)) {
            Name name = new Name(columnFamily, d.generation());
            if (isTruncated(d)) continue;
            if (!claimed.contains(name)) {
                fresh.add(d);
            } else if (!seenClaimed.add(name)) {
                throw new IOException("sstable " + d + " has the generation of another sstable of " + columnFamily
                        + " this node uses; move it to a free generation (a number above every other in the name)");
            }
        }
        return fresh;
    }

    /** Marks SSTables as this node's, and moves the counter past their generations. */
    public synchronized void claim(List<Descriptor> sstables) {
        for (Descriptor d : sstables) {
            claimed.add(new Name(d.columnFamily(), d.generation()));
            generation = Math.max(generation, d.generation());
        }
    }

    /**
     * A name for a new SSTable, in the directory with the most usable space: the next generation
     * no SSTable of the column family holds or is being written under, in any directory.
     */
    public synchronized Descriptor next(String columnFamily) {
        Path dir = SSTableDirectory.roomiest(directories);
        while (true) {
            generation++;
            if (!SSTableDirectory.generationInUse(directories, columnFamily, generation)) {
                claimed.add(new Name(columnFamily, generation));
                return new Descriptor(dir, columnFamily, generation);
            }
        }
    }
}
