package sibyl.client.cli;

import java.util.List;
import sibyl.client.HostAddress;

/**
 * One dialect's statements over one connection, as the cli's read loop drives them: it reads lines until
 * {@link #isComplete} says they hold whole statements, then {@link #execute}s them. Failures are thrown as
 * {@link CliError} or {@link sibyl.client.ClientException}, with a message saying what was wrong.
 */
interface Shell extends AutoCloseable {

    /** The line printed when an interactive session starts. */
    String welcome();

    String prompt();

    /** The prompt for the next line of a statement not yet complete. */
    String continuationPrompt();

    /** Connects to the first of {@code hosts} that answers and prints where (closing any earlier connection). */
    void connect(List<HostAddress> hosts);

    /** Whether {@code text}, the lines read since the last statement, holds whole statements. */
    boolean isComplete(String text);

    /** Runs the statements of {@code text}; false when one asks to quit. */
    boolean execute(String text);

    @Override
    void close();
}
