package sibyl.client.it;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.cassandra.thrift.ColumnParent;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import sibyl.client.it.AnswerComparison.Difference;
import sibyl.client.it.DifferentialSchema.Family;

/**
 * Issue #31's differential test: the same random operations into a real Cassandra 0.6 node and, after Sibyl
 * takes over that node's directories, the same reads through both, compared call by call.
 *
 * <ol>
 * <li>A fresh 0.6.5 node (batch commit log, 1 MB segments, the {@link DifferentialSchema} keyspaces, one
 *     partitioner per run) takes random writes ({@link RandomWrites}), with flushes and major compactions
 *     (peer-c06.sh nodetool) in the first 70% so the data lies in several SSTables and several commit log
 *     segments, then is killed with SIGKILL.</li>
 * <li>Its data and commit log directories are copied twice: 0.6 restarts on one copy (replaying its log),
 *     Sibyl starts on the other with the node's own storage-conf.xml, only directories and ports moved.</li>
 * <li>Both answer whole-ring scans of every column family (paged as clients page) and random reads
 *     ({@link RandomReads}); answers must be equal in shape and order, refusals in class and message. Two kinds
 *     of difference are reported apart and do not fail the run, each only where a check shows it is that and
 *     nothing else: 0.6.5's reversed-slice fault ({@link ReversedSliceCheck}), and how 0.6 spent a slice's count
 *     on super columns, which docs/differences.md §Reads documents ({@link SuperCountCheck}).</li>
 * <li>More random writes go through both (their answers compared too), with flushes and a compaction on both;
 *     then Sibyl is killed and restarted, stopped and restarted, and the reads compared after each.</li>
 * <li>Last, both restart with GCGraceSeconds 1 and are flushed and major-compacted, which purges every
 *     tombstone; more writes go through both (older timestamps among them meet the purged deletions), and Sibyl
 *     is killed and restarted once more: a 0.6 commit log replayed a second time would now bring deleted data
 *     back.</li>
 * </ol>
 *
 * <p>Runs only where a real 0.6 is available (see {@link Cassandra06Peer#locate}); skipped otherwise. Settings
 * (system property or environment variable): {@code c06.seed}/{@code C06_SEED} repeats a run, whose seed each
 * run prints; {@code c06.partitioners}/{@code C06_PARTITIONERS} (comma-separated: Random, OrderPreserving,
 * CollatingOrderPreserving; default all three); {@code c06.operations}/{@code C06_OPERATIONS} (writes into 0.6
 * before the crash, default 2000; a quarter as many go through both afterwards); {@code c06.reads}/{@code
 * C06_READS} (random reads per comparison, default 1000). The 0.6 nodes use Thrift ports 9311 and 9312.
 */
class Cassandra06DifferentialIT {
    private static final List<String> PARTITIONERS = List.of("RandomPartitioner", "OrderPreservingPartitioner",
            "CollatingOrderPreservingPartitioner");
    /** Ten days: no tombstone is purged before the test asks for it. */
    private static final int GC_GRACE_SECONDS = 864_000;
    private static final int ORIGINAL_PORT = 9311;
    private static final int RESTARTED_PORT = 9312;
    /** Differences shown in full per comparison round. */
    private static final int DIFFERENCES_SHOWN = 3;

    /** The run's nodes and journal.txt: made once 0.6 is found (a skipped run leaves nothing), kept when the run fails. */
    private Path dir;

    private Cassandra06Peer.Build build;
    private String partitioner;
    private long seed;
    private final List<Difference> differences = new ArrayList<>();
    private final List<Difference> faultsOf06 = new ArrayList<>();
    private final List<Difference> superCounts = new ArrayList<>();
    /** Every write and every flush, compaction and restart in order, in journal.txt of the test directory. */
    private PrintWriter journal;

    static Stream<String> partitioners() {
        String chosen = setting("c06.partitioners", "C06_PARTITIONERS");
        if (chosen == null) return PARTITIONERS.stream();
        List<String> named = new ArrayList<>();
        for (String name : chosen.split(",")) {
            String full = name.strip().endsWith("Partitioner") ? name.strip() : name.strip() + "Partitioner";
            if (!PARTITIONERS.contains(full)) throw new IllegalArgumentException("c06.partitioners: no partitioner " + name);
            named.add(full);
        }
        return named.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("partitioners")
    void sibylAnswersAsCassandra06AfterTakingOverItsDirectories(String partitioner) throws Exception {
        Optional<Cassandra06Peer.Build> located = Cassandra06Peer.locate();
        assumeTrue(located.isPresent(), Cassandra06Peer.HOW_TO_ENABLE);
        this.build = located.get();
        this.partitioner = partitioner;
        String fixed = setting("c06.seed", "C06_SEED");
        this.seed = fixed != null ? Long.parseLong(fixed) : new SecureRandom().nextLong();
        int operations = Integer.parseInt(orDefault(setting("c06.operations", "C06_OPERATIONS"), "2000"));
        int reads = Integer.parseInt(orDefault(setting("c06.reads", "C06_READS"), "1000"));
        String repeat = "-Dc06.seed=" + seed + " -Dc06.partitioners=" + partitioner.replace("Partitioner", "");
        log("seed %d, %d operations, %d reads per comparison (repeat with %s)", seed, operations, reads, repeat);
        long t0 = System.nanoTime();

        dir = Files.createTempDirectory("sibyl-c06-differential-");
        try (PrintWriter j = new PrintWriter(Files.newBufferedWriter(dir.resolve("journal.txt")), true)) {
            journal = j;
            journal.println("# " + partitioner + " seed " + seed);
            run(operations, reads);
        } catch (Exception | Error e) {
            log("failed; the nodes' directories and journal.txt are kept in %s", dir);
            throw e;
        }

        log("done in %d s: %d difference(s); %d answer(s) of 0.6 left columns out of a reversed slice (its own fault, not counted)",
                (System.nanoTime() - t0) / 1_000_000_000L, differences.size(), faultsOf06.size());
        if (!faultsOf06.isEmpty()) log("the first of them: %s", faultsOf06.get(0));
        log("%d answer(s) differed only in how 0.6 spent a count on super columns (docs/differences.md §Reads, not counted)",
                superCounts.size());
        if (!superCounts.isEmpty()) log("the first of them: %s", superCounts.get(0));
        if (differences.isEmpty()) {
            deleteTree(dir);
        } else {
            log("the nodes' directories and journal.txt are kept in %s", dir);
            fail(partitioner + ", seed " + seed + " (repeat with " + repeat + "): Sibyl answered differently from Cassandra 0.6\n"
                    + AnswerComparison.report(differences, DIFFERENCES_SHOWN));
        }
    }

    private void run(int operations, int reads) throws Exception {
        // separate streams, so that changing the number of one kind of call leaves the others as they were
        Vocabulary words = new Vocabulary(stream(0));
        RandomWrites writes = new RandomWrites(stream(1), words);
        Random schedule = stream(2);
        RandomReads randomReads = new RandomReads(stream(3), words, partitioner);
        String template = DifferentialSchema.storageConf(build.sampleStorageConf(), partitioner, GC_GRACE_SECONDS);

        Cassandra06Peer original = new Cassandra06Peer(build, dir.resolve("c06-original"), ORIGINAL_PORT, template);
        Cassandra06Peer restarted = new Cassandra06Peer(build, dir.resolve("c06-restarted"), RESTARTED_PORT, template);
        try (original; restarted) {
            original.start(true);
            writeInto06AndCrash(original, writes, schedule, operations);

            SibylTakeoverNode sibyl = new SibylTakeoverNode(dir.resolve("sibyl"), original.storageConf());
            try (sibyl) {
                Cassandra06Peer.copyTree(original.data(), restarted.data());
                Cassandra06Peer.copyTree(original.commitLog(), restarted.commitLog());
                Cassandra06Peer.copyTree(original.data(), sibyl.data());
                Cassandra06Peer.copyTree(original.commitLog(), sibyl.commitLog());
                restarted.start(false);
                sibyl.start("takeover");
                compareReads(restarted, sibyl, randomReads, reads, "after takeover");

                writeIntoBoth(restarted, sibyl, writes, schedule, operations / 4);
                compareReads(restarted, sibyl, randomReads, reads, "after writes through both");

                journal.println("Sibyl killed with SIGKILL, restarted");
                sibyl.kill();
                sibyl.start("after-kill");
                compareReads(restarted, sibyl, randomReads, reads, "after kill -9 and restart of Sibyl");

                journal.println("Sibyl stopped, restarted");
                sibyl.stop();
                sibyl.start("after-stop");
                compareReads(restarted, sibyl, randomReads, reads, "after stop and restart of Sibyl");

                purgeTombstones(restarted, sibyl, original.storageConf());
                compareReads(restarted, sibyl, randomReads, reads, "after purging every tombstone");

                writeIntoBoth(restarted, sibyl, writes, null, operations / 8);
                compareReads(restarted, sibyl, randomReads, reads, "after writes following the purge");

                journal.println("Sibyl killed with SIGKILL, restarted");
                sibyl.kill();
                sibyl.start("after-purge-kill");
                compareReads(restarted, sibyl, randomReads, reads, "after the purge, more writes, kill -9 and restart of Sibyl");
                sibyl.stop();
            }
            restarted.stop();
        }
    }

    // ---- the phases

    /** Random writes into 0.6 with flushes and compactions in the first 70%, then SIGKILL. */
    private void writeInto06AndCrash(Cassandra06Peer node, RandomWrites writes, Random schedule, int operations) throws Exception {
        TreeMap<Integer, String> maintenance = new TreeMap<>();
        for (int i = 0; i < 6; i++) maintenance.put(schedule.nextInt(operations * 7 / 10), "flush");
        for (int i = 0; i < 2; i++) maintenance.put(operations / 4 + schedule.nextInt(operations * 45 / 100), "compact");
        Cassandra.Client client = node.client();
        int refused = 0;
        long t0 = System.nanoTime();
        try {
            for (int i = 0; i < operations; i++) {
                ThriftCall write = writes.next();
                String answer = write.answer(client);
                journal.println("0.6 " + write.description() + " -> " + answer);
                if (answer.startsWith("!")) refused++;
                String task = maintenance.get(i);
                if ("flush".equals(task)) {
                    List<String> keyspaces = DifferentialSchema.keyspaces();
                    String ks = schedule.nextInt(3) == 0 ? null : keyspaces.get(schedule.nextInt(keyspaces.size()));
                    for (String k : ks == null ? keyspaces : List.of(ks)) {
                        journal.println("0.6 nodetool flush " + k);
                        node.nodetool("flush", k);
                    }
                } else if ("compact".equals(task)) {
                    journal.println("0.6 nodetool compact");
                    node.nodetool("compact");
                }
            }
        } finally {
            Cassandra06Peer.close(client);
        }
        log("0.6 took %d writes (%d refused) in %d s, with %s", operations, refused, (System.nanoTime() - t0) / 1_000_000_000L,
                maintenance.values());
        node.kill();
        journal.println("0.6 killed with SIGKILL; takeover");
        log("0.6 killed with SIGKILL, leaving %s", inventory(node.data(), node.commitLog()));
    }

    /**
     * More random writes, each through 0.6 and then Sibyl (their answers compared), with flushes and a compaction of
     * both unless {@code schedule} is null. (After the purge there are none: with GCGraceSeconds 1, 0.6's compaction,
     * which runs after nodetool returns, and Sibyl's would purge tombstones at different points among the writes.)
     */
    private void writeIntoBoth(Cassandra06Peer c06, SibylTakeoverNode sibyl, RandomWrites writes, Random schedule, int operations)
            throws Exception {
        TreeMap<Integer, String> maintenance = new TreeMap<>();
        if (schedule != null) {
            for (int i = 0; i < 2; i++) maintenance.put(schedule.nextInt(operations), "flush");
            maintenance.put(schedule.nextInt(operations), "compact");
        }
        List<ThriftCall> calls = new ArrayList<>();
        for (int i = 0; i < operations; i++) calls.add(writes.next());
        calls.addAll(writes.rowRemovals(12)); // rows deleted after takeover: the purge below then drops them
        Cassandra.Client a = c06.client();
        Cassandra.Client b = sibyl.client();
        try {
            AnswerComparison both = new AnswerComparison(a, b, differences, faultsOf06, superCounts);
            both.round("writes through both");
            for (int i = 0; i < calls.size(); i++) {
                String answer = both.compare(calls.get(i));
                journal.println("both " + calls.get(i).description() + " -> " + answer);
                String task = maintenance.get(i);
                if ("flush".equals(task)) {
                    journal.println("both nodetool flush (every keyspace)");
                    for (String ks : DifferentialSchema.keyspaces()) {
                        c06.nodetool("flush", ks);
                        sibyl.nodetool("flush", ks);
                    }
                } else if ("compact".equals(task)) {
                    journal.println("both nodetool compact");
                    c06.nodetool("compact");
                    sibyl.nodetool("compact");
                }
            }
            log("writes through both: %s", both.tallies());
        } finally {
            Cassandra06Peer.close(a);
            Cassandra06Peer.close(b);
        }
    }

    /**
     * Both nodes restarted with GCGraceSeconds 1, flushed and major-compacted once every tombstone is older than
     * that: each drops its tombstones and what they shadowed, and rows left with nothing go.
     */
    private void purgeTombstones(Cassandra06Peer c06, SibylTakeoverNode sibyl, String nodeConf) throws Exception {
        journal.println("both stopped, restarted with GCGraceSeconds 1, flushed, compacted");
        c06.stop();
        c06.reconfigure(DifferentialSchema.storageConf(build.sampleStorageConf(), partitioner, 1));
        c06.start(false);
        sibyl.stop();
        sibyl.reconfigure(DifferentialSchema.replace(nodeConf, "GCGraceSeconds", "1"));
        sibyl.start("purge");
        Thread.sleep(2_500);
        for (String ks : DifferentialSchema.keyspaces()) {
            c06.nodetool("flush", ks);
            sibyl.nodetool("flush", ks);
        }
        c06.awaitQuiet(DifferentialSchema.ids(), Integer.MAX_VALUE, Duration.ofMinutes(2));
        c06.nodetool("compact");
        c06.awaitQuiet(DifferentialSchema.ids(), 1, Duration.ofMinutes(3));
        sibyl.nodetool("compact");
        log("both restarted with GCGraceSeconds 1, flushed and compacted; 0.6 holds %s", inventory(c06.data(), c06.commitLog()));
    }

    /** Whole-ring scans of every column family, then {@code reads} random reads, through both nodes. */
    private void compareReads(Cassandra06Peer c06, SibylTakeoverNode sibyl, RandomReads reads, int count, String round)
            throws Exception {
        journal.println("compare reads " + round);
        long t0 = System.nanoTime();
        int before = differences.size();
        Cassandra.Client a = c06.client();
        Cassandra.Client b = sibyl.client();
        try {
            AnswerComparison both = new AnswerComparison(a, b, differences, faultsOf06, superCounts);
            both.round(round);
            for (String ks : DifferentialSchema.keyspaces()) {
                both.compare(new ThriftCall("describe_ring(" + ks + ")", c -> c.describe_ring(ks).toString()));
            }
            both.compare(new ThriftCall("describe_keyspaces()", c -> new TreeSet<>(c.describe_keyspaces()).toString()));
            for (Family f : DifferentialSchema.FAMILIES) {
                both.scan(f, new ColumnParent(f.name()), RandomReads.everything(), 100);
                ColumnParent parent = reads.scanParent(f);
                both.scan(f, parent, reads.scanPredicate(f, parent), reads.pageSize());
            }
            for (int i = 0; i < count; i++) both.compare(reads.next());
            log("%s: %d difference(s) in %d ms; %s", round, differences.size() - before, (System.nanoTime() - t0) / 1_000_000,
                    both.tallies());
        } finally {
            Cassandra06Peer.close(a);
            Cassandra06Peer.close(b);
        }
    }

    // ---- helpers

    private Random stream(int n) {
        return new Random(seed * 31 + partitioner.hashCode() * 7L + n);
    }

    private static String inventory(Path data, Path commitLog) throws IOException {
        long sstables;
        long segments;
        long logBytes;
        try (Stream<Path> files = Files.walk(data)) {
            sstables = files.filter(f -> f.getFileName().toString().endsWith("-Data.db")).count();
        }
        try (Stream<Path> files = Files.list(commitLog)) {
            List<Path> logs = files.filter(f -> f.getFileName().toString().endsWith(".log")).toList();
            segments = logs.size();
            long total = 0;
            for (Path f : logs) total += Files.size(f);
            logBytes = total;
        }
        return String.format(Locale.ROOT, "%d SSTables (Data files) and %d commit log segment(s) of %d KB", sstables, segments,
                logBytes / 1024);
    }

    private static void deleteTree(Path top) throws IOException {
        try (Stream<Path> files = Files.walk(top)) {
            for (Path f : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator) Files.delete(f);
        }
    }

    private void log(String format, Object... args) {
        System.out.println("[Cassandra06DifferentialIT " + partitioner + "] " + String.format(Locale.ROOT, format, args));
    }

    private static String setting(String property, String variable) {
        String value = System.getProperty(property);
        if (value == null || value.isBlank()) value = System.getenv(variable);
        return value == null || value.isBlank() ? null : value.strip();
    }

    private static String orDefault(String value, String otherwise) {
        return value == null ? otherwise : value;
    }
}
