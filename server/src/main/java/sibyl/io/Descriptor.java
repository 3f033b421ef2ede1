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

    /** What a file name says: its SSTable, component and whether it is temporary. */
    record FileName(Descriptor descriptor, Component component, boolean temporary) {
    }

    /** Parses a file name of {@code directory}; null when it is no SSTable component. */
    static FileName parse(Path directory, String fileName) {
        boolean temporary = fileName.startsWith(TEMPORARY_PREFIX);
        String rest = temporary ? fileName.substring(TEMPORARY_PREFIX.length()) : fileName;
        int first = rest.indexOf('-');
        int second = first < 0 ? -1 : rest.indexOf('-', first + 1);
        if (first <= 0 || second < 0) return null;
        Component component = Component.ofSuffix(rest.substring(second + 1));
        if (component == null) return null;
        int generation;
        try {
            generation = Integer.parseInt(rest.substring(first + 1, second));
        } catch (NumberFormatException e) {
            return null;
        }
        if (generation < 0) return null;
        return new FileName(new Descriptor(directory, rest.substring(0, first), generation), component, temporary);
    }

    @Override
    public String toString() {
        return directory.resolve(columnFamily + "-" + generation).toString();
    }
}
