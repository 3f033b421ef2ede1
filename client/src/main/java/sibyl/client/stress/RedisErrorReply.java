package sibyl.client.stress;

import org.apache.thrift.TApplicationException;

/**
 * A Redis server's error reply ({@code -ERR ...}, {@code -WRONGTYPE ...}): it refused the command and the
 * connection goes on. A TApplicationException, Thrift's own kind of such an answer, so that the client library
 * counts it as a server error that leaves the connection open, as it does a Thrift server's.
 */
final class RedisErrorReply extends TApplicationException {
    RedisErrorReply(String text) {
        super(INTERNAL_ERROR, text);
    }
}
