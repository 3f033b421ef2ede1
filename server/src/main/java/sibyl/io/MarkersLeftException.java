package sibyl.io;

import java.io.IOException;

/**
 * Marking Cassandra 0.6 SSTables as replaced failed half-way and the markers written could not be taken back:
 * at the next start those SSTables are not loaded, so the SSTable that replaced them must be kept (it is
 * complete and durable), though it is not served until then.
 */
public final class MarkersLeftException extends IOException {
    MarkersLeftException(String message, Throwable cause) {
        super(message, cause);
    }
}
