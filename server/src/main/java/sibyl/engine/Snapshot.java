package sibyl.engine;

import java.nio.file.Path;
import java.util.List;

/**
 * A snapshot taken: its name ({@code <milliseconds>} or {@code <milliseconds>-<tag>}), the SSTables
 * it links and the directories it made, one {@code <DataFileDirectory>/<Keyspace>/snapshots/<name>}
 * per keyspace directory that had SSTables.
 */
public record Snapshot(String name, int sstables, List<Path> directories) {
    public Snapshot {
        directories = List.copyOf(directories);
    }
}
