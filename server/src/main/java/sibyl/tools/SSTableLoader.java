package sibyl.tools;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.cassandra.thrift.ConsistencyLevel;
import sibyl.config.ConfigurationException;
import sibyl.config.StorageConf;
import sibyl.config.StorageConfLoader;
import sibyl.db.CFMetaData;
import sibyl.db.ColumnFamily;
import sibyl.db.KSMetaData;
import sibyl.db.MergingRowIterator;
import sibyl.dht.DecoratedKey;
import sibyl.dht.Partitioner;
import sibyl.dht.Partitioners;
import sibyl.io.Component;
import sibyl.io.CorruptSSTableException;
import sibyl.io.DataFileInventory.Finding;
import sibyl.io.Descriptor;
import sibyl.io.SSTableFormat;
import sibyl.io.SSTableReader;
import sibyl.service.NodeSchema;

/**
 * bin/sstableloader: loads the SSTables of one column family, copied from any number of nodes (Cassandra
 * 0.6's, Sibyl's), into a running node through 0.6's Thrift interface. For merging a 0.6 ring whose
 * ReplicationFactor was below its size, so that each node held some of the rows, into one node, or into a
 * cluster through a node in cluster mode: the public interface is the same for both.
 *
 * <p>The SSTables are read together in ring order and each key's versions reconciled as a read reconciles
 * them; the reconciled row goes to the node as {@link RowMutations} says, every column and tombstone with
 * its own timestamp, and the node reconciles it with what it holds. The input files are only read.
 */
public final class SSTableLoader {
    static final String USAGE = """
            Usage: sstableloader [--conf DIR] [-h HOST] [-p PORT] [--framed] [-u USER -pw PASSWORD]
                                 [--consistency LEVEL] [--connections N]
                                 -K KEYSPACE -c COLUMNFAMILY DIR_OR_FILE...
            Loads the SSTables of KEYSPACE.COLUMNFAMILY found in each DIR (as copied from any number of
            nodes, Cassandra 0.6's or Sibyl's; generations may repeat across them), or named by FILE (any
            of an SSTable's files), into a running node through its Thrift port. The SSTables are merged
            by timestamp, tombstones included, and each row is sent with batch_mutate: every column and
            tombstone with its own timestamp, so the node reconciles the rows with what it holds. The
            node stores them as any write, in its own engine or, in cluster mode, in the cluster.
            The files are only read. Files of other column families in a DIR are passed over, and so are
            those the node itself would not load (what Cassandra 0.6 marked compacted, its temporary
            files); any other file stops the load before anything is sent.
            Tombstones get the node's time as their local deletion time: GCGraceSeconds starts again
            for each of them when it is loaded (0.6's Deletion carries no deletion time).
              --conf DIR          a configuration directory whose storage-conf.xml has the column family
                                  (its type and comparators) and the Partitioner the SSTables were written
                                  under (default: $SIBYL_CONF, else conf/ of the install)
              -h, --host HOST     the node (default: ThriftAddress of --conf, localhost if a wildcard)
              -p, --port PORT     its Thrift port (default: ThriftPort of --conf)
              --framed            framed transport (Sibyl serves both on one port; a 0.6 node one of them)
              -u, --username USER, -pw, --password PASSWORD
                                  log in to KEYSPACE (when the node's Authenticator asks for it)
              --consistency LEVEL the level of each batch_mutate (default ONE)
              --connections N     batches sent at once, each over a connection of its own (default 1;
                                  more may help a node with cores to spare)
              -K KEYSPACE         the keyspace
              -c COLUMNFAMILY     the column family
              --help              this text
            It reports the rows read from each SSTable, the rows, columns and tombstones sent, and the
            time taken. Exit status: 0 when every row was sent, 1 when not (the reason is printed; rows
            are safe to send again, so the load may simply be run again), 2 for a bad command line.
            """;
    /** About how many bytes one batch_mutate carries: well below the 16 MB ThriftMaxMessageLengthInMB default. */
    static final long BATCH_BYTES = 1 << 20;
    /**
     * One sender already overlaps reading the SSTables with sending; more connections help a node with cores to
     * spare. (Loader and node on one two-core machine: 1 connection loaded 300,000 rows at about 27,000 rows/s, 2 at
     * about 19,000.)
     */
    static final int DEFAULT_CONNECTIONS = 1;

    private SSTableLoader() {
    }

    public static void main(String[] args) {
        ToolEnvironment.quietLogging();
        System.exit(run(args, System.out, System.err));
    }

    /** What a command line asks for. */
    record Options(String conf, String host, Integer port, boolean framed, String username, String password,
                   ConsistencyLevel consistency, int connections, String keyspace, String columnFamily,
                   List<Path> inputs) {
    }

    /** What a load did. */
    record Result(List<Input> inputs, long rowsSent, long batches, long columns, long rowTombstones,
                  long superColumnTombstones, long columnTombstones, long shadowed, long retries, long elapsedNanos) {
        long tombstones() {
            return rowTombstones + superColumnTombstones + columnTombstones;
        }
    }

    /** One SSTable read, and how many rows it held. */
    record Input(Descriptor sstable, long rows) {
    }

    /** Runs one command line; returns the exit status. */
    static int run(String[] args, PrintStream out, PrintStream err) {
        return run(args, out, err, NodeConnection.Retry.DEFAULT);
    }

    static int run(String[] args, PrintStream out, PrintStream err, NodeConnection.Retry retry) {
        Options options;
        try {
            options = parse(args);
        } catch (IllegalArgumentException e) {
            err.println("sstableloader: " + e.getMessage());
            err.print(USAGE);
            return 2;
        }
        if (options == null) {
            out.print(USAGE);
            return 0;
        }
        try {
            StorageConf conf = loadConf(ToolEnvironment.conf(options.conf()));
            CFMetaData metadata = columnFamily(conf, options.keyspace(), options.columnFamily());
            if (metadata.isCounter()) {
                // Sent through 0.6's batch_mutate, a counter would arrive as a column, which the node refuses; and
                // increments sent twice (a retry) would count twice.
                throw new ToolError(options.keyspace() + "." + options.columnFamily() + " holds counters, which"
                        + " sstableloader cannot send; nothing was sent. Export them with sstable2json and import them"
                        + " into the stopped node with json2sstable, or copy the SSTables into its data directory");
            }
            NodeConnection.Node node = new NodeConnection.Node(
                    options.host() != null ? options.host() : defaultHost(conf.thriftAddress()),
                    options.port() != null ? options.port() : conf.thriftPort(), options.framed(), options.username(),
                    options.password());
            LoadInputs inputs = LoadInputs.find(options.inputs(), options.columnFamily());
            for (Finding f : inputs.skipped()) out.println("Skipped " + f);
            if (inputs.sstables().isEmpty()) {
                throw new ToolError(options.inputs().size() == 1 && inputs.empty().size() == 1
                        ? inputs.empty().get(0) + "; nothing was sent"
                        : "no SSTable of " + options.keyspace() + "." + options.columnFamily() + " to load in "
                        + options.inputs() + "; nothing was sent");
            }
            for (Finding empty : inputs.empty()) err.println("sstableloader: " + empty);
            Result result = load(inputs.sstables(), metadata, Partitioners.forName(conf.partitioner()),
                    conf.indexInterval(), node, options.consistency(), BATCH_BYTES, options.connections(), retry, err);
            report(out, options, node, result);
            return 0;
        } catch (ToolError e) {
            err.println("sstableloader: " + e.getMessage());
            return 1;
        }
    }

    /** The options, or null when --help asks for the usage. */
    static Options parse(String[] args) {
        String conf = null;
        String host = null;
        Integer port = null;
        boolean framed = false;
        String username = null;
        String password = null;
        ConsistencyLevel consistency = ConsistencyLevel.ONE;
        int connections = DEFAULT_CONNECTIONS;
        String keyspace = null;
        String columnFamily = null;
        List<Path> inputs = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            switch (arg) {
                case "--help" -> {
                    return null;
                }
                case "--framed" -> framed = true;
                case "--conf", "-h", "--host", "-p", "--port", "-u", "--username", "-pw", "--password", "--consistency",
                     "--connections", "-K", "-c" -> {
                    if (i + 1 >= args.length) throw new IllegalArgumentException("missing value after " + arg);
                    String value = args[++i];
                    switch (arg) {
                        case "--conf" -> conf = value;
                        case "-h", "--host" -> host = value;
                        case "-p", "--port" -> port = port(value);
                        case "-u", "--username" -> username = value;
                        case "-pw", "--password" -> password = value;
                        case "--consistency" -> consistency = consistency(value);
                        case "--connections" -> connections = connections(value);
                        case "-K" -> keyspace = value;
                        default -> columnFamily = value;
                    }
                }
                default -> {
                    if (arg.startsWith("-") && arg.length() > 1) throw new IllegalArgumentException("unknown option " + arg);
                    inputs.add(Path.of(arg));
                }
            }
        }
        if (keyspace == null || columnFamily == null) {
            throw new IllegalArgumentException("-K KEYSPACE and -c COLUMNFAMILY are required");
        }
        if (inputs.isEmpty()) throw new IllegalArgumentException("name at least one directory or SSTable file to load");
        if (password != null && username == null) throw new IllegalArgumentException("-pw PASSWORD needs -u USER");
        return new Options(conf, host, port, framed, username, password, consistency, connections, keyspace,
                columnFamily, inputs);
    }

    private static int port(String value) {
        try {
            int port = Integer.parseInt(value);
            if (port >= 1 && port <= 65535) return port;
        } catch (NumberFormatException e) {
            // below
        }
        throw new IllegalArgumentException("not a port: " + value);
    }

    private static int connections(String value) {
        try {
            int n = Integer.parseInt(value);
            if (n >= 1 && n <= 64) return n;
        } catch (NumberFormatException e) {
            // below
        }
        throw new IllegalArgumentException("--connections takes 1 to 64, not " + value);
    }

    private static ConsistencyLevel consistency(String value) {
        try {
            return ConsistencyLevel.valueOf(value.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("not a consistency level: " + value + " (ONE, QUORUM, ALL, ANY, ...)");
        }
    }

    /**
     * The configuration, of a node of either backend (only the schema, the partitioner and the Thrift
     * address are used: no directory of it is read).
     */
    private static StorageConf loadConf(Path confDir) throws ToolError {
        Path file = confDir.resolve("storage-conf.xml");
        if (!Files.isRegularFile(file)) throw new ToolError("no storage-conf.xml in " + confDir + " (--conf DIR names the directory)");
        try {
            return StorageConfLoader.load(file, ToolEnvironment.home());
        } catch (ConfigurationException | IllegalArgumentException e) {
            throw new ToolError("cannot use " + file + ": " + e.getMessage(), e);
        }
    }

    private static CFMetaData columnFamily(StorageConf conf, String keyspace, String columnFamily) throws ToolError {
        List<KSMetaData> schema;
        try {
            schema = NodeSchema.served(conf);
        } catch (IOException | ConfigurationException e) {
            throw new ToolError("cannot use " + conf.configFile() + ": " + e.getMessage(), e);
        }
        KSMetaData ks = schema.stream().filter(k -> k.name().equals(keyspace)).findFirst()
                .orElseThrow(() -> new ToolError("keyspace " + keyspace + " is not in " + conf.configFile()));
        return ks.columnFamily(columnFamily).orElseThrow(() -> new ToolError("column family " + columnFamily
                + " is not in keyspace " + keyspace + " of " + conf.configFile()));
    }

    /** Where a node configured with ThriftAddress {@code address} is reached from this machine. */
    static String defaultHost(String address) {
        if (address == null || address.isEmpty()) {
            try {
                return InetAddress.getLocalHost().getHostAddress();
            } catch (UnknownHostException e) {
                return "localhost";
            }
        }
        return address.equals("0.0.0.0") || address.equals("::") || address.equals("0:0:0:0:0:0:0:0") ? "localhost"
                : address;
    }

    /**
     * Reads {@code sstables} together in ring order and sends each reconciled row to {@code node}.
     *
     * @param notes where retries and anything else not part of the report go
     */
    static Result load(List<Descriptor> sstables, CFMetaData metadata, Partitioner partitioner, int indexInterval,
                       NodeConnection.Node node, ConsistencyLevel consistency, long batchBytes, int connections,
                       NodeConnection.Retry retry, PrintStream notes) throws ToolError {
        long start = System.nanoTime();
        List<SSTableReader> readers = open(sstables, metadata, partitioner, indexInterval);
        try (ThriftBatchWriter writer = new ThriftBatchWriter(node, metadata, consistency, batchBytes, connections, retry,
                notes)) {
            writer.open();
            List<CountingRows> sources = new ArrayList<>();
            DecoratedKey first = DecoratedKey.startOf(partitioner.getMinimumToken());
            for (SSTableReader r : readers) sources.add(new CountingRows(r, r.rowsFrom(first)));
            List<Iterator<Map.Entry<DecoratedKey, ColumnFamily>>> iterators = new ArrayList<>(sources);
            Iterator<Map.Entry<DecoratedKey, ColumnFamily>> rows = MergingRowIterator.of(iterators);
            long columns = 0;
            long rowTombstones = 0;
            long superColumnTombstones = 0;
            long columnTombstones = 0;
            long shadowed = 0;
            int chunkBytes = (int) Math.max(1, batchBytes / 2);
            try {
                while (rows.hasNext()) {
                    Map.Entry<DecoratedKey, ColumnFamily> row = rows.next();
                    RowMutations mutations = RowMutations.of(row.getValue(), chunkBytes);
                    shadowed += mutations.shadowed();
                    if (mutations.isEmpty()) continue;
                    writer.add(row.getKey().key(), mutations);
                    columns += mutations.columns();
                    rowTombstones += mutations.rowTombstones();
                    superColumnTombstones += mutations.superColumnTombstones();
                    columnTombstones += mutations.columnTombstones();
                }
                writer.finish();
            } catch (CorruptSSTableException e) {
                throw new ToolError(e.getMessage() + "; " + writer.rowsSent() + " rows had been sent", e);
            } catch (RuntimeException e) {
                throw new ToolError("reading the SSTables failed: " + (e.getMessage() == null ? e.toString()
                        : e.getMessage()) + "; " + writer.rowsSent() + " rows had been sent", e);
            }
            List<Input> inputs = new ArrayList<>();
            for (CountingRows s : sources) inputs.add(new Input(s.reader.descriptor(), s.count));
            return new Result(inputs, writer.rowsSent(), writer.batchesSent(), columns, rowTombstones,
                    superColumnTombstones, columnTombstones, shadowed, writer.retries(), System.nanoTime() - start);
        } finally {
            for (SSTableReader r : readers) r.release();
        }
    }

    /** Opens every SSTable before anything is sent: one of another partitioner or damaged stops the load here. */
    private static List<SSTableReader> open(List<Descriptor> sstables, CFMetaData metadata, Partitioner partitioner,
                                            int indexInterval) throws ToolError {
        List<SSTableReader> readers = new ArrayList<>();
        try {
            for (Descriptor d : sstables) {
                try {
                    readers.add(SSTableReader.open(d, metadata, partitioner, indexInterval));
                } catch (NoSuchFileException e) {
                    throw new ToolError(d.path(Component.DATA) + " vanished while being opened: " + e.getFile(), e);
                } catch (IOException | RuntimeException e) {
                    throw new ToolError("cannot read " + d.path(Component.DATA) + " as an SSTable of " + metadata.keyspace()
                            + "." + metadata.name() + " written under " + partitioner.className() + " (the Partitioner of"
                            + " --conf): " + (e.getMessage() == null ? e.toString() : e.getMessage())
                            + "; nothing was sent", e);
                }
            }
            return readers;
        } catch (ToolError e) {
            readers.forEach(SSTableReader::release);
            throw e;
        }
    }

    private static void report(PrintStream out, Options options, NodeConnection.Node node, Result r) {
        out.println("Read " + r.inputs().size() + " SSTable(s) of " + options.keyspace() + "." + options.columnFamily()
                + ":");
        for (Input in : r.inputs()) {
            out.println("  " + in.sstable().path(Component.DATA) + " ("
                    + (in.sstable().format() == SSTableFormat.CASSANDRA_06 ? "Cassandra 0.6" : "Sibyl") + "): "
                    + in.rows() + " rows");
        }
        out.println("Sent " + r.rowsSent() + " rows to " + node + " in " + r.batches() + " batch_mutate calls"
                + (r.retries() > 0 ? " (" + r.retries() + " sent again)" : "") + ": " + r.columns() + " columns, "
                + r.tombstones() + " tombstones (" + r.rowTombstones() + " of rows, " + r.superColumnTombstones()
                + " of super columns, " + r.columnTombstones() + " of columns); " + r.shadowed()
                + " versions under a tombstone left out");
        double seconds = r.elapsedNanos() / 1e9;
        out.println(String.format(Locale.ROOT, "Elapsed %.1f s (%.0f rows/s)", seconds,
                seconds > 0 ? r.rowsSent() / seconds : 0.0));
        if (r.tombstones() > 0) {
            out.println("The node gave the tombstones its own time as their local deletion time: GCGraceSeconds"
                    + " counts from now for them.");
        }
    }

    /** An SSTable's rows, counted as they are read. */
    private static final class CountingRows implements Iterator<Map.Entry<DecoratedKey, ColumnFamily>> {
        final SSTableReader reader;
        final Iterator<Map.Entry<DecoratedKey, ColumnFamily>> source;
        long count;

        CountingRows(SSTableReader reader, Iterator<Map.Entry<DecoratedKey, ColumnFamily>> source) {
            this.reader = reader;
            this.source = source;
        }

        @Override
        public boolean hasNext() {
            return source.hasNext();
        }

        @Override
        public Map.Entry<DecoratedKey, ColumnFamily> next() {
            Map.Entry<DecoratedKey, ColumnFamily> row = source.next();
            count++;
            return row;
        }
    }
}
