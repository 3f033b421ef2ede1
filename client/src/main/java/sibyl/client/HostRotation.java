package sibyl.client;

import java.util.ArrayList;
import java.util.List;

/**
 * Which host a client connects to: the hosts in the order given, starting after the one last connected to, so that
 * a client whose connection broke tries another host first (as 0.6's clients fail over within their server lists).
 * One per connection; not thread-safe.
 */
public final class HostRotation {

    /** Opens a connection to one host. */
    @FunctionalInterface
    public interface Opener {
        /**
         * @throws ClientException CONNECTION or READ_TIMEOUT if the host cannot be reached (the next is tried);
         *                         any other kind (a refused login, say) ends the attempt, as every host would refuse
         */
        void open(HostAddress host);
    }

    private final List<HostAddress> hosts;
    /** Index into {@link #hosts} of the host to try first. */
    private int next;

    /** @param hosts in the order to try them */
    public HostRotation(List<HostAddress> hosts) {
        this.hosts = List.copyOf(hosts);
    }

    /**
     * Opens a connection with {@code opener} to the first host that accepts, trying each host once.
     *
     * @throws ClientException CONNECTION naming every host's failure if none accepts, or the failure of a host
     *                         that refused for another reason than being unreachable
     */
    public void connect(Opener opener) {
        List<String> failures = new ArrayList<>();
        ClientException last = null;
        for (int i = 0; i < hosts.size(); i++) {
            int index = (next + i) % hosts.size();
            try {
                opener.open(hosts.get(index));
            } catch (ClientException e) {
                if (e.kind() != ClientException.Kind.CONNECTION && e.kind() != ClientException.Kind.READ_TIMEOUT) {
                    throw e;
                }
                failures.add(e.why());
                last = e;
                continue;
            }
            next = (index + 1) % hosts.size(); // after a later failure, start with the host after this one
            return;
        }
        throw new ClientException(ClientException.Kind.CONNECTION, "connect",
                "no host could be reached: " + String.join("; ", failures), last);
    }
}
