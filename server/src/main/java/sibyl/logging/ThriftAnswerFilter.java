package sibyl.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;
import org.apache.thrift.TApplicationException;
import org.slf4j.Marker;

/**
 * Drops the ERROR line, with stack trace, that libthrift's ProcessFunction logs for every
 * TApplicationException a handler throws. Sibyl's handler throws those on purpose, as the answer
 * to a call it cannot serve (a write the commit log refused, a token that does not parse), and
 * the client gets the message; a screenful of log per refused call would, on a full disk, be
 * thousands a second onto the same disk. The causes are logged where they arise (the commit log
 * reports its failures, at most one line per ten seconds). Anything else a handler throws is
 * still logged by ProcessFunction. conf/logback.xml installs it.
 */
public final class ThriftAnswerFilter extends TurboFilter {
    static final String PROCESS_FUNCTION = "org.apache.thrift.ProcessFunction";

    @Override
    public FilterReply decide(Marker marker, Logger logger, Level level, String format, Object[] params, Throwable t) {
        return t instanceof TApplicationException && logger.getName().equals(PROCESS_FUNCTION)
                ? FilterReply.DENY : FilterReply.NEUTRAL;
    }
}
