package sibyl.metrics.node;

import sibyl.metrics.Collector;
import sibyl.metrics.ExpositionWriter;
import sibyl.thrift.AuthRefusals;
import sibyl.transport.ThriftServer;

/** The clients: connections open, and what the node refused them, for overload and for authentication. */
final class ClientCollector implements Collector {
    private final ThriftServer thrift;
    private final AuthRefusals auth;

    ClientCollector(ThriftServer thrift, AuthRefusals auth) {
        this.thrift = thrift;
        this.auth = auth;
    }

    @Override
    public void collect(ExpositionWriter out) {
        out.gauge("sibyl_thrift_connections", "Client connections open now.").sample(thrift.openConnections());
        out.counter("sibyl_thrift_connections_refused_total",
                "Client connections closed as they arrived since start, ThriftMaxConnections being open.")
                .sample(thrift.refusedConnections());
        out.counter("sibyl_thrift_calls_refused_total", "Calls answered \"Server overloaded\" since start and not"
                        + " run: request_bytes when the server held its limit of request bytes, worker_queue when"
                        + " the queue of calls waiting for a worker was full.")
                .sample(thrift.callsRefusedForRequestBytes(), "reason", "request_bytes")
                .sample(thrift.callsRefusedForWorkers(), "reason", "worker_queue");
        out.counter("sibyl_auth_refusals_total", "Calls refused by authentication and access control since start:"
                        + " bad_credentials (login with an unknown user or a wrong password), no_access (a keyspace"
                        + " the user may not use), not_logged_in (a data call before login, when login is required).")
                .sample(auth.badCredentials(), "reason", "bad_credentials")
                .sample(auth.noAccess(), "reason", "no_access")
                .sample(auth.notLoggedIn(), "reason", "not_logged_in");
    }
}
