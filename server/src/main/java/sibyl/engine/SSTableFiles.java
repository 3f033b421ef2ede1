package sibyl.engine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import sibyl.io.Descriptor;
import sibyl.io.SSTableDirectory;

/**
 * Where one keyspace's SSTables live: a directory per data directory
 * ({@code <DataFileDirectory>/<Keyspace>}), and the generation counter new SSTables are named by,
 * one counter over all of them so a generation never repeats within the keyspace.
 */
public final class SSTableFiles {
    private final List<Path> directories;
    private final AtomicInteger generation;

    private SSTableFiles(List<Path> directories, int highestGeneration) {
        this.directories = List.copyOf(directories);
        this.generation = new AtomicInteger(highestGeneration);
    }

    /**
     * The keyspace's directories after removing what interrupted writers and deletions left
     * (see {@link SSTableDirectory#removeLeftovers}); call before any flush or compaction.
     */
    public static SSTableFiles open(List<Path> dataDirectories, String keyspace) throws IOException {
        List<Path> dirs = new ArrayList<>();
        int highest = -1;
        for (Path data : dataDirectories) {
            Path dir = Descriptor.directory(data, keyspace);
            SSTableDirectory.removeLeftovers(dir);
            highest = Math.max(highest, SSTableDirectory.highestGeneration(dir));
            dirs.add(dir);
        }
        return new SSTableFiles(dirs, highest);
    }

    /** The complete SSTables of a column family, over every directory. */
    public List<Descriptor> list(String columnFamily) throws IOException {
        List<Descriptor> found = new ArrayList<>();
        for (Path dir : directories) found.addAll(SSTableDirectory.list(dir, columnFamily));
        return found;
    }

    /** A name for a new SSTable, in the directory with the most usable space. */
    public Descriptor next(String columnFamily) {
        return new Descriptor(roomiest(), columnFamily, generation.incrementAndGet());
    }

    private Path roomiest() {
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
