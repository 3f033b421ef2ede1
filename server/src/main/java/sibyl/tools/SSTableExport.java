package sibyl.tools;

import java.io.BufferedWriter;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import sibyl.db.CFMetaData;
import sibyl.db.ColumnFamily;
import sibyl.db.MergingRowIterator;
import sibyl.dht.DecoratedKey;
import sibyl.dht.Partitioner;
import sibyl.io.CorruptSSTableException;
import sibyl.io.Descriptor;
import sibyl.io.SSTableDirectory;
import sibyl.io.SSTableReader;

/**
 * bin/sstable2json: writes the rows of one SSTable, or of a whole column family (its SSTables
 * merged as a read merges them, Cassandra 0.6's among them), as JSON in 0.6's shape with Sibyl's additions for tombstones
 * (see JSON.md), in ring order. Rows are read and written one at a time, so a column family
 * larger than the heap exports in constant memory.
 *
 * <p>It reads SSTables only, not memtables: {@code nodetool flush} first to include the latest
 * writes. It may run beside the node: files a compaction deletes meanwhile stay readable once
 * opened, and a listing that a compaction changed before they were opened is taken again.
 */
public final class SSTableExport {
    static final String USAGE = """
            Usage: sstable2json [--conf DIR] [-k KEY]... [-x KEY]... [-e] KEYSPACE COLUMNFAMILY
                   sstable2json [--conf DIR] [-k KEY]... [-x KEY]... [-e] SSTABLE-Data.db
            Writes the rows of a column family (all its SSTables, merged), or of one SSTable
            (Sibyl's or one Cassandra 0.6 wrote), to standard output as JSON in Cassandra 0.6's shape: row key -> columns as [name, value,
            timestamp, deleted] in hex, super columns nested, tombstones kept. Only what is in
            SSTables: run bin/nodetool flush first for the latest writes.
              --conf DIR   the node's configuration directory (default: $SIBYL_CONF, else conf/
                           of the install); storage-conf.xml gives the schema and data directories
              -k KEY       export only this row (repeatable); keys as they are, not hex, as in 0.6
              -x KEY       leave this row out (repeatable)
              -e           list the keys only, one per line
            Exit status: 0 when everything was written, 1 when not (the reason is printed), 2 for
            a bad command line.
            """;
    /** Listings a concurrent compaction may change under an export before its files are open. */
    private static final int OPEN_ATTEMPTS = 5;

    private final Partitioner partitioner;
    private final List<SSTableReader> sstables;

    private SSTableExport(Partitioner partitioner, List<SSTableReader> sstables) {
        this.partitioner = partitioner;
        this.sstables = sstables;
    }

    public static void main(String[] args) {
        ToolEnvironment.quietLogging();
        Writer out = new BufferedWriter(new OutputStreamWriter(new FileOutputStream(FileDescriptor.out),
                StandardCharsets.UTF_8), 1 << 16);
        System.exit(run(args, out, System.out, System.err));
    }

    /** Runs one command line, the JSON going to {@code json}; returns the exit status. */
    static int run(String[] args, Writer json, PrintStream out, PrintStream err) {
        String conf = null;
        Set<String> only = new LinkedHashSet<>();
        Set<String> excluded = new LinkedHashSet<>();
        boolean keysOnly = false;
        List<String> positional = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "-h", "--help" -> {
                    out.print(USAGE);
                    return 0;
                }
                case "-e" -> keysOnly = true;
                case "--conf", "-k", "-x" -> {
                    if (i + 1 >= args.length) return usage(err, "missing value after " + args[i]);
                    String value = args[++i];
                    if (args[i - 1].equals("--conf")) conf = value;
                    else if (args[i - 1].equals("-k")) only.add(value);
                    else excluded.add(value);
                }
                default -> {
                    if (args[i].startsWith("-")) return usage(err, "unknown option " + args[i]);
                    positional.add(args[i]);
                }
            }
        }
        if (positional.isEmpty() || positional.size() > 2) {
            return usage(err, "give a keyspace and column family, or one SSTable file");
        }
        try {
            OfflineStorage storage = OfflineStorage.load(ToolEnvironment.conf(conf), ToolEnvironment.home());
            SSTableExport export = positional.size() == 2 ? openColumnFamily(storage, positional.get(0), positional.get(1), err)
                    : openFile(storage, Path.of(positional.get(0)));
            try {
                export.write(json, only, excluded, keysOnly);
            } finally {
                export.close();
            }
            return 0;
        } catch (ToolError e) {
            err.println("sstable2json: " + e.getMessage());
            return 1;
        }
    }

    private static int usage(PrintStream err, String problem) {
        err.println("sstable2json: " + problem);
        err.print(USAGE);
        return 2;
    }

    /** Every SSTable of the column family, over all data directories. */
    static SSTableExport openColumnFamily(OfflineStorage storage, String keyspace, String columnFamily, PrintStream err)
            throws ToolError {
        CFMetaData metadata = storage.columnFamily(keyspace, columnFamily);
        for (int attempt = 1; ; attempt++) {
            List<Descriptor> found;
            try {
                found = storage.sstables(keyspace, columnFamily);
            } catch (IOException e) {
                throw new ToolError("cannot list the SSTables of " + keyspace + "." + columnFamily + ": " + e.getMessage(), e);
            }
            if (found.isEmpty()) {
                err.println("sstable2json: " + keyspace + "." + columnFamily + " has no SSTables in "
                        + storage.directories(keyspace) + " (bin/nodetool flush writes the memtables to SSTables)");
            }
            try {
                return new SSTableExport(storage.partitioner(), open(found, metadata, storage));
            } catch (NoSuchFileException e) {
                // A compaction replaced some of them since the listing: list again.
                if (attempt == OPEN_ATTEMPTS) throw new ToolError("the SSTables of " + keyspace + "." + columnFamily
                        + " keep changing under the export (compactions?); " + e.getFile() + " vanished", e);
            }
        }
    }

    /**
     * One SSTable, named by any of its files, Sibyl's or Cassandra 0.6's (told apart by content);
     * its keyspace is the directory it is in, or for a snapshot ({@code <keyspace>/snapshots/<name>/}) the one above.
     */
    static SSTableExport openFile(OfflineStorage storage, Path file) throws ToolError {
        Descriptor descriptor;
        try {
            descriptor = SSTableDirectory.identify(file);
        } catch (IOException e) {
            throw new ToolError(e.getMessage(), e);
        }
        CFMetaData metadata = storage.columnFamily(keyspaceOf(storage, descriptor.directory()), descriptor.columnFamily());
        try {
            return new SSTableExport(storage.partitioner(), open(List.of(descriptor), metadata, storage));
        } catch (NoSuchFileException e) {
            throw new ToolError("SSTable " + descriptor + " vanished while being opened: " + e.getFile(), e);
        }
    }

    private static String keyspaceOf(OfflineStorage storage, Path directory) throws ToolError {
        Path keyspaceDir = directory;
        Path parent = directory.getParent();
        if (parent != null && parent.getFileName() != null && parent.getFileName().toString().equals("snapshots")) {
            keyspaceDir = parent.getParent();
        }
        String name = keyspaceDir == null || keyspaceDir.getFileName() == null ? "" : keyspaceDir.getFileName().toString();
        if (storage.keyspace(name).isEmpty()) {
            throw new ToolError("cannot tell the keyspace of the SSTable in " + directory + ": " + name
                    + " is not a configured keyspace (SSTables live in <DataFileDirectory>/<Keyspace>/)");
        }
        return name;
    }

    private static List<SSTableReader> open(List<Descriptor> descriptors, CFMetaData metadata, OfflineStorage storage)
            throws NoSuchFileException, ToolError {
        List<SSTableReader> readers = new ArrayList<>();
        try {
            for (Descriptor d : descriptors) {
                readers.add(SSTableReader.open(d, metadata, storage.partitioner(), storage.indexInterval()));
            }
            return readers;
        } catch (NoSuchFileException e) {
            readers.forEach(SSTableReader::release);
            throw e;
        } catch (IOException | RuntimeException e) {
            readers.forEach(SSTableReader::release);
            throw new ToolError("cannot open an SSTable: " + (e.getMessage() == null ? e.toString() : e.getMessage()), e);
        }
    }

    /** Writes the rows (or keys) in ring order: those of {@code only} when it names any, none of {@code excluded}. */
    void write(Writer out, Set<String> only, Set<String> excluded, boolean keysOnly) throws ToolError {
        try {
            JsonRowWriter rows = keysOnly ? null : new JsonRowWriter(out);
            Iterator<Map.Entry<DecoratedKey, ColumnFamily>> all = only.isEmpty() ? scan() : lookUp(only);
            while (all.hasNext()) {
                Map.Entry<DecoratedKey, ColumnFamily> row = all.next();
                String key = row.getKey().key();
                if (excluded.contains(key)) continue;
                if (rows == null) {
                    out.write(key);
                    out.write('\n');
                } else {
                    rows.write(key, row.getValue());
                }
            }
            if (rows != null) rows.finish();
            out.flush();
        } catch (IOException e) {
            throw new ToolError("cannot write the output: " + e.getMessage(), e);
        } catch (CorruptSSTableException e) {
            throw new ToolError(e.getMessage(), e); // names the file, the offset and the damage
        } catch (RuntimeException e) {
            throw new ToolError("cannot read " + describe() + ": " + (e.getMessage() == null ? e.toString() : e.getMessage()), e);
        }
    }

    /** Every row, merged over the SSTables. */
    private Iterator<Map.Entry<DecoratedKey, ColumnFamily>> scan() {
        DecoratedKey start = DecoratedKey.startOf(partitioner.getMinimumToken());
        List<Iterator<Map.Entry<DecoratedKey, ColumnFamily>>> sources = new ArrayList<>();
        for (SSTableReader r : sstables) sources.add(r.rowsFrom(start));
        return sources.isEmpty() ? Collections.emptyIterator() : MergingRowIterator.of(sources);
    }

    /** The rows of the given keys that any SSTable holds, in ring order. */
    private Iterator<Map.Entry<DecoratedKey, ColumnFamily>> lookUp(Set<String> keys) {
        TreeSet<DecoratedKey> sorted = new TreeSet<>();
        for (String k : keys) sorted.add(partitioner.decorateKey(k));
        List<Map.Entry<DecoratedKey, ColumnFamily>> rows = new ArrayList<>();
        for (DecoratedKey key : sorted) {
            ColumnFamily merged = null;
            for (SSTableReader r : sstables) {
                ColumnFamily row = r.mayContain(key) ? r.getRow(key) : null;
                if (row != null) merged = merged == null ? row : ColumnFamily.merge(merged, row);
            }
            if (merged != null) rows.add(Map.entry(key, merged));
        }
        return rows.iterator();
    }

    private String describe() {
        List<String> names = new ArrayList<>();
        for (SSTableReader r : sstables) names.add(r.descriptor().toString());
        return names.size() == 1 ? names.get(0) : names.toString();
    }

    private void close() {
        for (SSTableReader r : sstables) r.release();
    }
}
