package sibyl.client.tool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import sibyl.client.tool.CommandLine.Arguments;
import sibyl.client.tool.CommandLine.Option;

class CommandLineTest {
    private static final CommandLine TOOL = new CommandLine("tool", "Usage: tool [options]", false,
            Option.value("-p", "--port"), Option.flag("--framed"), Option.flag("--batch"), Option.flag("--interactive"),
            Option.value("--ratio"), Option.value("--count"));
    private static final CommandLine WITH_OPERANDS = new CommandLine("ops", "Usage: ops COMMAND", true,
            Option.value("-h", "--host", "-host"));

    @Test
    void valuesComeFromTheNextArgumentOrAfterAnEqualsSignAndTheLaterOneCounts() {
        Arguments a = TOOL.parse(new String[] {"-p", "9160", "--framed", "--count=7", "--port=9161"});
        assertEquals(9161, a.intValue("-p", 1));
        assertEquals(9161, a.intValue("--port", 1));
        assertTrue(a.has("--framed"));
        assertEquals(7, a.positiveLong("--count", 1));
        assertFalse(a.has("--ratio"));
        assertEquals(0.5, a.fraction("--ratio", 0.5));
        assertEquals("x", a.value("--ratio", "x"));
        assertFalse(a.help());
    }

    @Test
    void aValueMayStartWithADash() {
        assertEquals(-5, TOOL.parse(new String[] {"--count", "-5"}).longValue("--count", 0));
    }

    @Test
    void lastOfTellsWhichOfExclusiveFlagsCameLast() {
        assertEquals("--batch", TOOL.parse(new String[] {"--interactive", "--batch"})
                .lastOf("--batch", "--interactive"));
        assertEquals("--interactive", TOOL.parse(new String[] {"--batch", "--interactive"})
                .lastOf("--batch", "--interactive"));
        assertNull(TOOL.parse(new String[0]).lastOf("--batch", "--interactive"));
    }

    @Test
    void badArgumentsAreNamed() {
        assertProblem("unknown option --bogus", TOOL, "--bogus");
        assertProblem("unknown option --bogus=1", TOOL, "--bogus=1");
        assertProblem("-p needs a value", TOOL, "-p");
        assertProblem("--framed takes no value", TOOL, "--framed=yes");
        assertProblem("unexpected argument 'stray'", TOOL, "stray");
    }

    @Test
    void badValuesAreNamedAsTheUserSpelledTheOption() {
        assertProblem("-p takes a number, not 'x'", () -> TOOL.parse(new String[] {"-p", "x"}).intValue("--port", 0));
        assertProblem("--port takes a whole number, not '1.5'",
                () -> TOOL.parse(new String[] {"--port", "1.5"}).intValue("-p", 0));
        assertProblem("--count must be positive, not 0",
                () -> TOOL.parse(new String[] {"--count", "0"}).positiveInt("--count", 1));
        assertProblem("--count must not be negative, not -1",
                () -> TOOL.parse(new String[] {"--count", "-1"}).nonNegativeInt("--count", 1));
        assertProblem("--count is too large: 3000000000",
                () -> TOOL.parse(new String[] {"--count", "3000000000"}).positiveInt("--count", 1));
        assertProblem("--ratio must be between 0 and 1, not 2",
                () -> TOOL.parse(new String[] {"--ratio", "2"}).fraction("--ratio", 0));
        assertProblem("--ratio takes a number, not 'half'",
                () -> TOOL.parse(new String[] {"--ratio", "half"}).positiveDouble("--ratio", 1));
        assertProblem("--port is required", () -> TOOL.parse(new String[0]).intValue("-p"));
    }

    @Test
    void operandsAreKeptInOrderWhereTheToolTakesThem() {
        Arguments a = WITH_OPERANDS.parse(new String[] {"flush", "-host", "node1", "Keyspace1", "Users"});
        assertEquals(List.of("flush", "Keyspace1", "Users"), a.operands());
        assertEquals("node1", a.value("--host", "localhost"));
    }

    @Test
    void helpPrintsTheUsageAndABadArgumentOneLineWithStatusTwo() {
        assertTrue(TOOL.parse(new String[] {"--help"}).help());
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        assertEquals(0, TOOL.printUsage(out));
        assertEquals("Usage: tool [options]\n", bytes.toString(StandardCharsets.UTF_8));
        bytes.reset();
        assertEquals(2, TOOL.refuse(out, "unknown option --bogus"));
        assertEquals("tool: unknown option --bogus (--help shows the usage)\n", bytes.toString(StandardCharsets.UTF_8));
    }

    @Test
    void anOptionNotDeclaredIsAProgrammingError() {
        assertThrows(IllegalStateException.class, () -> TOOL.parse(new String[0]).has("--nope"));
    }

    private static void assertProblem(String message, CommandLine commandLine, String... args) {
        assertProblem(message, () -> commandLine.parse(args));
    }

    private static void assertProblem(String message, Runnable parse) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, parse::run);
        assertEquals(message, e.getMessage());
    }
}
