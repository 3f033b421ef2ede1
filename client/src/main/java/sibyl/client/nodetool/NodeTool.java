package sibyl.client.nodetool;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.management.JMException;
import javax.management.JMRuntimeException;
import javax.management.ObjectName;
import sibyl.client.tool.CommandLine;
import sibyl.client.tool.CommandLine.Arguments;
import sibyl.client.tool.CommandLine.Option;

/**
 * bin/nodetool: inspects and manages a node over JMX, with 0.6's commands and layout.
 *
 * <pre>bin/nodetool [-h HOST] [-p PORT] COMMAND</pre>
 *
 * Exit status: 0 on success, 1 when the node cannot be reached or the command fails, 2 for a
 * bad command line.
 */
public final class NodeTool {
    static final String USAGE = """
            Usage: nodetool [-h HOST] [-p PORT] [-t SECONDS] COMMAND
              -h, --host HOST   the node (default localhost; -host works too, as in 0.6)
              -p, --port PORT   its JMX port, JmxPort in storage-conf.xml (default 8080; -port works too)
              -t, --timeout SECONDS  how long flush, drain and snapshot wait for the flushes (default:
                                the node's, two minutes); past it they fail with the reason
                  --help        this text (also: nodetool help)
            Commands:
              info              token, load, uptime and heap of the node (in cluster mode: the
                                cluster it stores into, and the requests it served)
              ring              the nodes of the ring with their tokens and load (in cluster
                                mode: the cluster's ring, its nodes up or down)
              cfstats           per keyspace and column family: counts, latencies, memtable
              tpstats           worker pools: active, pending and completed tasks
              flush [KS [CF...]] write memtables to SSTables: of the named column families,
                                all of keyspace KS, or of every keyspace; returns when done,
                                or fails (exit 1) when flushes keep failing
              compact [KS]      major compaction: each column family's SSTables into one,
                                tombstones older than GCGraceSeconds dropped (all keyspaces
                                when none is named)
              drain             flush everything and refuse writes from then on: run before
                                stopping the node for a clean shutdown; fails (exit 1) when
                                the flushes do not finish, and writes stay refused
              snapshot [TAG]    flush, then hard-link every SSTable into
                                <DataFileDirectory>/<Keyspace>/snapshots/<millis>[-TAG]/
              clearsnapshot [TAG]  delete the snapshots tagged TAG (all snapshots without one)
              scrub [KS [CF...]] rewrite SSTables keeping every row whose checksums hold and
                                dropping damaged ones; the originals are kept in a snapshot
                                (pre-scrub-CF); prints rows kept and dropped
              upgradesstables [KS [CF...]]  rewrite the Cassandra 0.6 SSTables the node reads in
                                place (a node that took over a 0.6 node's directories) into
                                its own format, then remove them; prints per column family
                                how many were rewritten
              refresh KS CF     load the SSTables of KS.CF put into its data directory while
                                the node runs (bin/json2sstable), without a restart
              reloadconf        reread the node's storage-conf.xml and apply what changed
                                without a restart (new keyspaces and column families, cache
                                sizes, GCGraceSeconds, memtable thresholds); prints one line
                                per change, or "no changes"; a change that takes a restart
                                refuses the whole file (exit 1), naming the element

            In cluster mode the node keeps no data: flush, compact, drain, snapshot,
            clearsnapshot, scrub, upgradesstables and refresh are the cluster's to do, and say so
            (exit 1).
            """;

    private final PrintStream out;
    private final long timeoutSeconds;

    /** @param timeoutSeconds how long flush and drain wait; 0 for the node's default */
    NodeTool(PrintStream out, long timeoutSeconds) {
        this.out = out;
        this.timeoutSeconds = timeoutSeconds;
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    static final CommandLine COMMAND_LINE = new CommandLine("nodetool", USAGE, true,
            Option.value("-h", "--host", "-host"), Option.value("-p", "--port", "-port"),
            Option.value("-t", "--timeout"));

    private static final List<String> COMMANDS = List.of("info", "ring", "cfstats", "tpstats", "flush", "compact",
            "drain", "snapshot", "clearsnapshot", "scrub", "upgradesstables", "refresh", "reloadconf");

    /** Runs one command line; returns the exit status. */
    static int run(String[] args, PrintStream out, PrintStream err) {
        String host;
        int port;
        long timeoutSeconds;
        List<String> rest;
        try {
            Arguments arguments = COMMAND_LINE.parse(args);
            rest = arguments.operands();
            if (arguments.help() || (!rest.isEmpty() && rest.get(0).equals("help"))) {
                return COMMAND_LINE.printUsage(out);
            }
            host = arguments.value("--host", "localhost");
            port = arguments.intValue("--port", 8080);
            timeoutSeconds = arguments.positiveLong("--timeout", 0); // 0: the node's default
        } catch (IllegalArgumentException e) {
            return COMMAND_LINE.refuse(err, e.getMessage());
        }
        if (rest.isEmpty()) {
            return COMMAND_LINE.refuse(err, "no command given");
        }
        String command = rest.get(0);
        if (!COMMANDS.contains(command)) {
            return COMMAND_LINE.refuse(err, "unknown command '" + command + "'");
        }
        List<String> arguments = rest.subList(1, rest.size());
        if (command.equals("refresh") && arguments.size() != 2) {
            return COMMAND_LINE.refuse(err, "refresh takes a keyspace and a column family");
        }
        if ((List.of("compact", "snapshot", "clearsnapshot").contains(command) && arguments.size() > 1)
                || (List.of("drain", "reloadconf").contains(command) && !arguments.isEmpty())
                || (List.of("info", "ring", "cfstats", "tpstats").contains(command) && !arguments.isEmpty())) {
            return COMMAND_LINE.refuse(err, "too many arguments for " + command + ": " + String.join(" ", arguments));
        }
        try (NodeProbe probe = NodeProbe.connect(host, port)) {
            NodeTool tool = new NodeTool(out, timeoutSeconds);
            switch (command) {
                case "info" -> tool.info(probe);
                case "ring" -> tool.ring(probe);
                case "cfstats" -> tool.cfstats(probe);
                case "flush" -> tool.flush(probe, arguments);
                case "compact" -> tool.compact(probe, arguments);
                case "drain" -> tool.drain(probe);
                case "snapshot" -> tool.snapshot(probe, arguments);
                case "clearsnapshot" -> tool.clearsnapshot(probe, arguments);
                case "scrub" -> tool.scrub(probe, arguments);
                case "upgradesstables" -> tool.upgradeSSTables(probe, arguments);
                case "refresh" -> tool.refresh(probe, arguments.get(0), arguments.get(1));
                case "reloadconf" -> tool.reloadconf(probe);
                default -> tool.tpstats(probe);
            }
            return 0;
        } catch (IOException e) {
            err.println("nodetool: cannot reach " + host + ":" + port + " over JMX: " + rootMessage(e));
            return 1;
        } catch (JMException | JMRuntimeException e) {
            if (root(e) instanceof UnsupportedOperationException) {
                // a node in cluster mode refusing a storage operation: its message says why, and what to do instead
                err.println("nodetool: " + rootMessage(e));
                return 1;
            }
            // JMRuntimeException: the node refused the arguments (an unknown keyspace, a bad tag).
            err.println("nodetool: " + command + " failed: " + rootMessage(e));
            return 1;
        }
    }

    void info(NodeProbe probe) throws IOException, JMException {
        MemoryUsage heap = probe.heap();
        Object cluster = probe.optionalStorage("StorageCluster");
        if (cluster != null) {
            // cluster mode: no token and no data here; what the node knows is where the data is and what it served
            out.printf(Locale.ROOT, "%-17s: %s%n", "Storage", cluster);
            out.printf(Locale.ROOT, "%-17s: none on this node%n", "Load");
            out.printf(Locale.ROOT, "%-17s: %s%n", "Reads", requests(probe, "Read"));
            out.printf(Locale.ROOT, "%-17s: %s%n", "Writes", requests(probe, "Write"));
            out.printf(Locale.ROOT, "%-17s: %s%n", "Range scans", requests(probe, "RangeScan"));
        } else {
            out.println(probe.storage("Token"));
            out.printf(Locale.ROOT, "%-17s: %s%n", "Load", fileSize((Long) probe.storage("Load")));
        }
        out.printf(Locale.ROOT, "%-17s: %d%n", "Uptime (seconds)", probe.uptimeMillis() / 1000);
        out.printf(Locale.ROOT, "%-17s: %.2f / %.2f%n", "Heap Memory (MB)", heap.getUsed() / 1048576.0,
                heap.getMax() / 1048576.0);
    }

    /** {@code N since start, mean M ms} of the node's {@code <kind>Count} and {@code Total<kind>LatencyMicros}. */
    private static String requests(NodeProbe probe, String kind) throws IOException, JMException {
        long count = (Long) probe.storage(kind + "Count");
        return count + " since start, mean " + millis((Long) probe.storage("Total" + kind + "LatencyMicros"), count)
                + " ms";
    }

    @SuppressWarnings("unchecked")
    void ring(NodeProbe probe) throws IOException, JMException {
        Map<String, String> ring = probe.tokenToEndpoint();
        if (ring.isEmpty()) {
            out.println("The ring is empty: the node knows no tokens");
            return;
        }
        String load = fileSize((Long) probe.storage("Load"));
        // in cluster mode this node is none of the ring's (its address may still be one of them)
        String self = probe.optionalStorage("StorageCluster") == null ? (String) probe.storage("Endpoint") : null;
        // A node in cluster mode shows the cluster's ring and which of its nodes are down; a node of its own is up.
        Object unreachable = probe.optionalStorage("UnreachableNodes");
        List<String> down = unreachable == null ? List.of() : (List<String>) unreachable;
        List<String> tokens = new ArrayList<>(ring.keySet());
        tokens.sort(NodeTool::compareTokens);
        out.printf(Locale.ROOT, "%-16s%-7s%-13s%-44s%s%n", "Address", "Status", "Load", "Range", "Ring");
        out.printf(Locale.ROOT, "%-36s%s%n", "", tokens.get(tokens.size() - 1));
        for (int i = 0; i < tokens.size(); i++) {
            String endpoint = ring.get(tokens.get(i));
            String marker = tokens.size() == 1 ? "|<--|" : i == 0 ? "|<--|" : i == tokens.size() - 1 ? "|-->|" : "|   |";
            out.printf(Locale.ROOT, "%-16s%-7s%-13s%-44s%s%n", endpoint, down.contains(endpoint) ? "Down" : "Up",
                    endpoint.equals(self) ? load : "?", tokens.get(i), marker);
        }
    }

    void cfstats(NodeProbe probe) throws IOException, JMException {
        Map<String, List<ObjectName>> byKeyspace = new LinkedHashMap<>();
        for (ObjectName cf : probe.columnFamilies()) {
            byKeyspace.computeIfAbsent(cf.getKeyProperty("keyspace"), k -> new ArrayList<>()).add(cf);
        }
        List<String> keyspaces = new ArrayList<>(byKeyspace.keySet());
        keyspaces.sort(null);
        for (String ks : keyspaces) {
            long reads = 0;
            long readMicros = 0;
            long writes = 0;
            long writeMicros = 0;
            for (ObjectName cf : byKeyspace.get(ks)) {
                reads += (Long) probe.attribute(cf, "ReadCount");
                readMicros += (Long) probe.attribute(cf, "TotalReadLatencyMicros");
                writes += (Long) probe.attribute(cf, "WriteCount");
                writeMicros += (Long) probe.attribute(cf, "TotalWriteLatencyMicros");
            }
            out.println("Keyspace: " + ObjectNames.unquote(ks));
            out.println("\tRead Count: " + reads);
            out.println("\tRead Latency: " + millis(readMicros, reads) + " ms.");
            out.println("\tWrite Count: " + writes);
            out.println("\tWrite Latency: " + millis(writeMicros, writes) + " ms.");
            for (ObjectName cf : byKeyspace.get(ks)) {
                out.println("\t\tColumn Family: " + probe.attribute(cf, "ColumnFamilyName"));
                for (CfStat stat : CfStat.ALL) {
                    Object value = probe.optionalAttribute(cf, stat.attribute());
                    if (value != null) out.println("\t\t" + stat.label() + ": " + stat.format(value));
                }
                long cfReads = (Long) probe.attribute(cf, "ReadCount");
                long cfWrites = (Long) probe.attribute(cf, "WriteCount");
                out.println("\t\tRead Count: " + cfReads);
                out.println("\t\tRead Latency: " + millis((Long) probe.attribute(cf, "TotalReadLatencyMicros"), cfReads)
                        + " ms.");
                out.println("\t\tWrite Count: " + cfWrites);
                out.println("\t\tWrite Latency: "
                        + millis((Long) probe.attribute(cf, "TotalWriteLatencyMicros"), cfWrites) + " ms.");
                out.println();
            }
            out.println("----------------");
        }
    }

    void tpstats(NodeProbe probe) throws IOException, JMException {
        out.printf(Locale.ROOT, "%-25s%10s%10s%15s%n", "Pool Name", "Active", "Pending", "Completed");
        for (ObjectName pool : probe.threadPools()) {
            out.printf(Locale.ROOT, "%-25s%10d%10d%15d%n", ObjectNames.unquote(pool.getKeyProperty("type")),
                    (Integer) probe.attribute(pool, "ActiveCount"), (Long) probe.attribute(pool, "PendingTasks"),
                    (Long) probe.attribute(pool, "CompletedTasks"));
        }
    }

    void flush(NodeProbe probe, List<String> arguments) throws IOException, JMException {
        List<String> keyspaces = arguments.isEmpty() ? probe.keyspaces() : List.of(arguments.get(0));
        String[] cfs = arguments.size() > 1 ? arguments.subList(1, arguments.size()).toArray(String[]::new) : new String[0];
        for (String ks : keyspaces) {
            if (timeoutSeconds > 0) {
                probe.invokeStorage("forceTableFlushWithin", new Object[] {timeoutSeconds, ks, cfs},
                        new String[] {long.class.getName(), String.class.getName(), String[].class.getName()});
            } else {
                probe.invokeStorage("forceTableFlush", new Object[] {ks, cfs},
                        new String[] {String.class.getName(), String[].class.getName()});
            }
        }
        out.println("Flushed " + (arguments.isEmpty() ? "every keyspace" : arguments.size() == 1 ? "keyspace " + arguments.get(0)
                : String.join(", ", arguments.subList(1, arguments.size())) + " of keyspace " + arguments.get(0)));
    }

    void compact(NodeProbe probe, List<String> arguments) throws IOException, JMException {
        List<String> keyspaces = arguments.isEmpty() ? probe.keyspaces() : arguments;
        for (String ks : keyspaces) {
            probe.invokeStorage("forceTableCompaction", new Object[] {ks}, new String[] {String.class.getName()});
        }
        out.println("Compacted " + (arguments.isEmpty() ? "every keyspace" : "keyspace " + arguments.get(0)));
    }

    void drain(NodeProbe probe) throws IOException, JMException {
        if (timeoutSeconds > 0) {
            probe.invokeStorage("drainWithin", new Object[] {timeoutSeconds}, new String[] {long.class.getName()});
        } else {
            probe.invokeStorage("drain", new Object[0], new String[0]);
        }
        out.println("Drained: every memtable is flushed and the node accepts no more writes");
    }

    @SuppressWarnings("unchecked")
    void snapshot(NodeProbe probe, List<String> arguments) throws IOException, JMException {
        String tag = arguments.isEmpty() ? "" : arguments.get(0);
        List<String> directories = timeoutSeconds > 0
                ? (List<String>) probe.invokeStorage("takeAllSnapshotWithin", new Object[] {timeoutSeconds, tag},
                        new String[] {long.class.getName(), String.class.getName()})
                : (List<String>) probe.invokeStorage("takeAllSnapshot", new Object[] {tag},
                        new String[] {String.class.getName()});
        if (directories.isEmpty()) {
            out.println("No snapshot taken: the node holds no SSTables");
            return;
        }
        String name = java.nio.file.Path.of(directories.get(0)).getFileName().toString();
        out.println("Snapshot " + name + " taken in:");
        for (String dir : directories) out.println("  " + dir);
    }

    @SuppressWarnings("unchecked")
    void clearsnapshot(NodeProbe probe, List<String> arguments) throws IOException, JMException {
        String tag = arguments.isEmpty() ? "" : arguments.get(0);
        List<String> cleared = (List<String>) probe.invokeStorage("clearSnapshot", new Object[] {tag},
                new String[] {String.class.getName()});
        out.println("Removed " + cleared.size() + " snapshot directories" + (tag.isEmpty() ? "" : " tagged " + tag));
        for (String dir : cleared) out.println("  " + dir);
    }

    void scrub(NodeProbe probe, List<String> arguments) throws IOException, JMException {
        perColumnFamily(probe, "scrub", arguments);
    }

    void upgradeSSTables(NodeProbe probe, List<String> arguments) throws IOException, JMException {
        perColumnFamily(probe, "upgradeSSTables", arguments);
    }

    /**
     * Runs a storage operation taking {@code (keyspace, columnFamilies...)} on {@code [KS [CF...]]} (every keyspace
     * when none is named) and prints the line it returns for each column family.
     */
    @SuppressWarnings("unchecked")
    private void perColumnFamily(NodeProbe probe, String operation, List<String> arguments)
            throws IOException, JMException {
        List<String> keyspaces = arguments.isEmpty() ? probe.keyspaces() : List.of(arguments.get(0));
        String[] cfs = arguments.size() > 1 ? arguments.subList(1, arguments.size()).toArray(String[]::new) : new String[0];
        for (String ks : keyspaces) {
            List<String> lines = (List<String>) probe.invokeStorage(operation, new Object[] {ks, cfs},
                    new String[] {String.class.getName(), String[].class.getName()});
            for (String line : lines) out.println(line);
        }
    }

    void refresh(NodeProbe probe, String keyspace, String columnFamily) throws IOException, JMException {
        int loaded = (Integer) probe.invokeStorage("loadNewSSTables", new Object[] {keyspace, columnFamily},
                new String[] {String.class.getName(), String.class.getName()});
        out.println(loaded == 0 ? "No new SSTables of " + keyspace + "." + columnFamily
                : "Loaded " + loaded + " new SSTable" + (loaded == 1 ? "" : "s") + " of " + keyspace + "." + columnFamily);
    }

    /** The node's own reload: each change it applied, or its refusal (a JMException, exit 1) in one line. */
    @SuppressWarnings("unchecked")
    void reloadconf(NodeProbe probe) throws IOException, JMException {
        List<String> changes = (List<String>) probe.invokeConfiguration("reload");
        if (changes.isEmpty()) out.println("no changes");
        for (String change : changes) out.println(change);
    }

    /** Mean latency in milliseconds with three decimals; NaN without operations, as 0.6 printed. */
    static String millis(long totalMicros, long count) {
        return count == 0 ? "NaN" : String.format(Locale.ROOT, "%.3f", totalMicros / 1000.0 / count);
    }

    /** Bytes as 0.6 showed them: the largest unit that keeps the number at least 1, three decimals. */
    static String fileSize(long bytes) {
        String[] units = {"bytes", "KB", "MB", "GB", "TB"};
        double value = bytes;
        int unit = 0;
        while (value >= 1024 && unit < units.length - 1) {
            value /= 1024;
            unit++;
        }
        return unit == 0 ? bytes + " bytes" : String.format(Locale.ROOT, "%.3f %s", value, units[unit]);
    }

    /** Numeric tokens (RandomPartitioner; Murmur3Partitioner's, signed) in numeric order, any others as text. */
    static int compareTokens(String a, String b) {
        if (a.matches("-?\\d+") && b.matches("-?\\d+")) return new java.math.BigInteger(a).compareTo(new java.math.BigInteger(b));
        return a.compareTo(b);
    }

    private static String rootMessage(Throwable e) {
        Throwable t = root(e);
        return t.getMessage() == null ? t.toString() : t.getMessage();
    }

    private static Throwable root(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null) t = t.getCause();
        return t;
    }
}
