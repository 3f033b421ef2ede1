package sibyl.client.stress;

import org.apache.cassandra.thrift.Cassandra;
import org.apache.thrift.TException;

/**
 * One stress operation, split the way the generated client splits a call: the request written by {@link #send},
 * the reply read (and, with --verify, checked) by {@link #receive}. A thread per connection runs the two back to
 * back; an event loop sends, waits for the connection to become readable, then receives.
 */
interface StressCall {
    /** Names the operation in error messages, e.g. {@code batch_mutate in Keyspace1 (1 rows)}. */
    String operation();

    void send(Cassandra.Client client) throws TException;

    void receive(Cassandra.Client client) throws TException;
}
