package sibyl.client.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;

/** Lines from a reader (a script, or stdin that is not a terminal); prompts are printed only if asked. */
final class StreamLineSource implements LineSource {

    private final BufferedReader reader;
    private final PrintStream promptOut;

    /** @param promptOut where to print prompts, or null to print none */
    StreamLineSource(BufferedReader reader, PrintStream promptOut) {
        this.reader = reader;
        this.promptOut = promptOut;
    }

    @Override
    public String readLine(String prompt) throws IOException {
        if (promptOut != null) {
            promptOut.print(prompt);
            promptOut.flush();
        }
        return reader.readLine();
    }

    @Override
    public void close() throws IOException {
        reader.close();
    }
}
