package sibyl.client.it;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.thrift.TException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sibyl.client.it.Diff07Schema.Family;
import sibyl.iface.v20.Cassandra;
import sibyl.iface.v20.ColumnParent;
import sibyl.iface.v20.ConsistencyLevel;
import sibyl.iface.v20.KeyRange;
import sibyl.iface.v20.KeySlice;
import sibyl.iface.v20.SlicePredicate;
import sibyl.iface.v20.SliceRange;

/**
 * Issue #33's differential test of the 0.7+ dialect: the same calls through a real Cassandra 3.11 (the reference,
 * {@link Cassandra311Peer}) and through Sibyl ({@code bin/server}, RandomPartitioner), each over its own framed
 * connection with the v20 bindings, every answer compared: shape, order, values and timestamps, and for a refusal
 * the exception's class and message.
 *
 * <ol>
 * <li>The {@link Diff07Schema} keyspace is made in both: in Sibyl from its storage-conf.xml, in 3.11 with
 *     system_add_keyspace.</li>
 * <li>set_keyspace, then the {@link Diff07InvalidRequests} on the empty keyspace.</li>
 * <li>Random writes and reads ({@link Diff07Operations}) interleaved, all writes at explicit timestamps.</li>
 * <li>The invalid requests again, now over data, and whole-ring scans of every column family, paged as clients
 *     page (each page starts at the last key of the one before).</li>
 * <li>truncate of a table that is not there and of a random one, then the scans again, more random calls, and a
 *     last scan of the truncated table.</li>
 * <li>Expiry: columns with a TTL of two seconds, some over older values and some under newer ones, read once the
 *     TTL has passed. (One random write in eight carries a TTL longer than any run.)</li>
 * </ol>
 *
 * <p>A difference docs/differences.md §The 0.7+ dialect documents is set apart, listed in the output and the journal
 * but not failing the run, where {@link Diff07KnownDifferences} shows it is exactly that one (3.11's range
 * tombstones, ties of values at one timestamp, the requests 3.11 fails on). Every other difference is collected and
 * the run fails at the end listing them all by round; every call and answer
 * of the run is in {@code target/cassandra311-differential/journal-SEED.txt}, which shows how two servers' data came
 * apart. Where 3.11 cannot be had (its jars unresolvable off CI) the test is skipped, saying why; under CI it fails
 * ({@link Cassandra311Peer}). Settings (system property
 * or environment variable): {@code c311.seed}/{@code C311_SEED} repeats a run, whose seed each run prints (under CI,
 * without one, a fixed seed: {@link #CI_SEED});
 * {@code c311.operations}/{@code C311_OPERATIONS} the random calls (default 1500); {@code c311.subject}/{@code
 * C311_SUBJECT} = {@code 3.11} compares 3.11 with itself (a second keyspace of the same node instead of Sibyl), which
 * checks the test itself: such a run must find no difference.
 */
class Cassandra311DifferentialIT {
    /**
     * The seeds CI runs, each checked to pass, so that CI fails for a change of Sibyl's and not for a fresh seed that
     * meets a fault of 3.11's nobody has described yet (seed 1181238168285894054 was one: a deletion of one name that
     * 3.11 drops, now in docs/differences.md and no longer sent); a run off CI draws a random seed.
     */
    private static final long CI_SEED = 7783733564466687779L;
    private static final long CI_CLUSTER_SEED = 2562024189499532600L;
    /** The TTL of the columns of the expiry round that expire, in seconds. */
    private static final int EXPIRY_TTL = 2;
    /** The keyspace that stands in for Sibyl when 3.11 is compared with itself. */
    private static final String TWIN_KEYSPACE = "Diff07Twin";
    /** Differences listed per round in the failure message; the test's output lists every one. */
    private static final int DIFFERENCES_SHOWN = 25;

    @Test
    void sibylAnswersAsCassandra311(@TempDir Path dir) throws Exception {
        compare(dir, null);
    }

    /**
     * The same with Sibyl in cluster mode, storing into a Cassandra 5 node ({@link Cassandra5Node}): the 0.7+
     * dialect's answers over the cluster backend against 3.11's.
     */
    @Test
    void sibylInClusterModeAnswersAsCassandra311(@TempDir Path dir) throws Exception {
        assumeTrue(!"3.11".equals(setting("c311.subject", "C311_SUBJECT")), "3.11 compared with itself: once is enough");
        compare(dir, Cassandra5Node.shared());
    }

    /** @param cluster where Sibyl stores, or null for its embedded engine */
    private static void compare(Path dir, Cassandra5Node cluster) throws Exception {
        Cassandra311Peer c311 = Cassandra311Peer.shared();
        long seed = setting("c311.seed", "C311_SEED") != null ? Long.parseLong(setting("c311.seed", "C311_SEED"))
                : "true".equals(System.getenv("CI")) ? (cluster == null ? CI_SEED : CI_CLUSTER_SEED)
                : new SecureRandom().nextLong();
        int operations = setting("c311.operations", "C311_OPERATIONS") == null ? 1500
                : Integer.parseInt(setting("c311.operations", "C311_OPERATIONS"));
        boolean selfCheck = "3.11".equals(setting("c311.subject", "C311_SUBJECT"));
        System.out.println("Cassandra311DifferentialIT: seed " + seed + " (repeat with -Dc311.seed=" + seed + " or C311_SEED="
                + seed + "), " + operations + " operations, compared with " + (selfCheck ? "3.11 itself"
                : cluster == null ? "Sibyl" : "Sibyl in cluster mode"));

        createKeyspace(c311, Diff07Schema.KEYSPACE);
        LocalNode sibyl = null;
        int subjectPort;
        String subjectKeyspace;
        if (selfCheck) {
            createKeyspace(c311, TWIN_KEYSPACE);
            subjectPort = c311.thriftPort();
            subjectKeyspace = TWIN_KEYSPACE;
        } else {
            String conf = Diff07Schema.storageConf(Files.readString(LocalNode.home().resolve("conf/storage-conf.xml")));
            sibyl = LocalNode.configuredBy(dir, cluster == null ? conf
                    : cluster.inCluster(conf, "d07_" + ProcessHandle.current().pid() + "_"));
            sibyl.start("sibyl");
            subjectPort = thriftPort(dir);
            subjectKeyspace = Diff07Schema.KEYSPACE;
        }
        try (V20Server reference = new V20Server("3.11", c311.thriftPort(), Diff07Schema.KEYSPACE);
             V20Server subject = new V20Server(selfCheck ? "3.11 (" + TWIN_KEYSPACE + ")" : "Sibyl", subjectPort, subjectKeyspace)) {
            Path journalFile = Files.createDirectories(Path.of("target", "cassandra311-differential")).resolve("journal-" + seed + (cluster == null ? "" : "-cluster") + ".txt");
            V20Comparison comparison;
            try (PrintWriter journal = new PrintWriter(Files.newBufferedWriter(journalFile))) {
                comparison = new V20Comparison(reference, subject, journal, !selfCheck, cluster != null);
                run(comparison, reference, new Random(seed), operations);
            }
            System.out.println("Cassandra311DifferentialIT: " + comparison.tallies() + "; every call in " + journalFile.toAbsolutePath());
            if (!comparison.setApart().isEmpty()) System.out.println("seed " + seed + ": " + comparison.setApartReport(5));
            if (!comparison.differences().isEmpty()) {
                System.out.println("seed " + seed + ": " + comparison.report(Integer.MAX_VALUE));
                fail("seed " + seed + ": " + comparison.report(DIFFERENCES_SHOWN) + "(all of them in this test's output; every call in "
                        + journalFile.toAbsolutePath() + ")");
            }
        } finally {
            if (sibyl != null) sibyl.stop();
        }
    }

    private static void run(V20Comparison comparison, V20Server reference, Random random, int operations) throws TException {
        Diff07Vocabulary words = new Diff07Vocabulary(random);
        Diff07Operations ops = new Diff07Operations(random, words);

        comparison.round("set_keyspace");
        comparison.compare(new V20Call("set_keyspace(the run's keyspace)", s -> {
            s.client().set_keyspace(s.keyspace());
            return V20Call.DONE;
        }));
        comparison.round("refusals on an empty keyspace");
        for (V20Call call : Diff07InvalidRequests.calls(words.timestamp())) comparison.compare(call);

        comparison.round("random writes and reads");
        int written = 0;
        for (int i = 0; i < operations; i++) {
            boolean write = random.nextInt(100) < 55;
            String answer = comparison.compare(write ? ops.write() : ops.read());
            if (write && answer.equals(V20Call.DONE)) written++;
        }
        assertTrue(written > operations / 4, "3.11 took only " + written + " of the random writes; the test writes nothing useful");

        comparison.round("refusals over data");
        for (V20Call call : Diff07InvalidRequests.calls(words.timestamp())) comparison.compare(call);

        comparison.round("scans");
        for (Family f : Diff07Schema.FAMILIES) {
            ColumnParent parent = new ColumnParent(f.name());
            SlicePredicate all = new SlicePredicate().setSlice_range(new SliceRange(ByteBuffer.allocate(0), ByteBuffer.allocate(0), false, 100));
            SlicePredicate firstTwo = new SlicePredicate().setSlice_range(new SliceRange(ByteBuffer.allocate(0), ByteBuffer.allocate(0), false, 2));
            scan(comparison, reference, parent, all, 100);
            scan(comparison, reference, parent, all, 3);
            scan(comparison, reference, parent, firstTwo, 2 + random.nextInt(3));
        }

        comparison.round("truncate");
        for (String table : List.of("", "NoSuchTable")) {
            comparison.compare(new V20Call("truncate('" + table + "')", s -> {
                s.client().truncate(table);
                return V20Call.DONE;
            }));
        }
        Family truncated = Diff07Schema.FAMILIES.get(random.nextInt(Diff07Schema.FAMILIES.size()));
        comparison.compare(new V20Call("truncate(" + truncated.name() + ")", s -> {
            s.client().truncate(truncated.name());
            return V20Call.DONE;
        }));
        SlicePredicate whole = new SlicePredicate().setSlice_range(new SliceRange(ByteBuffer.allocate(0),
                ByteBuffer.allocate(0), false, 100));
        for (Family f : Diff07Schema.FAMILIES) scan(comparison, reference, new ColumnParent(f.name()), whole, 100);
        for (int i = 0; i < operations / 10; i++) comparison.compare(random.nextBoolean() ? ops.write() : ops.read());
        scan(comparison, reference, new ColumnParent(truncated.name()), whole, 100);

        comparison.round("expiry");
        List<ByteBuffer> keys = words.keys(3);
        for (V20Call call : ops.expiringWrites(keys, Diff07Vocabulary.pastEveryTimestamp(), EXPIRY_TTL)) comparison.compare(call);
        // Both servers expire a column at the second they took it plus its TTL, counted in whole seconds; past that,
        // the state compared is settled.
        long expired = System.nanoTime() + TimeUnit.SECONDS.toNanos(EXPIRY_TTL + 1) + TimeUnit.MILLISECONDS.toNanos(200);
        for (long left; (left = expired - System.nanoTime()) > 0; ) {
            try {
                TimeUnit.NANOSECONDS.sleep(left);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while the expiry round's columns expire", e);
            }
        }
        for (V20Call read : Diff07Operations.wholeRows(keys)) comparison.compare(read);
        for (Family f : Diff07Schema.FAMILIES) scan(comparison, reference, new ColumnParent(f.name()), whole, 100);
    }

    /**
     * A whole-ring get_range_slices as a client pages it: each page starts at the last key of the one before. Each
     * page is a call compared; a scan stops at its first difference.
     */
    private static void scan(V20Comparison comparison, V20Server reference, ColumnParent parent, SlicePredicate predicate,
                             int pageSize) throws TException {
        ByteBuffer start = ByteBuffer.allocate(0);
        for (int pages = 0; pages < 100; pages++) {
            KeyRange range = new KeyRange(pageSize).setStart_key(start).setEnd_key(ByteBuffer.allocate(0));
            int before = comparison.differences().size();
            String answer = comparison.compare(Diff07Operations.rangeSlices(parent, predicate, range));
            if (comparison.differences().size() > before || answer.startsWith("!")) return;
            List<KeySlice> page = reference.client().get_range_slices(parent, predicate, range, ConsistencyLevel.ONE);
            if (page.size() < pageSize) return;
            start = page.get(page.size() - 1).bufferForKey();
        }
        fail("a scan of " + parent.getColumn_family() + " by pages of " + pageSize + " did not end within 100 pages");
    }

    /** Makes {@code name} in 3.11 anew: a node shared by the run may have it from a test before. */
    private static void createKeyspace(Cassandra311Peer c311, String name) throws TException {
        Cassandra.Client client = c311.client();
        try {
            Cassandra311Peer.recreateKeyspace(client, name, Diff07Schema.ksDef(name).getCf_defs());
        } finally {
            Cassandra311Peer.close(client);
        }
    }

    /** The ThriftPort LocalNode gave the node it configured in {@code dir}. */
    static int thriftPort(Path dir) throws IOException {
        Matcher m = Pattern.compile("<ThriftPort>(\\d+)</ThriftPort>").matcher(Files.readString(dir.resolve("conf/storage-conf.xml")));
        if (!m.find()) throw new IllegalStateException("no ThriftPort in " + dir.resolve("conf/storage-conf.xml"));
        return Integer.parseInt(m.group(1));
    }

    private static String setting(String property, String variable) {
        String value = System.getProperty(property);
        if (value == null || value.isBlank()) value = System.getenv(variable);
        return value == null || value.isBlank() ? null : value;
    }
}
