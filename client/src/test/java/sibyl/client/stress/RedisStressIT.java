package sibyl.client.stress;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedInputStream;
import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.thrift.TException;
import org.apache.thrift.transport.TIOStreamTransport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bin/stress --redis against a real redis-server (from PATH; started here on a free port without persistence, in a
 * temporary directory, and stopped at the end): SET then GET --verify with a thread per connection and with event
 * loops, what the SETs stored read back with this package's own RESP code, and Redis's nil and error replies as
 * bin/stress counts them. Without redis-server the test is skipped on a developer's machine; under CI (CI=true)
 * that is a failure, so it always runs there (.ci/run installs redis-server).
 */
class RedisStressIT {
    private static final Pattern DONE = Pattern.compile("Done: (\\d+) (\\w+) operations in .*, (\\d+) errors");
    private static final Pattern VERIFY = Pattern.compile("Verify: (\\d+) mismatched columns, (\\d+) missing rows");

    @TempDir
    static Path dir;

    private static Process redis;
    private static int port;

    @BeforeAll
    static void startRedis() throws Exception {
        Path server = onPath("redis-server");
        if (server == null && "true".equals(System.getenv("CI"))) {
            fail("redis-server is not on PATH; .ci/run must install redis-server");
        }
        assumeTrue(server != null, "redis-server not installed; skipping bin/stress --redis against it");
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Path log = dir.resolve("redis.log");
        redis = new ProcessBuilder(server.toString(), "--port", String.valueOf(port), "--bind", "127.0.0.1",
                "--save", "", "--appendonly", "no", "--dir", dir.toString(), "--daemonize", "no",
                "--logfile", log.toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("redis.out").toFile()).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            try {
                assertEquals(new RespReply.SimpleString("PONG"), command("PING"));
                return;
            } catch (IOException e) {
                if (!redis.isAlive() || System.nanoTime() > deadline) {
                    fail("redis-server did not answer PING on port " + port + " (" + (redis.isAlive() ? "running"
                            : "exited " + redis.exitValue()) + "): " + read(dir.resolve("redis.out"))
                            + read(log));
                }
                Thread.onSpinWait();
            }
        }
    }

    @AfterAll
    static void stopRedis() throws Exception {
        if (redis != null) {
            redis.destroy();
            assertTrue(redis.waitFor(30, TimeUnit.SECONDS), "redis-server stopped");
        }
    }

    private static Path onPath(String program) {
        for (String d : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path p = Path.of(d.isEmpty() ? "." : d, program);
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        return null;
    }

    private static String read(Path file) throws IOException {
        return Files.exists(file) ? Files.readString(file) : "";
    }

    /** One command on a connection of its own, through this package's RESP encoder and reader. */
    private static RespReply command(String... args) throws IOException {
        byte[][] bytes = new byte[args.length][];
        for (int i = 0; i < args.length; i++) {
            bytes[i] = args[i].getBytes(StandardCharsets.UTF_8);
        }
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
            s.setSoTimeout(10_000);
            s.getOutputStream().write(RespCommand.encode(bytes));
            return new RespReader(1 << 20).read(new TIOStreamTransport(new BufferedInputStream(s.getInputStream())));
        } catch (TException e) {
            throw new IOException(e);
        }
    }

    record Result(int status, String output) {
        /** Operations and errors of the Done line, and with --verify mismatches and missing rows. */
        long[] figures(String operation) {
            Matcher done = DONE.matcher(output);
            assertTrue(done.find(), output);
            assertEquals(operation, done.group(2), output);
            Matcher verify = VERIFY.matcher(output);
            return verify.find()
                    ? new long[] {Long.parseLong(done.group(1)), Long.parseLong(done.group(3)),
                        Long.parseLong(verify.group(1)), Long.parseLong(verify.group(2))}
                    : new long[] {Long.parseLong(done.group(1)), Long.parseLong(done.group(3))};
        }
    }

    /** bin/stress --redis at this redis-server, as a user runs it. */
    private static Result stress(String... args) throws Exception {
        Path home = Path.of(System.getProperty("sibyl.home", "..")).toAbsolutePath().normalize();
        List<String> cmd = new ArrayList<>(List.of(home.resolve("bin/stress").toString(), "--redis", "-h",
                "127.0.0.1", "-p", String.valueOf(port), "--seed", "5", "-i", "60"));
        cmd.addAll(List.of(args));
        Path out = Files.createTempFile(dir, "stress", ".txt");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        assertTrue(p.waitFor(180, TimeUnit.SECONDS), "finished: " + cmd);
        return new Result(p.exitValue(), Files.readString(out));
    }

    @Test
    void setThenGetVerifyBothWays() throws Exception {
        for (List<String> shape : List.of(List.of("-t", "4"), List.of("-t", "6", "--event-loops", "2"))) {
            assertEquals(new RespReply.SimpleString("OK"), command("FLUSHALL"));
            List<String> set = new ArrayList<>(List.of("-o", "insert_column", "-n", "2000", "-S", "50"));
            set.addAll(shape);
            Result inserted = stress(set.toArray(String[]::new));
            assertEquals(0, inserted.status(), shape + ": " + inserted.output());
            assertArrayEquals(new long[] {2000, 0}, inserted.figures("insert_column"), inserted.output());
            assertEquals(new RespReply.IntegerReply(2000), command("DBSIZE"), shape + ": one key per SET");
            for (long k : new long[] {0, 1, 1234, 1999}) {
                RespReply stored = command("GET", Payload.key(k));
                // The value of C0 that -o insert_column and -o insert -c 1 write over Thrift.
                assertArrayEquals(Payload.value(k, -1, 0, 50), ((RespReply.BulkString) stored).bytes(), "key " + k);
            }

            List<String> get = new ArrayList<>(List.of("-o", "get_column", "-n", "2000", "-S", "50", "--count",
                    "3000", "--verify"));
            get.addAll(shape);
            Result read = stress(get.toArray(String[]::new));
            assertEquals(0, read.status(), shape + ": " + read.output());
            assertArrayEquals(new long[] {3000, 0, 0, 0}, read.figures("get_column"), read.output());

            List<String> beyond = new ArrayList<>(List.of("-o", "get_column", "-n", "2500", "-S", "50", "--verify",
                    "--distribution", "sequential"));
            beyond.addAll(shape);
            Result nil = stress(beyond.toArray(String[]::new));
            assertEquals(0, nil.status(), "nil is an answer, not a failure: " + nil.output());
            assertArrayEquals(new long[] {2500, 0, 0, 500}, nil.figures("get_column"), "keys 2000..2499 never set");
        }
    }

    @Test
    void redisErrorRepliesAreCountedAndTheFirstPrinted() throws Exception {
        assertEquals(new RespReply.SimpleString("OK"), command("FLUSHALL"));
        for (long k = 0; k < 10; k += 2) {
            // A list where GET expects a string: Redis answers -WRONGTYPE.
            assertEquals(new RespReply.IntegerReply(1), command("LPUSH", Payload.key(k), "x"));
        }
        for (List<String> shape : List.of(List.of("-t", "2"), List.of("-t", "2", "--event-loops", "1"))) {
            List<String> args = new ArrayList<>(List.of("-o", "get_column", "-n", "10", "--verify", "--distribution",
                    "sequential"));
            args.addAll(shape);
            Result r = stress(args.toArray(String[]::new));
            assertEquals(1, r.status(), r.output());
            // Keys 1, 3, ... are not there (nil, a missing row); 0, 2, ... are refused, each an error.
            assertArrayEquals(new long[] {5, 5, 0, 5}, r.figures("get_column"), r.output());
            assertTrue(r.output().contains(": server error: WRONGTYPE Operation against a key holding the wrong "
                    + "kind of value"), r.output());
            assertTrue(r.output().contains("First error: GET 00000000"), r.output());
        }
    }
}
