package sibyl.hardening;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import org.slf4j.LoggerFactory;

/**
 * Raises one logger's level while open. The fuzzer makes the server refuse tens of thousands of connections, each
 * with its one WARN line; writing them all would cost more time than the fuzzing.
 */
final class QuietLog implements AutoCloseable {
    private final Logger logger;
    private final Level previous;

    QuietLog(String name, Level level) {
        logger = (Logger) LoggerFactory.getLogger(name);
        previous = logger.getLevel();
        logger.setLevel(level);
    }

    @Override
    public void close() {
        logger.setLevel(previous);
    }
}
