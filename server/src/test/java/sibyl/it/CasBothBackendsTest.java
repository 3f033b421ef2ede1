package sibyl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;
import sibyl.iface.v20.CASResult;
import sibyl.iface.v20.Column;
import sibyl.iface.v20.ColumnOrSuperColumn;
import sibyl.iface.v20.ColumnParent;
import sibyl.iface.v20.ConsistencyLevel;
import sibyl.iface.v20.InvalidRequestException;
import sibyl.iface.v20.SlicePredicate;
import sibyl.iface.v20.SliceRange;

/**
 * cas on both backends (docs/thrift-api-0.7.md §cas): what an empty {@code expected} means, matches and mismatches
 * with the current values a failure answers, the timestamps cas writes at, the levels it refuses; and many
 * connections racing cas on one row round after round, of which exactly one wins each round. Its answers are
 * compared with a real Cassandra 3.11's in the client's CasDifferentialIT.
 */
@ParameterizedClass
@MethodSource("sibyl.it.TestNode#backends")
class CasBothBackendsTest {
    private static final String KS = "Keyspace1";
    private static final String CF = "Standard1";
    private static final ConsistencyLevel SERIAL = ConsistencyLevel.SERIAL;
    private static final ConsistencyLevel QUORUM = ConsistencyLevel.QUORUM;

    @RegisterExtension
    static final NodeExtension NODE = NodeExtension.onEachBackend();

    @Parameter
    TestNode.Backend backend;

    @Test
    void casComparesAndSetsAndAnswersTheCurrentValues() throws Exception {
        String key = "cas-" + backend;
        try (V20Connection c = new V20Connection(NODE.node().port(), KS)) {
            long before = System.currentTimeMillis() * 1000;
            assertEquals(new CASResult(true), c.client.cas(utf8(key), CF, List.of(),
                    List.of(column("b", "1"), column("a", "2")), SERIAL, QUORUM), "an absent row takes the updates");
            List<ColumnOrSuperColumn> row = row(c, key);
            assertEquals(2, row.size());
            assertTrue(row.get(0).column.timestamp >= before, "cas writes at the server's time, not the client's");

            CASResult exists = c.client.cas(utf8(key), CF, List.of(), List.of(column("c", "3")), SERIAL, QUORUM);
            assertFalse(exists.success);
            assertEquals(List.of("a=2"), shown(exists.current_values), "the row's first column");

            assertTrue(c.client.cas(utf8(key), CF, List.of(column("a", "2")), List.of(column("a", "4"), column("d", "5")),
                    ConsistencyLevel.LOCAL_SERIAL, ConsistencyLevel.ONE).success);
            CASResult differs = c.client.cas(utf8(key), CF, List.of(column("zz", "1"), column("d", "5"), column("a", "2")),
                    List.of(column("e", "6")), SERIAL, QUORUM);
            assertFalse(differs.success);
            assertEquals(List.of("a=4", "d=5"), shown(differs.current_values), "the expected columns there are, in order");
            assertEquals(List.of("a=4", "b=1", "d=5"), shown(row(c, key).stream().map(r -> r.column).toList()));

            CASResult absent = c.client.cas(utf8(key + "-absent"), CF, List.of(column("a", "1")), List.of(column("a", "2")),
                    SERIAL, QUORUM);
            assertEquals(new CASResult(false).setCurrent_values(List.of()), absent);
        }
    }

    @Test
    void levelsOtherThanTheSerialOnesAreRefusedAsIn311() throws Exception {
        try (V20Connection c = new V20Connection(NODE.node().port(), KS)) {
            InvalidRequestException serial = assertThrows(InvalidRequestException.class, () -> c.client.cas(utf8("levels"),
                    CF, List.of(), List.of(column("a", "1")), ConsistencyLevel.QUORUM, QUORUM));
            assertEquals("Invalid consistency for conditional update. Must be one of SERIAL or LOCAL_SERIAL", serial.why);
            InvalidRequestException commit = assertThrows(InvalidRequestException.class, () -> c.client.cas(utf8("levels"),
                    CF, List.of(), List.of(column("a", "1")), SERIAL, SERIAL));
            assertTrue(commit.why.startsWith("SERIAL is not supported as conditional update commit consistency."), commit.why);
            InvalidRequestException superTable = assertThrows(InvalidRequestException.class, () -> c.client.cas(
                    utf8("levels"), "Super1", List.of(), List.of(column("a", "1")), SERIAL, QUORUM));
            assertEquals("CAS does not support supercolumns", superTable.why);
        }
    }

    /**
     * Round r moves the row's column from r to r + 1, tried by every connection at once: exactly one wins each
     * round, every loser is told the value the winner wrote, and the value at the end is the number of wins.
     */
    @Test
    void ofConnectionsRacingOnOneRowExactlyOneWinsEachRound() throws Exception {
        int connections = 6;
        int rounds = backend == TestNode.Backend.EMBEDDED ? 200 : 25;
        String key = "race-" + backend;
        try (V20Connection setup = new V20Connection(NODE.node().port(), KS)) {
            assertTrue(setup.client.cas(utf8(key), CF, List.of(), List.of(column("n", "0")), SERIAL, QUORUM).success);
        }
        AtomicIntegerArray winners = new AtomicIntegerArray(rounds);
        CyclicBarrier start = new CyclicBarrier(connections);
        ExecutorService pool = Executors.newFixedThreadPool(connections);
        try {
            List<Future<Integer>> done = new ArrayList<>();
            for (int t = 0; t < connections; t++) {
                done.add(pool.submit((Callable<Integer>) () -> {
                    int wins = 0;
                    try (V20Connection c = new V20Connection(NODE.node().port(), KS)) {
                        for (int r = 0; r < rounds; r++) {
                            start.await(60, TimeUnit.SECONDS);
                            CASResult result = c.client.cas(utf8(key), CF, List.of(column("n", String.valueOf(r))),
                                    List.of(column("n", String.valueOf(r + 1))), SERIAL, QUORUM);
                            if (result.success) {
                                wins++;
                                winners.incrementAndGet(r);
                            } else {
                                assertEquals(List.of("n=" + (r + 1)), shown(result.current_values), "round " + r);
                            }
                        }
                    }
                    return wins;
                }));
            }
            int wins = 0;
            for (Future<Integer> f : done) wins += f.get(5, TimeUnit.MINUTES);
            for (int r = 0; r < rounds; r++) assertEquals(1, winners.get(r), "winners of round " + r);
            assertEquals(rounds, wins);
            try (V20Connection c = new V20Connection(NODE.node().port(), KS)) {
                assertEquals(List.of("n=" + wins), shown(row(c, key).stream().map(r -> r.column).toList()));
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** The row's columns, read at ONE. */
    private static List<ColumnOrSuperColumn> row(V20Connection c, String key) throws Exception {
        return c.client.get_slice(utf8(key), new ColumnParent(CF),
                new SlicePredicate().setSlice_range(new SliceRange(utf8(""), utf8(""), false, 100)), ConsistencyLevel.ONE);
    }

    private static List<String> shown(List<Column> columns) {
        List<String> shown = new ArrayList<>();
        for (Column c : columns) shown.add(text(c.name) + "=" + text(c.value));
        return shown;
    }

    private static String text(ByteBuffer b) {
        return StandardCharsets.UTF_8.decode(b.duplicate()).toString();
    }

    /** A column at timestamp 1: cas writes at its own time whatever the client gives. */
    private static Column column(String name, String value) {
        return new Column(utf8(name)).setValue(utf8(value)).setTimestamp(1);
    }

    private static ByteBuffer utf8(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
    }
}
