package sibyl.hardening;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.StackTraceElementProxy;
import ch.qos.logback.core.read.ListAppender;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.cassandra.thrift.AuthenticationException;
import org.apache.cassandra.thrift.AuthenticationRequest;
import org.apache.cassandra.thrift.AuthorizationException;
import org.apache.cassandra.thrift.Cassandra;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;
import sibyl.it.ConfEdits;
import sibyl.it.TestNode;

/**
 * Passwords, right or wrong, never reach the log, whatever its level, and the "config file" property shows
 * storage-conf.xml but nothing of passwd.properties.
 */
class SecretsStayOutOfLogsTest {
    /** The shipped passwd.properties' passwords, and wrong ones a client might try. */
    private static final List<String> SECRETS = List.of("havebadpass", "graceland4evar", "nomoovertime",
            "wrong-Pa55word-tried", "another-guess-9");

    @TempDir
    Path dir;

    @Test
    void passwordsNeverReachTheLog() throws Exception {
        try (TestNode node = TestNode.start(dir, ConfEdits.simpleAuthenticator());
             EverythingLogged log = new EverythingLogged()) {
            Cassandra.Client client = node.client(false);
            assertThrows(AuthenticationException.class, () -> login(client, "Keyspace1", "jsmith", "wrong-Pa55word-tried"));
            assertThrows(AuthenticationException.class, () -> login(client, "Keyspace1", "nobody", "another-guess-9"));
            assertThrows(AuthorizationException.class, () -> login(client, "Twitter", "dilbert", "nomoovertime"));
            login(client, "Keyspace1", "jsmith", "havebadpass");
            login(node.client(true), "Keyspace1", "Elvis Presley", "graceland4evar");
            assertThrows(AuthenticationException.class, () -> node.client(false).login("Keyspace1",
                    new AuthenticationRequest(Map.of("user", "jsmith", "password", "another-guess-9"))));
            node.close();

            List<String> events = log.everything();
            assertFalse(events.isEmpty(), "the capture saw the node's log");
            for (String event : events) {
                for (String secret : SECRETS) {
                    assertFalse(event.contains(secret), "a password in the log: " + event);
                }
            }
        }
    }

    @Test
    void theConfigFilePropertyShowsNoPasswords() throws Exception {
        try (TestNode node = TestNode.start(dir, ConfEdits.simpleAuthenticator())) {
            String config = node.client(false).get_string_property("config file");
            assertTrue(config.contains("<Keyspace Name=\"Keyspace1\">"), "it is storage-conf.xml");
            String passwd = Files.readString(node.confDir().resolve("passwd.properties"));
            for (String secret : SECRETS.subList(0, 3)) {
                assertTrue(passwd.contains(secret), "the fixture holds " + secret);
                assertFalse(config.contains(secret), "the config file property reveals " + secret);
            }
            assertFalse(config.contains("jsmith="), "the config file property shows passwd.properties lines");
        }
    }

    private static void login(Cassandra.Client client, String keyspace, String user, String password) throws Exception {
        AccessControlTest.login(client, keyspace, user, password);
    }

    /** Everything logged anywhere, at every level, while open: messages, arguments and exceptions. */
    private static final class EverythingLogged implements AutoCloseable {
        private final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        private final Level previous = root.getLevel();
        private final ListAppender<ILoggingEvent> appender = new ListAppender<>();
        private final Map<String, Level> quieted = new HashMap<>();

        EverythingLogged() {
            appender.start();
            root.addAppender(appender);
            root.setLevel(Level.ALL);
            // Netty and logback have their own levels in the test configuration; open them up too.
            for (String name : List.of("io.netty", "org.apache.thrift", "sibyl")) {
                Logger logger = (Logger) LoggerFactory.getLogger(name);
                quieted.put(name, logger.getLevel());
                logger.setLevel(Level.ALL);
            }
        }

        List<String> everything() {
            List<String> texts = new ArrayList<>();
            synchronized (appender.list) {
                for (ILoggingEvent event : appender.list) {
                    StringBuilder text = new StringBuilder(event.getLoggerName()).append(": ")
                            .append(event.getFormattedMessage());
                    if (event.getArgumentArray() != null) {
                        for (Object argument : event.getArgumentArray()) text.append(" | ").append(argument);
                    }
                    for (IThrowableProxy t = event.getThrowableProxy(); t != null; t = t.getCause()) {
                        text.append(" | ").append(t.getClassName()).append(": ").append(t.getMessage());
                        for (StackTraceElementProxy frame : t.getStackTraceElementProxyArray()) {
                            text.append(' ').append(frame.getSTEAsString());
                        }
                    }
                    texts.add(text.toString());
                }
            }
            return texts;
        }

        @Override
        public void close() {
            quieted.forEach((name, level) -> ((Logger) LoggerFactory.getLogger(name)).setLevel(level));
            root.setLevel(previous);
            root.detachAppender(appender);
            appender.stop();
        }
    }
}
