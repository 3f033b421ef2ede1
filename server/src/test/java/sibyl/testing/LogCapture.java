package sibyl.testing;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import org.slf4j.LoggerFactory;

/** Collects what one logger (and those below it) logs while open; close it to detach. */
public final class LogCapture implements AutoCloseable {
    private final Logger logger;
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

    public LogCapture(Class<?> source) {
        this(source.getName());
    }

    public LogCapture(String loggerName) {
        logger = (Logger) LoggerFactory.getLogger(loggerName);
        appender.start();
        logger.addAppender(appender);
    }

    /** The formatted messages logged at {@code level} so far. */
    public List<String> messages(Level level) {
        synchronized (appender.list) {
            return appender.list.stream()
                    .filter(event -> event.getLevel() == level)
                    .map(ILoggingEvent::getFormattedMessage)
                    .toList();
        }
    }

    /** The formatted messages logged at {@code level} with an exception, so with its stack trace. */
    public List<String> messagesWithStackTraces(Level level) {
        synchronized (appender.list) {
            return appender.list.stream()
                    .filter(event -> event.getLevel() == level && event.getThrowableProxy() != null)
                    .map(ILoggingEvent::getFormattedMessage)
                    .toList();
        }
    }

    @Override
    public void close() {
        logger.detachAppender(appender);
        appender.stop();
    }
}
