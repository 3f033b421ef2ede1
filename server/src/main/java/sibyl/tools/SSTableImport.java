package sibyl.tools;

import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import sibyl.db.CFMetaData;
import sibyl.dht.Partitioner;
import sibyl.fs.Directories;
import sibyl.io.Component;
import sibyl.io.DataFileInventory;
import sibyl.io.Descriptor;
import sibyl.io.SSTableDirectory;
import sibyl.io.SSTableWriter;
import sibyl.tools.JsonTokens.BadJson;

/**
 * bin/json2sstable: builds one SSTable of a column family from a JSON export (bin/sstable2json's,
 * or 0.6's) in the node's data directory, where the node loads it at its next start, or at once
 * on {@code nodetool refresh}.
 *
 * <p>The input may be larger than the heap and in any order: {@link RowSorter} spills sorted
 * runs next to the output and merges them. The SSTable is written as the engine writes one,
 * under temporary names renamed into place once complete, with a generation no file of the
 * column family uses, so a node running meanwhile neither loads half of it nor names a flush
 * like it. Bad input stops the import with the file, line and problem, and leaves nothing.
 */
public final class SSTableImport {
    static final String USAGE = """
            Usage: json2sstable [--conf DIR] -K KEYSPACE -c COLUMNFAMILY FILE [SSTABLE]
            Builds an SSTable of KEYSPACE.COLUMNFAMILY from FILE, JSON as bin/sstable2json (or
            Cassandra 0.6's) writes it, in the node's data directory. The node loads it at its
            next start, or at once with: bin/nodetool refresh KEYSPACE COLUMNFAMILY
            Rows may come in any order, and FILE may be larger than memory.
            SSTABLE, as Cassandra 0.6's json2sstable took it, names the Data file to write
            (DIR/COLUMNFAMILY-GENERATION-Data.db); it and its companions must not exist yet.
              --conf DIR        the node's configuration directory (default: $SIBYL_CONF, else
                                conf/ of the install); storage-conf.xml gives the schema
              -K KEYSPACE       the keyspace
              -c COLUMNFAMILY   the column family
            Exit status: 0 when the SSTable is written, 1 when it is not (the reason is printed),
            2 for a bad command line.
            """;

    /** What an import did. */
    record Result(Descriptor sstable, long rowsRead, int runs) {
    }

    private SSTableImport() {
    }

    public static void main(String[] args) {
        ToolEnvironment.quietLogging();
        System.exit(run(args, System.out, System.err));
    }

    /** Runs one command line; returns the exit status. */
    static int run(String[] args, PrintStream out, PrintStream err) {
        String conf = null;
        String keyspace = null;
        String columnFamily = null;
        List<String> files = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "-h", "--help" -> {
                    out.print(USAGE);
                    return 0;
                }
                case "--conf", "-K", "-c" -> {
                    if (i + 1 >= args.length) return usage(err, "missing value after " + args[i]);
                    String value = args[++i];
                    if (args[i - 1].equals("--conf")) conf = value;
                    else if (args[i - 1].equals("-K")) keyspace = value;
                    else columnFamily = value;
                }
                default -> {
                    if (args[i].startsWith("-") && args[i].length() > 1) return usage(err, "unknown option " + args[i]);
                    files.add(args[i]);
                }
            }
        }
        if (keyspace == null || columnFamily == null) return usage(err, "-K KEYSPACE and -c COLUMNFAMILY are required");
        if (files.isEmpty() || files.size() > 2) {
            return usage(err, "one JSON file is needed, and at most the SSTable to write; " + files.size() + " given");
        }
        try {
            OfflineStorage storage = OfflineStorage.load(ToolEnvironment.conf(conf), ToolEnvironment.home());
            Optional<Descriptor> target = files.size() == 2 ? Optional.of(target(Path.of(files.get(1)), columnFamily))
                    : Optional.empty();
            Result result = importJson(storage, keyspace, columnFamily, Path.of(files.get(0)), target,
                    Runtime.getRuntime().maxMemory() / 8, (int) (System.currentTimeMillis() / 1000));
            out.println("Wrote " + result.rowsRead() + " rows of " + keyspace + "." + columnFamily + " to "
                    + result.sstable().path(Component.DATA) + (result.runs() > 0 ? " (sorted in " + result.runs()
                    + " runs)" : "") + "; the node loads it at its next start, or at once with: bin/nodetool refresh "
                    + keyspace + " " + columnFamily);
            return 0;
        } catch (ToolError e) {
            err.println("json2sstable: " + e.getMessage());
            return 1;
        }
    }

    /** The SSTable a Data file name given on the command line (0.6's form) stands for. */
    static Descriptor target(Path dataFile, String columnFamily) throws ToolError {
        Descriptor d = Descriptor.ofFile(dataFile);
        if (d == null || !dataFile.getFileName().toString().endsWith("-" + Component.DATA.suffix())) {
            throw new ToolError(dataFile + " is not the name of an SSTable's Data file (DIR/" + columnFamily
                    + "-GENERATION-Data.db)");
        }
        if (!d.columnFamily().equals(columnFamily)) {
            throw new ToolError(dataFile + " names an SSTable of " + d.columnFamily() + ", not of " + columnFamily);
        }
        return d;
    }

    private static int usage(PrintStream err, String problem) {
        err.println("json2sstable: " + problem);
        err.print(USAGE);
        return 2;
    }

    /** As below, into a new SSTable of the node's data directory. */
    static Result importJson(OfflineStorage storage, String keyspace, String columnFamily, Path file,
                             long memoryBudget, int nowSeconds) throws ToolError {
        return importJson(storage, keyspace, columnFamily, file, Optional.empty(), memoryBudget, nowSeconds);
    }

    /**
     * Imports {@code file} into a new SSTable of the column family.
     *
     * @param target       the SSTable to write (0.6's form of the command), which must not exist; empty for a new
     *                     one in the node's data directory
     * @param memoryBudget about how many bytes of rows to hold before spilling a sorted run
     * @param nowSeconds   the local deletion time of tombstones the input gives none for
     */
    static Result importJson(OfflineStorage storage, String keyspace, String columnFamily, Path file,
                             Optional<Descriptor> target, long memoryBudget, int nowSeconds) throws ToolError {
        CFMetaData metadata = storage.columnFamily(keyspace, columnFamily);
        Partitioner partitioner = storage.partitioner();
        Path directory = target.map(Descriptor::directory).orElseGet(() -> storage.roomiestDirectory(keyspace));
        Path work = createWorkDirectory(directory);
        // Runs are temporary: gone however the import ends, an interrupt (SIGINT, SIGTERM) included.
        Thread cleanup = new Thread(() -> deleteTree(work), "json2sstable-cleanup");
        Runtime.getRuntime().addShutdownHook(cleanup);
        try (Reader input = new InputStreamReader(Files.newInputStream(file), StandardCharsets.UTF_8.newDecoder());
             RowSorter sorter = new RowSorter(metadata, partitioner, work, memoryBudget, storage.columnIndexSize(),
                     storage.indexInterval())) {
            JsonRowReader rows = new JsonRowReader(new JsonTokens(input, file.toString()), metadata, nowSeconds);
            for (JsonRowReader.Row row = rows.next(); row != null; row = rows.next()) {
                if (!row.columns().isEmpty()) sorter.add(partitioner.decorateKey(row.key()), row.columns());
            }
            if (sorter.rowsAdded() == 0) throw new ToolError(file + " holds no rows with columns or tombstones; nothing written");
            Descriptor written = sorter.finishInto(rowCount -> target.isPresent()
                    ? namedSSTable(storage, metadata, target.get(), rowCount)
                    : newSSTable(storage, keyspace, metadata, directory, rowCount));
            return new Result(written, sorter.rowsAdded(), sorter.runsWritten());
        } catch (BadJson e) {
            throw new ToolError(e.getMessage(), e);
        } catch (NoSuchFileException e) {
            throw new ToolError("no such file: " + e.getFile(), e);
        } catch (IOException | RuntimeException e) {
            throw new ToolError("import of " + file + " into " + keyspace + "." + columnFamily + " failed: "
                    + (e.getMessage() == null ? e.toString() : e.getMessage()), e);
        } finally {
            deleteTree(work);
            try {
                Runtime.getRuntime().removeShutdownHook(cleanup);
            } catch (IllegalStateException e) {
                // shutting down already: the hook runs anyway
            }
        }
    }

    /**
     * A writer for the output, named with the first generation past every file of the keyspace
     * that no file of the column family uses. A node flushing meanwhile claims its generation by
     * creating the temporary Data file, as this writer does, so of two that pick the same one
     * the second fails to create it and moves on.
     */
    private static SSTableWriter newSSTable(OfflineStorage storage, String keyspace, CFMetaData metadata, Path directory,
                                            long rowCount) throws IOException {
        for (int generation = storage.highestGeneration(keyspace) + 1; ; generation++) {
            if (storage.generationInUse(keyspace, metadata.name(), generation)) continue;
            try {
                return SSTableWriter.create(new Descriptor(directory, metadata.name(), generation), metadata,
                        storage.partitioner(), storage.columnIndexSize(), storage.indexInterval(), rowCount);
            } catch (FileAlreadyExistsException e) {
                // taken since the check
            }
        }
    }

    /**
     * A writer for the SSTable the command line named. Its generation must be free in its directory: the
     * writer claims it by creating the temporary Data file exclusively, and no final file may exist.
     */
    private static SSTableWriter namedSSTable(OfflineStorage storage, CFMetaData metadata, Descriptor target,
                                              long rowCount) throws IOException {
        if (SSTableDirectory.generationInUse(List.of(target.directory()), metadata.name(), target.generation())) {
            throw new FileAlreadyExistsException(target.path(Component.DATA).toString(), null,
                    "generation " + target.generation() + " of " + metadata.name() + " is in use there; json2sstable"
                            + " never writes over a file: name a free generation");
        }
        return SSTableWriter.create(target, metadata, storage.partitioner(), storage.columnIndexSize(),
                storage.indexInterval(), rowCount);
    }

    /** A directory of this import's own beside the output (same file system), hidden from the node: it lists files only. */
    private static Path createWorkDirectory(Path directory) throws ToolError {
        try {
            Directories.createDurably(directory);
            return Files.createTempDirectory(directory, DataFileInventory.IMPORT_WORK_PREFIX);
        } catch (IOException e) {
            throw new ToolError("cannot create a work directory in " + directory + ": " + e.getMessage(), e);
        }
    }

    private static void deleteTree(Path root) {
        try (Stream<Path> files = Files.walk(root)) {
            for (Path p : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator) Files.deleteIfExists(p);
        } catch (IOException e) {
            // Best effort: what is left is a hidden directory the node never reads.
        }
    }
}
