package sibyl.service;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static sibyl.db.TestSchema.KS;
import static sibyl.db.TestSchema.STD;
import static sibyl.db.TestSchema.STD2;
import static sibyl.db.TestSchema.SUPER;
import static sibyl.db.TestSchema.b;

import java.lang.reflect.Method;
import java.util.List;
import org.junit.jupiter.api.Test;
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
        service.apply(RowMutation.builder(KS, "k").write(STD, b("a"), b("1"), 1).write(STD2, b("b"), b("2"), 1).build());
        service.apply(RowMutation.builder(KS, "k").write(STD, b("c"), b("3"), 1).build());
        QueryPath parent = new QueryPath(STD, null, null);
        assertEquals(2, service.getSlice(KS, "k", parent, ColumnSelection.all()).size());
        assertTrue(service.get(KS, "k", new QueryPath(STD, null, b("a"))).isPresent());
        assertFalse(service.get(KS, "absent", new QueryPath(STD, null, b("a"))).isPresent(), "a miss is a read too");
        assertEquals(2, service.getCount(KS, "k", parent));
        assertEquals(1, service.getRangeSlice(KS, parent, ColumnSelection.all(), RowRange.keys("", ""), 10).size());

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
        assertThrows(InvalidQueryException.class, () -> service.getSlice(KS, "k", new QueryPath("Nope", null, null),
                ColumnSelection.all()));
        assertThrows(InvalidQueryException.class,
                () -> service.apply(RowMutation.builder(KS, "k").write("Nope", b("a"), b("1"), 1).build()));
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
    void theConsistencyFormsAreCountedAsTheOthers() {
        Consistency one = Consistency.values()[0];
        service.apply(RowMutation.builder(KS, "k").write(STD, b("a"), b("1"), 1).build(), one);
        QueryPath parent = new QueryPath(STD, null, null);
        service.getSlice(KS, "k", parent, ColumnSelection.all(), one);
        service.get(KS, "k", new QueryPath(STD, null, b("a")), one);
        service.getCount(KS, "k", parent, one);
        service.getRangeSlice(KS, parent, ColumnSelection.all(), RowRange.keys("", ""), 10, one);
        ColumnFamilyRequests std = metrics.of(KS, STD);
        assertEquals(1, std.writes().count());
        assertEquals(3, std.reads().count());
        assertEquals(1, std.rangeScans().count());
    }

    @Test
    void theSeamPassesTheRestThrough() {
        assertEquals(backend.keyspaces(), service.keyspaces());
        assertEquals(backend.partitioner(), service.partitioner());
        assertEquals(backend.writesMayWait(), service.writesMayWait());
        assertEquals(backend.countsReplicas(), service.countsReplicas());
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
