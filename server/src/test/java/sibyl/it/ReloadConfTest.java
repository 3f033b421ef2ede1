package sibyl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static sibyl.it.Requests.all;
import static sibyl.it.Requests.b;
import static sibyl.it.Requests.column;
import static sibyl.it.Requests.insertion;
import static sibyl.it.Requests.keys;
import static sibyl.it.Requests.keysOf;
import static sibyl.it.Requests.longName;
import static sibyl.it.Requests.namesOf;
import static sibyl.it.Requests.parent;
import static sibyl.it.Requests.path;
import static sibyl.it.Requests.text;
import static sibyl.it.Requests.why;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.UnaryOperator;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.cassandra.thrift.ConsistencyLevel;
import org.apache.cassandra.thrift.NotFoundException;
import org.apache.cassandra.thrift.SuperColumn;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * storage-conf.xml reloaded into a running node (docs/configuration.md §Reloading without a restart), as
 * bin/nodetool reloadconf asks for it: through the node's configuration bean, with every data call over a
 * real socket, on a connection opened before the reload. Each accepted change takes effect when the
 * documentation says; each refused change names the file and the element, and leaves the node exactly
 * as it was (the original file reloaded afterwards finds no change).
 */
class ReloadConfTest {
    private static final String CONFIGURATION = "sibyl:type=Configuration";
    private static final String STORAGE = "org.apache.cassandra.service:type=StorageService";
    private static final ConsistencyLevel ONE = ConsistencyLevel.ONE;
    private static final String KS1 = "Storage/Keyspaces/Keyspace[@Name='Keyspace1']";

    @TempDir
    Path dir;
    private TestNode node;

    @AfterEach
    void stop() {
        if (node != null) node.close();
    }

    private Cassandra.Client start(TestNode.Backend backend) throws Exception {
        node = TestNode.start(backend, dir, UnaryOperator.identity(), null);
        return node.client();
    }

    private Path file() {
        return node.confDir().resolve("storage-conf.xml");
    }

    private String original;

    /** Rewrites the node's storage-conf.xml through {@code edit}; the first edit keeps the original for {@link #restore}. */
    private void edit(UnaryOperator<String> edit) throws Exception {
        String now = Files.readString(file());
        if (original == null) original = now;
        String edited = edit.apply(now);
        assertTrue(!edited.equals(now), "the edit changes the file");
        Files.writeString(file(), edited);
    }

    private void restore() throws Exception {
        Files.writeString(file(), original);
    }

    @SuppressWarnings("unchecked")
    private List<String> reload() throws Exception {
        return (List<String>) node.invoke(CONFIGURATION, "reload");
    }

    /** The reload's refusal, in the one line nodetool prints: the file and the element it names come first. */
    private String refusal(String element) {
        return refusalStartingWith(element + ": ");
    }

    private String refusalStartingWith(String afterFile) {
        String message = assertThrows(IllegalArgumentException.class, this::reload).getMessage();
        assertTrue(message.startsWith(file() + ": " + afterFile), message);
        assertFalse(message.contains("\n"), message);
        return message;
    }

    /** After a refusal: the node runs the configuration it ran before, so the file as it was is no change. */
    private void assertNothingWasApplied() throws Exception {
        restore();
        assertEquals(List.of(), reload());
    }

    private static String cf(String name, String attributes) {
        return "<ColumnFamily Name=\"" + name + "\" " + attributes + "/>";
    }

    private static UnaryOperator<String> addToKeyspace1(String columnFamily) {
        return xml -> xml.replace("<ColumnFamily Name=\"Standard1\"", columnFamily + "\n<ColumnFamily Name=\"Standard1\"");
    }

    private static UnaryOperator<String> replaceOnce(String target, String replacement) {
        return xml -> {
            assertTrue(xml.contains(target), () -> "the shipped file has " + target);
            return xml.replaceFirst(java.util.regex.Pattern.quote(target),
                    java.util.regex.Matcher.quoteReplacement(replacement));
        };
    }

    private static void poll(String what, BooleanSupplier done) throws InterruptedException {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) throw new AssertionError("not within 30 s: " + what);
            Thread.sleep(20);
        }
    }

    private Object cfAttribute(String cf, String attribute) throws Exception {
        return node.attribute("org.apache.cassandra.db:type=ColumnFamilyStores,keyspace=Keyspace1,columnfamily=" + cf,
                attribute);
    }

    // ---- accepted

    @ParameterizedTest
    @MethodSource("sibyl.it.TestNode#backends")
    void aNewKeyspaceIsDescribedAndServedAtOnce(TestNode.Backend backend) throws Exception {
        Cassandra.Client c = start(backend);
        edit(ConfEdits.addKeyspace(ConfEdits.keyspace("Reloaded", 1, cf("Users", "CompareWith=\"UTF8Type\""),
                cf("Posts", "ColumnType=\"Super\" CompareWith=\"LongType\" CompareSubcolumnsWith=\"UTF8Type\""))));

        assertEquals(List.of("Storage/Keyspaces/Keyspace[@Name='Reloaded']: new keyspace with column families Users,"
                + " Posts"), reload());

        Set<String> listed = c.describe_keyspaces();
        assertTrue(listed.contains("Reloaded"), () -> "listed: " + listed);
        Map<String, Map<String, String>> described = c.describe_keyspace("Reloaded");
        assertEquals(Set.of("Users", "Posts"), described.keySet());
        assertEquals("org.apache.cassandra.db.marshal.UTF8Type", described.get("Users").get("CompareWith"));
        assertEquals("Super", described.get("Posts").get("Type"));
        assertEquals("org.apache.cassandra.db.marshal.UTF8Type", described.get("Posts").get("CompareSubcolumnsWith"));

        c.insert("Reloaded", "jsmith", path("Users", "name"), b("John"), 1, ONE);
        c.batch_mutate("Reloaded", Map.of("jsmith", Map.of(
                "Users", List.of(insertion(column("age", "42", 1))),
                "Posts", List.of(insertion(new SuperColumn(longName(7), List.of(column("title", "first", 1))))))),
                ONE);
        assertEquals("John", text(c.get("Reloaded", "jsmith", path("Users", "name"), ONE).getColumn().bufferForValue()));
        assertEquals(List.of("age", "name"), namesOf(c.get_slice("Reloaded", "jsmith", parent("Users"), all(), ONE)));
        assertEquals(1, c.get_count("Reloaded", "jsmith", parent("Posts"), ONE));
        assertEquals(List.of("jsmith"), keysOf(c.get_range_slices("Reloaded", parent("Users"), all(), keys("", "", 10),
                ONE)));
        c.remove("Reloaded", "jsmith", path("Users", "name"), 2, ONE);
        assertThrows(NotFoundException.class, () -> c.get("Reloaded", "jsmith", path("Users", "name"), ONE));
    }

    @ParameterizedTest
    @MethodSource("sibyl.it.TestNode#backends")
    void aNewColumnFamilyIsServedBesideTheDataOfTheOthers(TestNode.Backend backend) throws Exception {
        Cassandra.Client c = start(backend);
        c.insert("Keyspace1", "k", path("Standard1", "before"), b("v"), 1, ONE);
        edit(addToKeyspace1(cf("Added", "CompareWith=\"UTF8Type\" Comment=\"added live\"")));

        assertEquals(List.of(KS1 + "/ColumnFamily[@Name='Added']: new Standard column family, CompareWith UTF8Type"),
                reload());

        assertEquals("added live", c.describe_keyspace("Keyspace1").get("Added").get("Desc"));
        c.batch_mutate("Keyspace1", Map.of("k", Map.of("Added", List.of(insertion(column("new", "w", 1))),
                "Standard1", List.of(insertion(column("after", "w", 1))))), ONE);
        assertEquals(List.of("new"), namesOf(c.get_slice("Keyspace1", "k", parent("Added"), all(), ONE)));
        assertEquals(List.of("after", "before"), namesOf(c.get_slice("Keyspace1", "k", parent("Standard1"), all(), ONE)));
    }

    /**
     * What is written to a keyspace added live is as durable as any: flushed into its own SSTables, or replayed
     * from the commit log, when the node starts again with the file as reloaded.
     */
    @Test
    void aNewKeyspaceKeepsItsDataThroughAFlushAndARestart() throws Exception {
        Cassandra.Client c = start(TestNode.Backend.EMBEDDED);
        UnaryOperator<String> added = ConfEdits.addKeyspace(ConfEdits.keyspace("Reloaded", 1,
                cf("Users", "CompareWith=\"UTF8Type\"")));
        edit(added);
        reload();
        c.insert("Reloaded", "flushed", path("Users", "name"), b("in an sstable"), 1, ONE);
        node.invoke(STORAGE, "forceTableFlush", "Reloaded", new String[0]);
        assertEquals(1, node.attribute("org.apache.cassandra.db:type=ColumnFamilyStores,keyspace=Reloaded,"
                + "columnfamily=Users", "LiveSSTableCount"));
        c.insert("Reloaded", "logged", path("Users", "name"), b("in the commit log"), 1, ONE);
        node.close();

        node = TestNode.start(dir, added);
        Cassandra.Client again = node.client();
        assertEquals("in an sstable", text(again.get("Reloaded", "flushed", path("Users", "name"), ONE).getColumn()
                .bufferForValue()));
        assertEquals("in the commit log", text(again.get("Reloaded", "logged", path("Users", "name"), ONE).getColumn()
                .bufferForValue()));
    }

    @Test
    void cacheSizesChangeAtOnce() throws Exception {
        Cassandra.Client c = start(TestNode.Backend.EMBEDDED);
        assertEquals(1000, cfAttribute("Standard1", "KeyCacheCapacity"));
        assertEquals(100, cfAttribute("Standard1", "RowCacheCapacity"));
        edit(replaceOnce("KeysCached=\"1000\"\n                    RowsCached=\"100\"",
                "KeysCached=\"10\"\n                    RowsCached=\"0\""));

        assertEquals(List.of(KS1 + "/ColumnFamily[@Name='Standard1']/@KeysCached: changed from 1000 to 10",
                KS1 + "/ColumnFamily[@Name='Standard1']/@RowsCached: changed from 100 to 0"), reload());

        assertEquals(10, cfAttribute("Standard1", "KeyCacheCapacity"));
        assertEquals(0, cfAttribute("Standard1", "RowCacheCapacity"));
        c.insert("Keyspace1", "k", path("Standard1", "c"), b("v"), 1, ONE);
        c.get("Keyspace1", "k", path("Standard1", "c"), ONE);
        assertEquals(0, cfAttribute("Standard1", "RowCacheSize"), "the row cache is off");
    }

    /**
     * A row deleted and flushed stays a tombstone through compactions while its grace lasts (a range scan lists
     * it as an empty row); after a reload sets the grace to 0, the next compaction purges it.
     */
    @Test
    void gcGraceSecondsTakesEffectOnTheNextCompaction() throws Exception {
        Cassandra.Client c = start(TestNode.Backend.EMBEDDED);
        c.insert("Keyspace1", "gone", path("Standard2", "c"), b("v"), 1, ONE);
        c.remove("Keyspace1", "gone", path("Standard2"), 2, ONE);
        node.invoke(STORAGE, "forceTableFlush", "Keyspace1", new String[0]);
        node.invoke(STORAGE, "forceTableCompaction", "Keyspace1");
        assertEquals(List.of("gone"), keysOf(c.get_range_slices("Keyspace1", parent("Standard2"), all(),
                keys("", "", 10), ONE)), "kept for GCGraceSeconds 864000");

        edit(replaceOnce("<ColumnFamily Name=\"Standard2\" CompareWith=\"UTF8Type\"",
                "<ColumnFamily Name=\"Standard2\" GCGraceSeconds=\"0\" CompareWith=\"UTF8Type\""));
        assertEquals(List.of(KS1 + "/ColumnFamily[@Name='Standard2']/@GCGraceSeconds: set to 0 (was not set)"),
                reload());

        // A tombstone is purged once its deletion second is past: poll with compactions rather than sleep.
        poll("a compaction purges the tombstone", () -> {
            try {
                node.invoke(STORAGE, "forceTableCompaction", "Keyspace1");
                return c.get_range_slices("Keyspace1", parent("Standard2"), all(), keys("", "", 10), ONE).isEmpty();
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
    }

    /** A reloaded DefaultTimeToLive applies to the next insert of a 0.7+ client, and describe_keyspace shows it. */
    @Test
    void aDefaultTimeToLiveTakesEffectForTheNextWrite() throws Exception {
        start(TestNode.Backend.EMBEDDED);
        sibyl.iface.v20.Cassandra.Client c = new sibyl.iface.v20.Cassandra.Client(
                new org.apache.thrift.protocol.TBinaryProtocol(node.client().getInputProtocol().getTransport()));
        c.set_keyspace("Keyspace1");
        sibyl.iface.v20.ColumnParent standard2 = new sibyl.iface.v20.ColumnParent("Standard2");
        c.insert(b("before"), standard2, new sibyl.iface.v20.Column(b("c")).setValue(b("v")).setTimestamp(1),
                sibyl.iface.v20.ConsistencyLevel.ONE);

        edit(replaceOnce("<ColumnFamily Name=\"Standard2\" CompareWith=\"UTF8Type\"",
                "<ColumnFamily Name=\"Standard2\" DefaultTimeToLive=\"3600\" CompareWith=\"UTF8Type\""));
        assertEquals(List.of(KS1 + "/ColumnFamily[@Name='Standard2']/@DefaultTimeToLive: changed from 0 to 3600 (for writes"
                + " from then on)"), reload());

        c.insert(b("after"), standard2, new sibyl.iface.v20.Column(b("c")).setValue(b("v")).setTimestamp(1),
                sibyl.iface.v20.ConsistencyLevel.ONE);
        sibyl.iface.v20.ColumnPath column = new sibyl.iface.v20.ColumnPath("Standard2").setColumn(b("c"));
        assertEquals(3600, c.get(b("after"), column, sibyl.iface.v20.ConsistencyLevel.ONE).getColumn().getTtl());
        assertFalse(c.get(b("before"), column, sibyl.iface.v20.ConsistencyLevel.ONE).getColumn().isSetTtl(),
                "written before the reload: it does not expire");
        assertTrue(c.describe_keyspace("Keyspace1").getCf_defs().stream()
                .anyMatch(cf -> cf.getName().equals("Standard2") && cf.getDefault_time_to_live() == 3600));
    }

    @Test
    void memtableThresholdsTakeEffectOnTheNextWrite() throws Exception {
        Cassandra.Client c = start(TestNode.Backend.EMBEDDED);
        for (int i = 0; i < 20; i++) c.insert("Keyspace1", "k" + i, path("Standard2", "c"), b("v"), 1, ONE);
        assertEquals(0, cfAttribute("Standard2", "LiveSSTableCount"), "300000 operations per memtable");

        edit(replaceOnce("<MemtableOperationsInMillions>0.3</MemtableOperationsInMillions>",
                "<MemtableOperationsInMillions>0.00001</MemtableOperationsInMillions>"));
        assertEquals(List.of("Storage/MemtableOperationsInMillions: changed from 0.3 to 0.00001"), reload());
        assertEquals(0, cfAttribute("Standard2", "LiveSSTableCount"), "nothing flushes before a write");

        c.insert("Keyspace1", "next", path("Standard2", "c"), b("v"), 1, ONE);
        poll("the write past 10 operations flushes the memtable", () -> {
            try {
                return (Integer) cfAttribute("Standard2", "LiveSSTableCount") == 1;
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
        assertEquals(21, c.get_range_slices("Keyspace1", parent("Standard2"), all(), keys("", "", 100), ONE).size());
    }

    @Test
    void anEmptyColumnFamilyIsRemovedAndCallsToItAreRefused() throws Exception {
        Cassandra.Client c = start(TestNode.Backend.EMBEDDED);
        edit(xml -> xml.replaceFirst("<ColumnFamily Name=\"StandardByUUID1\" CompareWith=\"TimeUUIDType\"/>", ""));

        assertEquals(List.of(KS1 + "/ColumnFamily[@Name='StandardByUUID1']: column family removed"), reload());

        assertFalse(c.describe_keyspace("Keyspace1").containsKey("StandardByUUID1"));
        assertEquals("unconfigured columnfamily StandardByUUID1",
                why(() -> c.get_count("Keyspace1", "k", parent("StandardByUUID1"), ONE)));
        assertThrows(IllegalArgumentException.class, () -> cfAttribute("StandardByUUID1", "LiveSSTableCount"),
                "nodetool's cfstats no longer shows it");
    }

    /**
     * Reloads that each add two keyspaces, while other connections list the keyspaces and write without pause:
     * every listing has both keyspaces of a reload or neither, a keyspace once listed stays listed, and no write
     * fails.
     */
    @Test
    void callsDuringReloadsSeeTheOldSchemaOrTheNewNeverAMix() throws Exception {
        start(TestNode.Backend.EMBEDDED);
        int reloads = 12;
        AtomicBoolean done = new AtomicBoolean();
        List<String> problems = new CopyOnWriteArrayList<>();
        AtomicLong listings = new AtomicLong();
        AtomicLong writes = new AtomicLong();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 2; t++) {
            Cassandra.Client lister = node.client();
            threads.add(new Thread(() -> {
                int seen = 0;
                try {
                    while (!done.get()) {
                        Set<String> names = lister.describe_keyspaces();
                        listings.incrementAndGet();
                        int pairs = 0;
                        for (int i = 0; i < reloads; i++) {
                            boolean a = names.contains("Pair" + i + "A");
                            if (a != names.contains("Pair" + i + "B")) problems.add("half of reload " + i + ": " + names);
                            if (a) pairs++;
                        }
                        if (pairs < seen) problems.add("keyspaces went away: " + names);
                        seen = pairs;
                    }
                } catch (Exception e) {
                    problems.add("listing failed: " + e);
                }
            }));
        }
        Cassandra.Client writer = node.client();
        threads.add(new Thread(() -> {
            try {
                for (long i = 0; !done.get(); i++) {
                    writer.insert("Keyspace1", "w" + (i % 100), path("Standard1", "c"), b("v" + i), i, ONE);
                    writes.incrementAndGet();
                }
            } catch (Exception e) {
                problems.add("write failed: " + e);
            }
        }));
        threads.forEach(Thread::start);
        try {
            for (int i = 0; i < reloads; i++) {
                int n = i;
                long before = listings.get();
                poll("listings between reloads", () -> listings.get() > before + 2);
                edit(ConfEdits.addKeyspace(ConfEdits.keyspace("Pair" + n + "A", 1, cf("X", ""))
                        + ConfEdits.keyspace("Pair" + n + "B", 1, cf("Y", ""))));
                assertEquals(2, reload().size());
            }
        } finally {
            done.set(true);
            for (Thread t : threads) t.join(30_000);
        }
        assertEquals(List.of(), problems);
        assertTrue(writes.get() > 0 && listings.get() > reloads, writes + " writes, " + listings + " listings");
    }

    // ---- refused

    @ParameterizedTest
    @MethodSource("sibyl.it.TestNode#backends")
    void aRemovedColumnFamilyThatHoldsDataIsRefused(TestNode.Backend backend) throws Exception {
        Cassandra.Client c = start(backend);
        c.insert("Keyspace1", "k", path("Standard2", "c"), b("v"), 1, ONE);
        edit(replaceOnce("<ColumnFamily Name=\"Standard2\" CompareWith=\"UTF8Type\" KeysCached=\"100%\"/>", ""));
        edit(ConfEdits.addKeyspace(ConfEdits.keyspace("Reloaded", 1, cf("Users", ""))));

        String why = refusal(KS1 + "/ColumnFamily[@Name='Standard2']");
        assertTrue(why.contains("column family removed, but") && why.contains("holds"), why);

        assertFalse(c.describe_keyspaces().contains("Reloaded"), "nothing of the refused file is applied");
        assertTrue(c.describe_keyspace("Keyspace1").containsKey("Standard2"));
        assertEquals(1, c.get_count("Keyspace1", "k", parent("Standard2"), ONE));
        assertNothingWasApplied();
    }

    @Test
    void aChangedComparatorIsRefusedWithEverythingElseInTheFile() throws Exception {
        Cassandra.Client c = start(TestNode.Backend.EMBEDDED);
        edit(ConfEdits.addKeyspace(ConfEdits.keyspace("Reloaded", 1, cf("Users", ""))));
        edit(replaceOnce("<ColumnFamily Name=\"Standard2\" CompareWith=\"UTF8Type\"",
                "<ColumnFamily Name=\"Standard2\" CompareWith=\"AsciiType\""));

        String why = refusal(KS1 + "/ColumnFamily[@Name='Standard2']/@CompareWith");
        assertTrue(why.contains("changed from UTF8Type to AsciiType"), why);

        assertFalse(c.describe_keyspaces().contains("Reloaded"), "the new keyspace of the refused file is not added");
        assertEquals("org.apache.cassandra.db.marshal.UTF8Type",
                c.describe_keyspace("Keyspace1").get("Standard2").get("CompareWith"));
        assertNothingWasApplied();
    }

    @Test
    void aChangedColumnTypeIsRefused() throws Exception {
        start(TestNode.Backend.EMBEDDED);
        edit(replaceOnce("<ColumnFamily Name=\"Standard2\" CompareWith=\"UTF8Type\"",
                "<ColumnFamily Name=\"Standard2\" ColumnType=\"Super\" CompareWith=\"UTF8Type\""));
        assertTrue(refusal(KS1 + "/ColumnFamily[@Name='Standard2']/@ColumnType").contains("changed from Standard to"
                + " Super"));
        assertNothingWasApplied();
    }

    @Test
    void aChangedPortIsRefusedAndTheNodeServesOnItsOwn() throws Exception {
        Cassandra.Client c = start(TestNode.Backend.EMBEDDED);
        edit(xml -> xml.replaceFirst("<ThriftPort>\\d+</ThriftPort>", "<ThriftPort>9999</ThriftPort>"));
        assertTrue(refusal("Storage/ThriftPort").contains("changed from 0 to 9999"));
        assertEquals("2.2.0", c.describe_version());
        assertNothingWasApplied();
    }

    @Test
    void aChangedDirectoryIsRefused() throws Exception {
        start(TestNode.Backend.EMBEDDED);
        edit(replaceOnce("var/data</DataFileDirectory>", "var/data2</DataFileDirectory>"));
        assertTrue(refusal("Storage/DataFileDirectories").contains("var/data2"));
        assertNothingWasApplied();
    }

    @Test
    void aChangedPartitionerIsRefused() throws Exception {
        start(TestNode.Backend.EMBEDDED);
        edit(ConfEdits.partitioner("org.apache.cassandra.dht.OrderPreservingPartitioner"));
        assertTrue(refusal("Storage/Partitioner").contains("OrderPreservingPartitioner"));
        assertNothingWasApplied();
    }

    @Test
    void aFileThatDoesNotLoadIsRefusedWithTheLoadersMessage() throws Exception {
        Cassandra.Client c = start(TestNode.Backend.EMBEDDED);
        edit(xml -> xml.replaceFirst("</Keyspaces>", "</Keyspace>"));
        String why = refusalStartingWith("line ");
        assertTrue(why.contains("not well-formed XML"), why);
        restore();
        edit(xml -> xml.replaceFirst("<CommitLogSync>[^<]*</CommitLogSync>", ""));
        assertTrue(refusal("Storage/CommitLogSync").contains("required element is missing"));
        assertEquals(Set.copyOf(List.of("Keyspace1", "Twitter", "Twissandra", "BloggyAppy", "system")),
                c.describe_keyspaces());
        assertNothingWasApplied();
    }

    // ---- as the operator sees it

    @Test
    void anUnchangedFileIsNoChange() throws Exception {
        start(TestNode.Backend.EMBEDDED);
        assertEquals(List.of(), reload());
        assertEquals(file().toString(), node.attribute(CONFIGURATION, "File"));
    }

    @Test
    void theConfigFilePropertyShowsTheFileAsLastApplied() throws Exception {
        Cassandra.Client c = start(TestNode.Backend.EMBEDDED);
        edit(ConfEdits.addKeyspace(ConfEdits.keyspace("Reloaded", 1, cf("Users", ""))));
        assertFalse(c.get_string_property("config file").contains("Reloaded"));
        reload();
        assertTrue(c.get_string_property("config file").contains("Name=\"Reloaded\""));
    }
}
