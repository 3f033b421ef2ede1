package sibyl.io;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * Names one SSTable: the directory it lives in ({@code <DataFileDirectory>/<Keyspace>}), its
 * column family, its generation and its format. Files are {@code <CF>-<generation>-<Component>}, and while
 * Sibyl writes them {@code tmp-<CF>-<generation>-<Component>}. Column family names never contain
 * {@code -} (the configuration refuses them), so names parse back unambiguously. A Cassandra 0.6 SSTable's
 * files have the same names (fewer of them), so the format is not in the name: start-up tells it from the
 * files' content ({@link DataFileInventory}).
 */
public record Descriptor(Path directory, String columnFamily, int generation, SSTableFormat format) {
    /** Prefix of files still being written; whatever carries it at start-up is a leftover. */
    public static final String TEMPORARY_PREFIX = "tmp-";

    public Descriptor {
        Objects.requireNonNull(directory, "directory");
        Objects.requireNonNull(columnFamily, "columnFamily");
        if (columnFamily.isEmpty() || columnFamily.indexOf('-') >= 0) {
            throw new IllegalArgumentException("not a column family name usable in file names: " + columnFamily);
        }
        if (generation < 0) throw new IllegalArgumentException("negative generation " + generation);
        Objects.requireNonNull(format, "format");
    }

    /** An SSTable in Sibyl's format: every SSTable Sibyl writes. */
    public Descriptor(Path directory, String columnFamily, int generation) {
        this(directory, columnFamily, generation, SSTableFormat.SIBYL);
    }

    /** The components this SSTable's format has. */
    public List<Component> components() {
        return format.components();
    }

    /** The directory the SSTables of {@code keyspace} live in. */
    public static Path directory(Path dataFileDirectory, String keyspace) {
        return dataFileDirectory.resolve(keyspace);
    }

    /** The final path of a component. */
    public Path path(Component component) {
        return directory.resolve(baseName() + component.suffix());
    }

    /** The path a component is written under before it is complete. */
    public Path temporaryPath(Component component) {
        return directory.resolve(TEMPORARY_PREFIX + baseName() + component.suffix());
    }

    private String baseName() {
        return columnFamily + "-" + generation + "-";
    }

    /**
     * The Sibyl SSTable a component file name (final name, not temporary) names, e.g. of
     * {@code /data/Keyspace1/Standard1-7-Data.db}: what a writer given that name writes (json2sstable's
     * target); null when the name is no SSTable component. To tell the format of files that exist, use
     * {@link SSTableDirectory#identify}.
     */
    public static Descriptor ofFile(Path file) {
        Path name = file.getFileName();
        if (name == null) return null;
        Path parent = file.toAbsolutePath().getParent();
        FileName parsed = parse(parent, name.toString());
        return parsed == null || parsed.temporary() ? null : parsed.descriptor();
    }

    /** What a file name says: its SSTable, component and whether it is temporary. */
    record FileName(Descriptor descriptor, Component component, boolean temporary) {
    }

    /**
     * Parses a file name of {@code directory}; null when it is no SSTable component. Counting
     * the dashes tells the two forms apart (column family names have none), so even a column
     * family called {@code tmp} is read right.
     */
    static FileName parse(Path directory, String fileName) {
        String[] parts = fileName.split("-", -1);
        boolean temporary = parts.length == 4 && (parts[0] + "-").equals(TEMPORARY_PREFIX);
        if (parts.length != 3 && !temporary) return null;
        int at = temporary ? 1 : 0;
        Component component = Component.ofSuffix(parts[at + 2]);
        if (component == null || parts[at].isEmpty()) return null;
        int generation;
        try {
            generation = Integer.parseInt(parts[at + 1]);
        } catch (NumberFormatException e) {
            return null;
        }
        if (generation < 0) return null;
        return new FileName(new Descriptor(directory, parts[at], generation), component, temporary);
    }

    @Override
    public String toString() {
        return directory.resolve(columnFamily + "-" + generation).toString();
    }
}
