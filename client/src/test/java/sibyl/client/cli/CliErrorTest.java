package sibyl.client.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import sibyl.client.fake.FakeServer;

/**
 * Every kind of failing statement prints a message saying what was wrong; interactively the shell goes
 * on, in batch mode the run stops with exit status 1.
 */
class CliErrorTest {

    /** A failing statement and a fragment its message must contain. */
    record Bad(String statement, String message) {
        @Override
        public String toString() {
            return statement;
        }
    }

    static List<Bad> badStatements() {
        return List.of(
                new Bad("frobnicate", "unknown command 'frobnicate'"),
                new Bad("get Keyspace1.Standard2['k'", "incomplete statement: expected ']'"),
                new Bad("set Keyspace1.Standard2['k']['c'] 'v'", "expected '='"),
                new Bad("set Keyspace1.Standard2['k']['c'] = 'open", "unterminated string"),
                new Bad("get Keyspace1.Standard2 k", "get needs a row key: Keyspace1.Standard2['key']"),
                new Bad("show keyspaces now", "unexpected now at column 16 after the end of the show statement"),
                new Bad("show tables", "cannot show tables"),
                new Bad("get Nope.Standard1['k']", "unknown keyspace 'Nope' (the server has Keyspace1, system)"),
                new Bad("get Keyspace1.Nope['k']", "unknown column family 'Nope' in keyspace Keyspace1 (it has "),
                new Bad("set Keyspace1.StandardLong1['k']['ten'] = 'v'",
                        "bad name 'ten': 'ten' is not a decimal 64-bit number (LongType)"),
                new Bad("set Keyspace1.StandardByUUID1['k'][123e4567-e89b-42d3-a456-426614174000] = 'v'",
                        "version 4 UUID; TimeUUIDType names must be version 1"),
                new Bad("set Keyspace1.Standard2['k'] = 'v'",
                        "set on standard column family Standard2 needs ['key']['column']"),
                new Bad("set Keyspace1.Super2['k']['sc'] = 'v'",
                        "set on super column family Super2 needs ['key']['super column']['column']"),
                new Bad("get Keyspace1.Standard2['k']['a']['b']", "Standard2 is a standard column family"),
                new Bad("count Keyspace1.Standard2['k']['a']", "count takes ['key'] on standard column family"),
                new Bad("get Keyspace1.Standard2['']", "the row key may not be empty"),
                // refused by the server: its reason is shown
                new Bad("set Keyspace1.StandardLong1['k'][0x01] = 'v'",
                        "insert into Keyspace1.StandardLong1 key 'k': invalid request: A long is exactly 8 bytes"));
    }

    @TempDir
    Path dir;

    private FakeServer server;

    @BeforeEach
    void start() {
        server = FakeServer.start();
    }

    @AfterEach
    void stop() throws InterruptedException {
        server.close();
    }

    private String[] connected(String... more) {
        String[] args = new String[4 + more.length];
        args[0] = "-h";
        args[1] = "127.0.0.1";
        args[2] = "-p";
        args[3] = String.valueOf(server.port());
        System.arraycopy(more, 0, args, 4, more.length);
        return args;
    }

    @ParameterizedTest
    @MethodSource("badStatements")
    void batchStopsAtTheFirstErrorWithStatusOne(Bad bad) throws IOException {
        Path script = dir.resolve("bad.txt");
        Files.writeString(script, "set Keyspace1.Standard2['k']['c'] = 'v'\n" + bad.statement()
                + "\nget Keyspace1.Standard2['k']['c']\n");
        CliRunner r = CliRunner.run("", connected("-f", script.toString()));
        assertEquals(1, r.status());
        assertTrue(r.err().startsWith(script + ":2: error: "), r.err());
        assertTrue(r.err().contains(bad.message()), r.err());
        assertFalse(r.out().contains("=> (column=c"), "the statement after the error must not run");
    }

    @ParameterizedTest
    @MethodSource("badStatements")
    void batchFromStdinStopsToo(Bad bad) {
        CliRunner r = CliRunner.run(bad.statement() + "\nshow cluster name\n", connected());
        assertEquals(1, r.status());
        assertTrue(r.err().startsWith("stdin:1: error: "), r.err());
        assertTrue(r.err().contains(bad.message()), r.err());
        assertFalse(r.out().contains("Fake Cluster\n"));
    }

    @Test
    void interactivelyEveryErrorIsReportedAndTheShellGoesOn() {
        StringBuilder input = new StringBuilder();
        for (Bad bad : badStatements()) {
            input.append(bad.statement()).append('\n');
        }
        input.append("set Keyspace1.Standard2['k']['c'] = 'after'\nget Keyspace1.Standard2['k']['c']\n");
        CliRunner r = CliRunner.run(input.toString(), connected("--interactive"));
        assertEquals(0, r.status(), r.err());
        List<String> errors = r.err().lines().toList();
        assertEquals(badStatements().size(), errors.size(), r.err());
        for (int i = 0; i < errors.size(); i++) {
            Bad bad = badStatements().get(i);
            assertTrue(errors.get(i).startsWith("error: ") && errors.get(i).contains(bad.message()),
                    bad + " -> " + errors.get(i));
        }
        assertTrue(r.out().contains("=> (column=c, value=after, timestamp="), r.out());
        assertTrue(r.out().contains(Cli.PROMPT), "interactive mode prompts");
    }

    @Test
    void statementsBeforeConnectingSayHowToConnect() {
        CliRunner r = CliRunner.run("show keyspaces\n", "--interactive");
        assertEquals(0, r.status());
        assertEquals("error: not connected; use 'connect HOST/PORT' first\n", r.err());
    }

    @Test
    void aRefusedConnectNamesTheHost() throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        CliRunner interactive = CliRunner.run("connect 127.0.0.1/" + port + "\nhelp\n", "--interactive");
        assertEquals(0, interactive.status());
        assertTrue(interactive.err().startsWith("error: connect: connection failed: no host could be reached: 127.0.0.1:"
                + port), interactive.err());
        assertTrue(interactive.out().contains("describe keyspace KS"), "help still runs after the failure");

        CliRunner batch = CliRunner.run("show keyspaces\n", "-h", "127.0.0.1", "-p", String.valueOf(port));
        assertEquals(1, batch.status());
        assertTrue(batch.err().contains("127.0.0.1:" + port), batch.err());
    }

    @Test
    void badOptionsAndMissingScriptsExitWithTwo() {
        CliRunner bogus = CliRunner.run("", "--bogus");
        assertEquals(2, bogus.status());
        assertTrue(bogus.err().startsWith("cli: unknown option --bogus"), bogus.err());
        CliRunner port = CliRunner.run("", "-p", "x");
        assertEquals(2, port.status());
        assertTrue(port.err().contains("-p takes a number, not 'x'"), port.err());
        CliRunner missing = CliRunner.run("", "-f", dir.resolve("none.txt").toString());
        assertEquals(2, missing.status());
        assertTrue(missing.err().contains("script not found"), missing.err());
    }

    @Test
    void helpOptionPrintsUsage() {
        CliRunner r = CliRunner.run("", "--help");
        assertEquals(0, r.status());
        assertTrue(r.out().startsWith("Usage: cli"), r.out());
    }
}
