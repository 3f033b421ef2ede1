package sibyl.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.DriverTimeoutException;
import com.datastax.oss.driver.api.core.NoNodeAvailableException;
import com.datastax.oss.driver.api.core.connection.ConnectionInitException;
import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.api.core.servererrors.OverloadedException;
import com.datastax.oss.driver.api.core.servererrors.ReadFailureException;
import com.datastax.oss.driver.api.core.servererrors.UnavailableException;
import com.datastax.oss.driver.api.core.servererrors.WriteTimeoutException;
import com.datastax.oss.driver.api.core.servererrors.WriteType;
import java.lang.reflect.Proxy;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import sibyl.service.StorageTimeoutException;
import sibyl.service.UnavailableReplicasException;
import sibyl.testing.LogCapture;

/**
 * The driver's failures as the storage layer's, and what the first of a burst logs. The driver reports a request
 * that every node it tried refused as AllNodesFailedException, whether the nodes could not be reached or each
 * answered (too few replicas alive, say): the log must tell those apart.
 */
class ClusterErrorsTest {
    private static final Node NODE = node("127.0.0.1");

    /** A node that only has a name and an identity, which is all the driver's errors use of it. */
    private static Node node(String name) {
        return (Node) Proxy.newProxyInstance(Node.class.getClassLoader(), new Class<?>[] {Node.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "toString" -> name;
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == args[0];
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    /** As the driver reports a request every node refused: one node per error, in the order tried. */
    private static AllNodesFailedException allFailed(Throwable... errors) {
        List<Map.Entry<Node, Throwable>> entries = new ArrayList<>();
        for (int i = 0; i < errors.length; i++) {
            entries.add(new AbstractMap.SimpleEntry<>(node("127.0.0." + (i + 1)), errors[i]));
        }
        return AllNodesFailedException.fromErrors(entries);
    }

    private static UnavailableException unavailable() {
        return new UnavailableException(NODE, DefaultConsistencyLevel.QUORUM, 2, 1);
    }

    private static String warning(RuntimeException driverError, Class<? extends RuntimeException> expected) {
        try (LogCapture log = new LogCapture(ClusterStorageService.class)) {
            RuntimeException translated = new ClusterErrors(new FailureLog()).translate(driverError);
            assertInstanceOf(expected, translated);
            List<String> warnings = log.messages(Level.WARN);
            assertEquals(1, warnings.size(), warnings.toString());
            return warnings.get(0);
        }
    }

    @Test
    void everyNodeAnsweringUnavailableIsTooFewReplicasNotNoNodeAnswering() {
        String warning = warning(allFailed(unavailable(), unavailable()), UnavailableReplicasException.class);
        assertTrue(warning.contains("too few replicas alive"), warning);
    }

    @Test
    void everyNodeOverloadedIsATimeout() {
        String warning = warning(allFailed(new OverloadedException(NODE), new OverloadedException(NODE)),
                StorageTimeoutException.class);
        assertTrue(warning.contains("did not answer in time"), warning);
    }

    @Test
    void aNodeThatCouldNotBeReachedMakesItNoNodeAnswering() {
        String warning = warning(allFailed(unavailable(), new ConnectionInitException("refused", null)),
                UnavailableReplicasException.class);
        assertTrue(warning.contains("no node of the cluster answered"), warning);
    }

    @Test
    void noNodeToTryIsNoNodeAnswering() {
        String warning = warning(new NoNodeAvailableException(), UnavailableReplicasException.class);
        assertTrue(warning.contains("no node of the cluster answered"), warning);
    }

    @Test
    void aReplicaAnsweringThatItFailedIsATimeout() {
        ReadFailureException failed = new ReadFailureException(NODE, DefaultConsistencyLevel.QUORUM, 1, 2, 1, false,
                Map.of());
        String warning = warning(failed, StorageTimeoutException.class);
        assertTrue(warning.contains("replicas failed a request"), warning);
        // and so is every node answering so
        warning = warning(allFailed(failed, failed), StorageTimeoutException.class);
        assertTrue(warning.contains("replicas failed a request"), warning);
    }

    @Test
    void replicasOrTheDriverRunningOutOfTimeIsATimeout() {
        for (RuntimeException late : Set.of(new DriverTimeoutException("no answer in 2 s"),
                new WriteTimeoutException(NODE, DefaultConsistencyLevel.ONE, 0, 1, WriteType.SIMPLE))) {
            String warning = warning(late, StorageTimeoutException.class);
            assertTrue(warning.contains("did not answer in time"), warning);
        }
    }
}
