package sibyl.client.stress;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import sibyl.client.HostAddress;

/**
 * bin/stress --redis against {@link FakeRedis}, which writes its replies a byte at a time: SET and GET of the keys
 * and values the Thrift calls use, with a thread per connection and with event loops; nil and error replies; the
 * options it refuses.
 */
class RedisStressTest {
    private static final Pattern DONE = Pattern.compile("Done: (\\d+) (\\w+) operations in .*, (\\d+) errors");
    private static final Pattern VERIFY = Pattern.compile("Verify: (\\d+) mismatched columns, (\\d+) missing rows");

    private FakeRedis redis;

    @BeforeEach
    void start() throws IOException {
        redis = new FakeRedis();
    }

    @AfterEach
    void stop() throws Exception {
        redis.close();
    }

    /** A run's exit status, output and figures: operations, errors, and with --verify mismatches and missing rows. */
    record Run(int status, String out, String err) {
        long[] figures() {
            Matcher done = DONE.matcher(out);
            assertTrue(done.find(), out + err);
            Matcher verify = VERIFY.matcher(out);
            return verify.find()
                    ? new long[] {Long.parseLong(done.group(1)), Long.parseLong(done.group(3)),
                        Long.parseLong(verify.group(1)), Long.parseLong(verify.group(2))}
                    : new long[] {Long.parseLong(done.group(1)), Long.parseLong(done.group(3))};
        }
    }

    private Run stress(String loops, String... args) {
        List<String> all = new ArrayList<>(List.of("--redis", "-h", "127.0.0.1", "-p", String.valueOf(redis.port()),
                "--seed", "7", "-i", "60"));
        if (!loops.equals("0")) {
            all.addAll(List.of("--event-loops", loops));
        }
        all.addAll(List.of(args));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = Stress.run(all.toArray(String[]::new), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void setsWriteTheThriftInsertsKeysAndValuesAndGetsVerifyThemBothWays() throws Exception {
        for (String loops : List.of("0", "2")) {
            redis.close();
            redis = new FakeRedis();
            Run set = stress(loops, "-o", "insert_column", "-n", "300", "-t", "3", "-S", "20");
            assertEquals(0, set.status(), set.out() + set.err());
            assertArrayEquals(new long[] {300, 0}, set.figures(), set.out());
            assertTrue(set.out().startsWith("Stress: insert_column as Redis SET at 127.0.0.1:" + redis.port() + ", "
                    + (loops.equals("0") ? "3 threads" : "3 connections on 2 event loops")), set.out());
            assertEquals(300, redis.strings().size());
            for (long k = 0; k < 300; k++) {
                // What -o insert_column and -o insert -c 1 write to C0 of the row over Thrift.
                assertArrayEquals(Payload.value(k, -1, 0, 20), redis.strings().get(Payload.key(k)), "key " + k);
            }
            assertEquals(3, redis.connections(), "one connection per -t");

            Run get = stress(loops, "-o", "get_column", "-n", "300", "-t", "3", "-S", "20", "--count", "500",
                    "--verify");
            assertEquals(0, get.status(), get.out() + get.err());
            assertArrayEquals(new long[] {500, 0, 0, 0}, get.figures(), get.out());

            Run beyond = stress(loops, "-o", "get_column", "-n", "400", "-t", "3", "-S", "20", "--verify",
                    "--distribution", "sequential");
            assertEquals(0, beyond.status(), "nil is an answer, not a failure: " + beyond.out());
            assertArrayEquals(new long[] {400, 0, 0, 100}, beyond.figures(), "keys 300..399 were never set");

            Run wrongSize = stress(loops, "-o", "get_column", "-n", "300", "-t", "3", "-S", "21", "--verify",
                    "--distribution", "sequential");
            assertEquals(1, wrongSize.status(), "mismatches fail the run");
            assertArrayEquals(new long[] {300, 0, 300, 0}, wrongSize.figures(), wrongSize.out());
        }
    }

    @Test
    void errorRepliesAreCountedAndTheConnectionGoesOn() {
        assertEquals(0, stress("0", "-n", "10", "-t", "2").status(), "the default operation with --redis is SET");
        for (int k = 0; k < 10; k += 2) {
            redis.holdList(Payload.key(k));
        }
        int connected = redis.connections();
        for (String loops : List.of("0", "1")) {
            Run r = stress(loops, "-o", "get_column", "-n", "10", "-t", "2", "--verify", "--distribution",
                    "sequential");
            assertEquals(1, r.status(), r.out());
            assertArrayEquals(new long[] {5, 5, 0, 0}, r.figures(), "the odd keys read right, the even refused");
            assertTrue(r.out().contains("First error: GET 00000000"), r.out());
            assertTrue(r.out().contains(": server error: WRONGTYPE Operation against a key holding the wrong kind "
                    + "of value\n"), r.out());
            connected += 2;
            assertEquals(connected, redis.connections(), loops + " loops: no connection was reopened");
        }
    }

    @Test
    void optionsDefaultToRedisAndRefuseWhatRedisHasNot() {
        StressOptions defaults = StressOptions.of(StressOptions.COMMAND_LINE.parse(new String[] {"--redis"}));
        assertEquals(Operation.INSERT_COLUMN, defaults.operation());
        assertEquals(List.of(new HostAddress("localhost", 6379)), defaults.hosts());
        assertEquals("sequential", defaults.distribution());
        assertInstanceOf(RespCodec.class, defaults.codec());
        assertInstanceOf(Dialect06Codec.class,
                StressOptions.of(StressOptions.COMMAND_LINE.parse(new String[0])).codec());

        String[][] refused = {
            {"-o", "insert"}, {"-o", "read"}, {"-o", "mixed"}, {"-o", "get_column", "-c", "2"}, {"-y", "super"},
            {"--supers", "1"}, {"-e", "ONE"}, {"-K", "Keyspace1"}, {"-C", "Standard1"}, {"--framed"},
            {"--dialect", "0.6"}};
        String[] why = {
            "--redis sends SET and GET only: use -o insert_column or -o get_column, not -o insert",
            "--redis sends SET and GET only: use -o insert_column or -o get_column, not -o read",
            "--redis sends SET and GET only: use -o insert_column or -o get_column, not -o mixed",
            "-o get_column sends one column per call; -c must be 1, not 2",
            "--redis takes no -y: Redis has no super columns", "--redis takes no --supers: Redis has no super columns",
            "--redis takes no -e: Redis has no consistency levels", "--redis takes no -K: Redis has no keyspaces",
            "--redis takes no -C: Redis has no column families", "--redis takes no --framed: Redis has no Thrift framing",
            "--redis takes no --dialect: Redis has no Thrift dialects"};
        for (int i = 0; i < refused.length; i++) {
            List<String> args = new ArrayList<>(List.of("--redis"));
            args.addAll(List.of(refused[i]));
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int status = Stress.run(args.toArray(String[]::new), System.out,
                    new PrintStream(err, true, StandardCharsets.UTF_8));
            assertEquals(2, status, String.join(" ", refused[i]));
            assertEquals("stress: " + why[i] + " (--help shows the usage)\n", err.toString(StandardCharsets.UTF_8));
        }

        ByteArrayOutputStream help = new ByteArrayOutputStream();
        assertEquals(0, Stress.run(new String[] {"--help"}, new PrintStream(help, true, StandardCharsets.UTF_8),
                System.err));
        assertTrue(help.toString(StandardCharsets.UTF_8).contains("--redis "), help.toString(StandardCharsets.UTF_8));
    }
}
