package sibyl.service;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static sibyl.db.TestSchema.KS;
import static sibyl.db.TestSchema.STD;
import static sibyl.db.TestSchema.STD2;
import static sibyl.db.TestSchema.SUPER;
import static sibyl.db.TestSchema.b;

import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;
import sibyl.db.Cell;
import sibyl.db.ColumnSelection;
import sibyl.db.InvalidQueryException;
import sibyl.db.QueryPath;
import sibyl.db.RowMutation;
import sibyl.db.RowRange;
import sibyl.db.TestSchema;
import sibyl.dht.Partitioners;
import sibyl.engine.LocalStorageService;

/** Requests through the seam are counted per column family, each kind apart, once served. */
class MeteredStorageServiceTest {
    private final LocalStorageService backend = new LocalStorageService(
            Partitioners.forName("org.apache.cassandra.dht.RandomPartitioner"), List.of(TestSchema.keyspace1()), 128);
    private final RequestMetrics metrics = new RequestMetrics();
    private final MeteredStorageService service = new MeteredStorageService(backend, metrics);
    private static final Consistency ONE = Consistency.ONE;

    @Test
    void everyConfiguredColumnFamilyHasFiguresFromTheStart() {
        List<String> names = metrics.all().stream().map(r -> r.keyspace() + "/" + r.columnFamily()).toList();
        assertTrue(names.containsAll(List.of(KS + "/" + STD, KS + "/" + STD2, KS + "/" + SUPER)), names.toString());
        assertTrue(names.stream().anyMatch(n -> n.startsWith("system/")), "the system keyspace too: " + names);
        assertEquals(names.stream().sorted().toList(), names, "in name order");
        for (ColumnFamilyRequests r : metrics.all()) assertEquals(0, r.reads().count() + r.writes().count());
    }

    @Test
    void eachKindIsCountedForItsColumnFamily() {
        // One row mutation changing two column families counts as a write of each.
        service.write(RowMutation.builder(KS, "k").write(STD, b("a"), b("1"), 1).write(STD2, b("b"), b("2"), 1).build(),
                ONE).join();
        service.write(RowMutation.builder(KS, "k").write(STD, b("c"), b("3"), 1).build(), ONE).join();
        QueryPath parent = new QueryPath(STD, null, null);
        assertEquals(2, service.readSlice(KS, "k", parent, ColumnSelection.all(), ONE).join().size());
        assertTrue(service.readCell(KS, "k", new QueryPath(STD, null, b("a")), ONE).join().isPresent());
        assertFalse(service.readCell(KS, "absent", new QueryPath(STD, null, b("a")), ONE).join().isPresent(),
                "a miss is a read too");
        assertEquals(2, service.count(KS, "k", parent, ONE).join());
        assertEquals(1, service.scan(KS, parent, ColumnSelection.all(), RowRange.keys("", ""), 10, ONE).join().size());

        ColumnFamilyRequests std = metrics.of(KS, STD);
        assertEquals(2, std.writes().count());
        assertEquals(4, std.reads().count());
        assertEquals(1, std.rangeScans().count());
        assertEquals(1, metrics.of(KS, STD2).writes().count());
        assertEquals(0, metrics.of(KS, STD2).reads().count());
        assertEquals(0, metrics.of(KS, SUPER).writes().count());
    }

    @Test
    void aRefusedRequestIsNotCounted() {
        CompletableFuture<?> read = service.readSlice(KS, "k", new QueryPath("Nope", null, null), ColumnSelection.all(),
                ONE);
        assertInstanceOf(InvalidQueryException.class, assertThrows(CompletionException.class, read::join).getCause());
        CompletableFuture<?> write = service.write(RowMutation.builder(KS, "k").write("Nope", b("a"), b("1"), 1).build(),
                ONE);
        assertInstanceOf(InvalidQueryException.class, assertThrows(CompletionException.class, write::join).getCause());
        assertTrue(metrics.all().stream().noneMatch(r -> r.columnFamily().equals("Nope")), "no figures for it");
        assertEquals(0, metrics.all().stream().mapToLong(r -> r.reads().count() + r.writes().count()).sum());
    }

    @Test
    void everyMethodOfTheSeamIsPassedOnNotLeftToItsDefault() throws Exception {
        // A default method left alone would hide a backend's own form of it (a cluster's consistency levels).
        for (Method m : StorageService.class.getMethods()) {
            assertEquals(MeteredStorageService.class,
                    MeteredStorageService.class.getMethod(m.getName(), m.getParameterTypes()).getDeclaringClass(),
                    m.toString());
        }
    }

    @Test
    void anAnswerThatComesLaterIsCountedWhenItComesAndOnlyIfItSucceeds() {
        CompletableFuture<List<Cell>> served = new CompletableFuture<>();
        CompletableFuture<List<Cell>> refused = new CompletableFuture<>();
        List<CompletableFuture<List<Cell>>> answers = new ArrayList<>(List.of(served, refused));
        StorageService later = (StorageService) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {StorageService.class}, (proxy, method, args) -> answers.remove(0));
        MeteredStorageService metered = new MeteredStorageService(new DescribedBy(backend, later), metrics);
        QueryPath parent = new QueryPath(STD, null, null);
        CompletableFuture<List<Cell>> first = metered.readSlice(KS, "k", parent, ColumnSelection.all(), ONE);
        CompletableFuture<List<Cell>> second = metered.readSlice(KS, "k", parent, ColumnSelection.all(), ONE);
        assertEquals(0, metrics.of(KS, STD).reads().count(), "nothing served yet");
        served.complete(List.of());
        refused.completeExceptionally(new InvalidQueryException("refused"));
        assertEquals(List.of(), first.join());
        assertInstanceOf(InvalidQueryException.class, assertThrows(CompletionException.class, second::join).getCause());
        assertEquals(1, metrics.of(KS, STD).reads().count());
    }

    /** A backend that answers with {@code answers}, and describes its schema as {@code described} does. */
    private record DescribedBy(StorageService described, StorageService answers) implements StorageService {
        @Override
        public sibyl.dht.Partitioner partitioner() {
            return described.partitioner();
        }

        @Override
        public Schema schema() {
            return described.schema();
        }

        @Override
        public CompletableFuture<Void> write(RowMutation mutation, Consistency consistency) {
            return answers.write(mutation, consistency);
        }

        @Override
        public CompletableFuture<sibyl.db.CompareAndSet.Outcome> compareAndSet(sibyl.db.CompareAndSet cas,
                                                                          SerialConsistency serial,
                                                                          Consistency commit) {
            return answers.compareAndSet(cas, serial, commit);
        }

        @Override
        public CompletableFuture<java.util.Optional<Cell>> readCell(String keyspace, String key, QueryPath path,
                                                                    Consistency consistency) {
            return answers.readCell(keyspace, key, path, consistency);
        }

        @Override
        public CompletableFuture<List<Cell>> readSlice(String keyspace, String key, QueryPath parent,
                                                       ColumnSelection selection, Consistency consistency) {
            return answers.readSlice(keyspace, key, parent, selection, consistency);
        }

        @Override
        public CompletableFuture<Integer> count(String keyspace, String key, QueryPath parent,
                                                Consistency consistency) {
            return answers.count(keyspace, key, parent, consistency);
        }

        @Override
        public CompletableFuture<List<sibyl.db.RowSlice>> scan(String keyspace, QueryPath parent,
                                                               ColumnSelection selection, RowRange range, int count,
                                                               Consistency consistency) {
            return answers.scan(keyspace, parent, selection, range, count, consistency);
        }

        @Override
        public CompletableFuture<Void> truncate(String keyspace, String columnFamily) {
            return answers.truncate(keyspace, columnFamily);
        }

        @Override
        public List<sibyl.dht.Token> ringTokens() {
            return described.ringTokens();
        }

        @Override
        public List<sibyl.dht.Token> describeSplits(sibyl.dht.Token start, sibyl.dht.Token end, int keysPerSplit) {
            return described.describeSplits(start, end, keysPerSplit);
        }
    }

    @Test
    void theSeamPassesTheRestThrough() {
        assertEquals(backend.schema(), service.schema());
        assertEquals(backend.partitioner(), service.partitioner());
        assertEquals(backend.ringTokens(), service.ringTokens());
    }

    @Test
    void latenciesFallIntoBucketsWhoseBoundsAreInclusive() {
        long[] bounds = LatencyTracker.bucketBoundsNanos();
        LatencyTracker t = new LatencyTracker();
        t.record(0);
        t.record(bounds[0]);
        t.record(bounds[0] + 1);
        t.record(bounds[bounds.length - 1]);
        t.record(Long.MAX_VALUE / 2);
        LatencyTracker.Snapshot s = t.snapshot();
        long[] expected = new long[bounds.length + 1];
        expected[0] = 2;
        expected[1] = 1;
        expected[bounds.length - 1] = 1;
        expected[bounds.length] = 1;
        assertArrayEquals(expected, s.bucketCounts());
        assertEquals(5, s.count());
        assertEquals(5, t.count());
        assertEquals(bounds[0] * 2 + 1 + bounds[bounds.length - 1] + Long.MAX_VALUE / 2, s.totalNanos());
        for (int i = 1; i < bounds.length; i++) assertTrue(bounds[i] > bounds[i - 1], "increasing");
    }
}
