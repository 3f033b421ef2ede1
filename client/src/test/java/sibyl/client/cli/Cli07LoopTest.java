package sibyl.client.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The read loop with the 0.7+ statements, which end with ';' and may span lines: where a failing statement is
 * reported, what batch and interactive modes do after it, and the options of the dialect. No server is needed:
 * the statements here fail before any call (or need none).
 */
class Cli07LoopTest {

    @Test
    void aStatementSpanningLinesIsReportedAtItsFirstLine() {
        CliRunner r = CliRunner.run("help;\n-- a comment\nget Users\n   ['k'];\nhelp;\n", "--dialect", "0.7", "--batch");
        assertEquals(1, r.status());
        assertEquals("stdin:3: error: not connected; use 'connect HOST/PORT;' first\n", r.err());
        assertEquals(1, r.out().split("Statements of the 0.7\\+ cli", -1).length - 1,
                "the help after the failure did not run: " + r.out());
    }

    @Test
    void severalStatementsOnALineRunInOrderAndTheLastMayLackItsSemicolonAtTheEnd() {
        CliRunner r = CliRunner.run("help; help\n", "--dialect", "0.7", "--batch");
        assertEquals(0, r.status(), r.err());
        assertEquals(2, r.out().split("Statements of the 0.7\\+ cli", -1).length - 1, r.out());
    }

    @Test
    void interactivelyTheContinuationPromptAsksForTheRestAndErrorsDoNotStop() {
        CliRunner r = CliRunner.run("frobnicate\n;\nquit;\nhelp;\n", "--dialect", "0.7", "--interactive");
        assertEquals(0, r.status(), r.err());
        assertEquals("error: unknown command 'frobnicate'; type 'help;' for the list\n", r.err());
        assertTrue(r.out().contains("[default@unknown] ...\t[default@unknown] "), r.out());
        assertTrue(!r.out().contains("Statements of the 0.7+ cli"), "quit ended the session: " + r.out());
    }

    @Test
    void aNodeThatRefusesTheConnectionEndsABatchRunWithStatus1() throws java.io.IOException {
        int port;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            port = s.getLocalPort();
        }
        CliRunner r = CliRunner.run("help;\n", "--dialect", "0.7", "-h", "127.0.0.1", "-p", String.valueOf(port),
                "--batch");
        assertEquals(1, r.status());
        assertTrue(r.err().startsWith("cli: cannot connect: 127.0.0.1/" + port + ": "), r.err());
        assertEquals("", r.out());
    }

    @Test
    void theDialectOption() {
        CliRunner unknown = CliRunner.run("", "--dialect", "0.8");
        assertEquals(2, unknown.status());
        assertTrue(unknown.err().contains("unknown dialect '0.8'; use 0.6"), unknown.err());
        CliRunner keyspaceAlone06 = CliRunner.run("", "-k", "Keyspace1");
        assertEquals(2, keyspaceAlone06.status());
        assertTrue(keyspaceAlone06.err().contains("login needs all of --keyspace, --username and --password"),
                keyspaceAlone06.err());
        CliRunner keyspaceAlone07 = CliRunner.run("", "--dialect", "0.7", "-k", "Keyspace1", "--batch");
        assertEquals(0, keyspaceAlone07.status(), keyspaceAlone07.err());
        CliRunner usage = CliRunner.run("", "--help");
        assertTrue(usage.out().contains("--dialect D"), usage.out());
    }
}
