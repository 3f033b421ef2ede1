package sibyl.io;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Names one SSTable: the directory it lives in ({@code <DataFileDirectory>/<Keyspace>}), its
 * column family and its generation. Files are {@code <CF>-<generation>-<Component>}, and while
 * being written {@code tmp-<CF>-<generation>-<Component>}. Column family names never contain
 * {@code -} (the configuration refuses them), so names parse back unambiguously.
 */
public record Descriptor(Path directory, String columnFamily, int generation) {
    /** Prefix of files still being written; whatever carries it at start-up is a leftover. */
    public static final String TEMPORARY_PREFIX = "tmp-";

    public Descriptor {
        Objects.requireNonNull(directory, "directory");
        Objects.requireNonNull(columnFamily, "columnFamily");
        if (columnFamily.isEmpty() || columnFamily.indexOf('-') >= 0) {
            throw new IllegalArgumentException("not a column family name usable in file names: " + columnFamily);
        }
        if (generation < 0) throw new IllegalArgumentException("negative generation " + generation);
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
     * The SSTable a component file (final name, not temporary) belongs to, e.g. of
     * {@code /data/Keyspace1/Standard1-7-Data.db}; null when the name is no SSTable component.
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
