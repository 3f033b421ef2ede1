package sibyl.client.cli;

import java.io.IOException;

/** Where statements come from: a terminal with line editing, or a plain stream. */
interface LineSource extends AutoCloseable {

    /** The next line, or null at the end of input. {@code prompt} is shown only where it makes sense. */
    String readLine(String prompt) throws IOException;

    @Override
    void close() throws IOException;
}
