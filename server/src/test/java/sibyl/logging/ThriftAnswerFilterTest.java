package sibyl.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import org.apache.thrift.TApplicationException;
import org.junit.jupiter.api.Test;

class ThriftAnswerFilterTest {
    @Test
    void dropsOnlyTheAnswersProcessFunctionLogsAsInternalErrors() {
        LoggerContext context = new LoggerContext();
        ThriftAnswerFilter filter = new ThriftAnswerFilter();
        filter.start();
        context.addTurboFilter(filter);
        ListAppender<ILoggingEvent> appender = new ListAppender<>();
        appender.setContext(context);
        appender.start();
        context.getLogger(Logger.ROOT_LOGGER_NAME).addAppender(appender);

        Logger processFunction = context.getLogger(ThriftAnswerFilter.PROCESS_FUNCTION);
        processFunction.error("Internal application error processing batch_mutate",
                new TApplicationException(TApplicationException.INTERNAL_ERROR, "write failed: disk full"));
        processFunction.error("Internal error processing get", new IllegalStateException("a bug"));
        context.getLogger("sibyl.thrift.CassandraHandler").error("elsewhere",
                new TApplicationException(TApplicationException.INTERNAL_ERROR, "kept"));
        context.stop();

        List<String> kept = appender.list.stream().map(ILoggingEvent::getMessage).toList();
        assertEquals(List.of("Internal error processing get", "elsewhere"), kept);
    }
}
