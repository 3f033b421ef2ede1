package sibyl.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import sibyl.fs.Directories;

/**
 * The {@code <CF>-<generation>-Compacted} file beside an SSTable that compaction replaced. Cassandra 0.6 creates
 * it empty and deletes the SSTable's files, then the marker, once nothing reads them (at its next start at the
 * latest). Sibyl writes one of its own, with content, before it deletes a Cassandra 0.6 SSTable its compaction
 * (or scrub) replaced:
 * <pre>
 * sibyl compacted 1
 * generations 3 4 7
 * into Standard1-12
 * </pre>
 * The first line says Sibyl wrote it; {@code generations} lists every Cassandra 0.6 SSTable of the column
 * family the same compaction replaced, so the first marker on disk speaks for all of them; {@code into} names
 * the output, for people ({@code nothing} when everything was purged). It is written under
 * {@code tmp-<CF>-<generation>-Compacted}, fsynced and renamed, so under its final name it is always whole.
 *
 * <p>At start-up an empty marker is 0.6's: its SSTable is not loaded and its files are left as they are (the
 * choice to delete them is the operator's). Sibyl's marker means the replacing SSTable was durable before the
 * marker was written: its SSTable, and every one it lists, is not loaded, and Sibyl finishes deleting them.
 */
final class CompactedMarker {
    static final String FIRST_LINE = "sibyl compacted 1";
    private static final String GENERATIONS = "generations ";
    private static final String INTO = "into ";
    /** More than any marker Sibyl writes for a compaction of thousands of SSTables; guards reading a stray file. */
    private static final long MAX_LENGTH = 1 << 20;

    /** Who wrote a marker. */
    enum Writer {
        /** Empty: Cassandra 0.6's. */
        CASSANDRA_06,
        SIBYL,
        /** Neither: start-up refuses it. */
        UNKNOWN
    }

    /** What a marker says: who wrote it and, for Sibyl's, the generations it speaks for (its own among them). */
    record Content(Writer writer, Set<Integer> generations) {
    }

    private CompactedMarker() {
    }

    static Path path(Descriptor sstable) {
        return sstable.directory().resolve(sstable.columnFamily() + "-" + sstable.generation() + "-"
                + DataFileName.COMPACTED);
    }

    static Path temporaryPath(Descriptor sstable) {
        return sstable.directory().resolve(Descriptor.TEMPORARY_PREFIX + path(sstable).getFileName());
    }

    /** Reads the marker of the SSTable of {@code generation}, at {@code marker}. */
    static Content read(Path marker, int generation) throws IOException {
        long size = Files.size(marker);
        if (size == 0) return new Content(Writer.CASSANDRA_06, Set.of(generation));
        if (size > MAX_LENGTH) return new Content(Writer.UNKNOWN, Set.of());
        List<String> lines = List.of(new String(Files.readAllBytes(marker), StandardCharsets.UTF_8).split("\n", -1));
        if (!lines.get(0).equals(FIRST_LINE)) return new Content(Writer.UNKNOWN, Set.of());
        Set<Integer> generations = new TreeSet<>();
        generations.add(generation);
        for (String line : lines) {
            if (!line.startsWith(GENERATIONS)) continue;
            for (String g : line.substring(GENERATIONS.length()).trim().split(" +")) {
                try {
                    if (!g.isEmpty()) generations.add(Integer.parseInt(g));
                } catch (NumberFormatException e) {
                    // A marker is renamed into place whole, so this is not Sibyl's doing; its own generation stands.
                }
            }
        }
        return new Content(Writer.SIBYL, generations);
    }

    /**
     * Writes Sibyl's marker beside each of {@code sstables} (Cassandra 0.6 SSTables of one column family that one
     * compaction replaced), each listing them all, and syncs their directories: when this returns, none of them
     * is loaded at the next start. The caller made the replacing SSTable durable first.
     *
     * @throws MarkersLeftException when writing failed and so did taking back the markers written: the
     *                              replacing SSTable must then be kept, since they speak for it
     * @throws IOException          when writing failed and nothing of it is left
     */
    static void writeAll(List<Descriptor> sstables, String into) throws IOException {
        List<Integer> generations = new ArrayList<>();
        for (Descriptor d : sstables) generations.add(d.generation());
        List<Path> written = new ArrayList<>();
        Set<Path> directories = new LinkedHashSet<>();
        try {
            for (Descriptor d : sstables) {
                written.add(path(d));
                directories.add(d.directory());
                write(d, generations, into);
            }
            for (Path dir : directories) Directories.sync(dir);
        } catch (IOException | RuntimeException e) {
            try {
                for (Descriptor d : sstables) Files.deleteIfExists(temporaryPath(d));
                for (Path marker : written) Files.deleteIfExists(marker);
                for (Path dir : directories) Directories.sync(dir);
            } catch (IOException | RuntimeException r) {
                MarkersLeftException left = new MarkersLeftException("could not mark " + sstables + " as replaced by "
                        + into + " (" + e.getMessage() + "), nor take back the markers written (" + r.getMessage() + ")", e);
                left.addSuppressed(r);
                throw left;
            }
            throw e;
        }
    }

    /** Writes Sibyl's marker of one SSTable (fsynced and renamed into place; the caller syncs the directory). */
    static void write(Descriptor sstable, Collection<Integer> generations, String into) throws IOException {
        StringBuilder text = new StringBuilder(FIRST_LINE).append('\n').append(GENERATIONS.trim());
        for (int g : new TreeSet<>(generations)) text.append(' ').append(g);
        text.append('\n').append(INTO).append(into).append('\n');
        Path temporary = temporaryPath(sstable);
        try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer bytes = ByteBuffer.wrap(text.toString().getBytes(StandardCharsets.UTF_8));
            while (bytes.hasRemaining()) channel.write(bytes);
            channel.force(true);
        }
        Files.move(temporary, path(sstable), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }
}
