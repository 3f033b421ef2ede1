package sibyl.client.soak;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The soak's record of acknowledged writes: a local file, one key per line, appended the moment
 * the server acknowledged the write. Only the server is killed, never the process holding this
 * log, so what is appended here reaches the file ({@link #close} flushes). Thread-safe.
 */
final class AckLog implements AutoCloseable {
    private final BufferedWriter out;
    private long count;

    private AckLog(BufferedWriter out) {
        this.out = out;
    }

    /** A new, empty log at {@code file} (an existing one is replaced). */
    static AckLog create(Path file) throws IOException {
        return new AckLog(Files.newBufferedWriter(file, StandardCharsets.UTF_8));
    }

    synchronized void acked(String key) {
        try {
            out.write(key);
            out.write('\n');
            count++;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot record an acknowledged write", e);
        }
    }

    synchronized long count() {
        return count;
    }

    @Override
    public synchronized void close() throws IOException {
        out.close();
    }

    /** The keys recorded in {@code file}, in the order they were acknowledged. */
    static List<String> read(Path file) throws IOException {
        List<String> keys = new ArrayList<>();
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            if (!line.isEmpty()) keys.add(line);
        }
        return keys;
    }
}
