package sibyl.client.cli;

import java.util.List;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.TTransportException;
import org.apache.thrift.transport.layered.TFramedTransport;
import sibyl.client.HostAddress;
import sibyl.iface.v20.AuthenticationException;
import sibyl.iface.v20.AuthorizationException;
import sibyl.iface.v20.Cassandra;
import sibyl.iface.v20.InvalidRequestException;
import sibyl.iface.v20.NotFoundException;
import sibyl.iface.v20.SchemaDisagreementException;
import sibyl.iface.v20.TimedOutException;
import sibyl.iface.v20.UnavailableException;

/**
 * One framed connection in the 0.7+ dialect (as Cassandra 0.7 to 3.11 servers speak it). Calls go through
 * {@link #call}, which turns the server's refusals into a {@link CliError} with its text.
 */
final class Connection07 implements AutoCloseable {

    /** A call on the connection's client. */
    interface Call<T> {
        T on(Cassandra.Client client) throws TException;
    }

    private final TTransport transport;
    private final Cassandra.Client client;
    private final HostAddress host;

    private Connection07(TTransport transport, HostAddress host) {
        this.transport = transport;
        this.client = new Cassandra.Client(new TBinaryProtocol(transport));
        this.host = host;
    }

    /** Connects to the first of {@code hosts} that accepts; CliError naming each refusal when none does. */
    static Connection07 open(List<HostAddress> hosts, int timeoutMillis) {
        StringBuilder failures = new StringBuilder();
        for (HostAddress h : hosts) {
            TTransport t = null;
            try {
                t = new TFramedTransport(new TSocket(h.host(), h.port(), timeoutMillis));
                t.open();
                return new Connection07(t, h);
            } catch (TTransportException e) {
                if (t != null) {
                    t.close();
                }
                failures.append(failures.length() == 0 ? "" : "; ").append(h.host()).append('/').append(h.port())
                        .append(": ").append(e.getMessage());
            }
        }
        throw new CliError("cannot connect: " + failures);
    }

    HostAddress host() {
        return host;
    }

    /** As {@link #call}, but null where the server answers NotFoundException. */
    <T> T callOrNull(Call<T> call) {
        try {
            return call.on(client);
        } catch (NotFoundException e) {
            return null;
        } catch (TException e) {
            return call(c -> {
                throw e;
            });
        }
    }

    <T> T call(Call<T> call) {
        try {
            return call.on(client);
        } catch (InvalidRequestException e) {
            throw new CliError(e.getWhy());
        } catch (NotFoundException e) {
            throw new CliError("not found");
        } catch (AuthenticationException e) {
            throw new CliError("authentication failed: " + e.getWhy());
        } catch (AuthorizationException e) {
            throw new CliError("not authorized: " + e.getWhy());
        } catch (UnavailableException e) {
            throw new CliError("unavailable: too few replicas answered");
        } catch (TimedOutException e) {
            throw new CliError("the request timed out on the server");
        } catch (SchemaDisagreementException e) {
            throw new CliError("the cluster's nodes disagree on the schema");
        } catch (TTransportException e) {
            throw new CliError("connection to " + host.host() + "/" + host.port() + " failed: " + e.getMessage());
        } catch (TException e) {
            throw new CliError("call failed: " + e);
        }
    }

    @Override
    public void close() {
        transport.close();
    }
}
