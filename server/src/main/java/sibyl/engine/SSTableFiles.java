package sibyl.engine;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import sibyl.io.Descriptor;
import sibyl.io.SSTableDirectory;
import sibyl.io.SnapshotDirectory;

/**
 * Where one keyspace's SSTables live: a directory per data directory
 * ({@code <DataFileDirectory>/<Keyspace>}), and the generation counter new SSTables are named by,
 * one counter over all of them so a generation never repeats within the keyspace.
 *
 * <p>It also knows which SSTables are this node's: those found at start-up and those it named
 * since. Any other complete SSTable in the directories was put there from outside while the node
 * ran (bin/json2sstable, files copied in), and {@link #unclaimed} finds it. Such a tool may
 * take a generation the counter has not reached yet, so {@link #next} passes over generations
 * another writer holds.
 */
public final class SSTableFiles {
    /** An SSTable as its store tells it apart from the others: the key cache knows it by generation. */
    private record Name(String columnFamily, int generation) {
    }

    private final List<Path> directories;
    private final Set<Name> claimed = new HashSet<>();
    private int generation;

    private SSTableFiles(List<Path> directories, int highestGeneration) {
        this.directories = List.copyOf(directories);
        this.generation = highestGeneration;
    }

    /**
     * The keyspace's directories after removing what interrupted writers, deletions and
     * snapshots left (see {@link SSTableDirectory#removeLeftovers} and
     * {@link SnapshotDirectory#removeLeftovers}); call before any flush, compaction or snapshot.
     */
    public static SSTableFiles open(List<Path> dataDirectories, String keyspace) throws IOException {
        List<Path> dirs = new ArrayList<>();
        int highest = -1;
        for (Path data : dataDirectories) {
            Path dir = Descriptor.directory(data, keyspace);
            SSTableDirectory.removeLeftovers(dir);
            SnapshotDirectory.removeLeftovers(dir);
            highest = Math.max(highest, SSTableDirectory.highestGeneration(dir));
            dirs.add(dir);
        }
        return new SSTableFiles(dirs, highest);
    }

    /** The keyspace's directory in each data directory ({@code <DataFileDirectory>/<Keyspace>}). */
    public List<Path> directories() {
        return directories;
    }

    /** The complete SSTables of a column family, over every directory; the node loads them as its own. */
    public synchronized List<Descriptor> list(String columnFamily) throws IOException {
        List<Descriptor> found = listOnDisk(columnFamily);
        claim(found);
        return found;
    }

    private List<Descriptor> listOnDisk(String columnFamily) throws IOException {
        List<Descriptor> found = new ArrayList<>();
        for (Path dir : directories) found.addAll(SSTableDirectory.list(dir, columnFamily));
        return found;
    }

    /**
     * The complete SSTables of a column family that are not this node's: neither found at
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
