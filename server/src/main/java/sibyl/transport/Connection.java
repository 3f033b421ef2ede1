package sibyl.transport;

import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The {@link ConnectionContext} of one client connection. Thread-safe. */
final class Connection implements ConnectionContext {
    private static final Logger LOG = LoggerFactory.getLogger(Connection.class);

    private final SocketAddress remoteAddress;
    /** Null once the close actions have run. */
    private List<Runnable> closeActions = new ArrayList<>();
    private final Runnable afterCloseActions;

    /** @param afterCloseActions run once the close actions have run */
    Connection(SocketAddress remoteAddress, Runnable afterCloseActions) {
        this.remoteAddress = remoteAddress;
        this.afterCloseActions = afterCloseActions;
    }

    @Override
    public SocketAddress remoteAddress() {
        return remoteAddress;
    }

    @Override
    public void onClose(Runnable action) {
        Objects.requireNonNull(action, "action");
        synchronized (this) {
            if (closeActions != null) {
                closeActions.add(action);
                return;
            }
        }
        runSafely(action);
    }

    /** Runs the close actions, once; later calls do nothing. */
    void closed() {
        List<Runnable> actions;
        synchronized (this) {
            actions = closeActions;
            closeActions = null;
        }
        if (actions != null) {
            actions.forEach(this::runSafely);
            afterCloseActions.run();
        }
    }

    private void runSafely(Runnable action) {
        try {
            action.run();
        } catch (RuntimeException e) {
            LOG.warn("A close action of the Thrift connection from {} failed", remoteAddress, e);
        }
    }

    @Override
    public String toString() {
        return "Thrift connection from " + remoteAddress;
    }
}
