package sibyl.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import java.util.ArrayList;
import java.util.List;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.thrift.TApplicationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import sibyl.it.NodeExtension;
import sibyl.it.TestNode;
import sibyl.testing.LogCapture;
import sibyl.testing.ShippedTurboFilters;

/**
 * describe_splits with keys_per_split below 1 or a token that does not parse is answered with a
 * TApplicationException on purpose (README, "Where Sibyl differs"). libthrift logs every such
 * answer as an internal error with a stack trace; under the shipped logging the server's log
 * must stay quiet instead, since the client's mistake is no fault of the server and the client
 * has been told.
 */
class RefusedCallsLogQuietlyTest {
    @RegisterExtension
    static final NodeExtension NODE = NodeExtension.embedded();

    @Test
    void describeSplitsWithBadArgumentsLeavesNoErrorInTheServerLog() throws Exception {
        try (LogCapture log = new LogCapture(org.slf4j.Logger.ROOT_LOGGER_NAME)) {
            Cassandra.Client client = NODE.node().client();
            assertThrows(TApplicationException.class, () -> client.describe_splits("0", "0", 0));
            assertFalse(log.messagesWithStackTraces(Level.ERROR).isEmpty(),
                    "without the shipped filter libthrift logs the answer with a stack trace (the capture sees it)");

            try (ShippedTurboFilters shipped = ShippedTurboFilters.install(TestNode.shippedConfDir().resolve("logback.xml"));
                 LogCapture quiet = new LogCapture(org.slf4j.Logger.ROOT_LOGGER_NAME)) {
                assertTrue(shipped.count() > 0, "conf/logback.xml declares its filter");
                List<String> answers = new ArrayList<>();
                for (Object[] call : List.of(new Object[] {"0", "0", 0}, new Object[] {"0", "0", -1},
                        new Object[] {"not a number", "0", 128}, new Object[] {"0", "", 128})) {
                    answers.add(assertThrows(TApplicationException.class, () -> client.describe_splits(
                            (String) call[0], (String) call[1], (Integer) call[2])).getMessage());
                }
                assertTrue(answers.get(0).equals("keys_per_split must be positive, not 0")
                        && answers.get(1).equals("keys_per_split must be positive, not -1")
                        && answers.get(2).startsWith("bad token: ") && answers.get(3).startsWith("bad token: "),
                        "the client is told what was wrong: " + answers);
                assertEquals(List.of("0", "0"), client.describe_splits("0", "0", 128), "the connection serves on");
                assertEquals(List.of(), quiet.messages(Level.ERROR), "no ERROR line for the refused calls");
                assertEquals(List.of(), quiet.messages(Level.WARN), "no WARN line for the refused calls");
            }
        }
    }
}
