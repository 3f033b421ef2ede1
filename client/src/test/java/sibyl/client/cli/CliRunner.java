package sibyl.client.cli;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** Runs the cli's entry point with captured streams, as a test fixture. */
record CliRunner(int status, String out, String err) {

    static CliRunner run(String stdin, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            status = Cli.run(args, new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)), o, e);
        }
        return new CliRunner(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** Output with timestamps and the server's port replaced by fixed text. */
    String normalizedOut(int port) {
        return normalize(out, port);
    }

    String normalizedErr(int port) {
        return normalize(err, port);
    }

    private static String normalize(String s, int port) {
        return s.replaceAll("timestamp=\\d+", "timestamp=T").replace(String.valueOf(port), "PORT");
    }
}
