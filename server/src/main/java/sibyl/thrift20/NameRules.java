package sibyl.thrift20;

import java.nio.ByteBuffer;
import sibyl.db.marshal.AbstractType;
import sibyl.db.marshal.MarshalException;
import sibyl.iface.v20.InvalidRequestException;

/**
 * A column name (or a slice bound) checked against its comparator as Cassandra 3.11 checks it, refused with 3.11's
 * words ({@link AbstractType#conform}; docs/thrift-api-0.7.md §What Sibyl serves today).
 */
final class NameRules {
    private NameRules() {
    }

    static void conforms(AbstractType comparator, ByteBuffer name) throws InvalidRequestException {
        try {
            comparator.conform(name);
        } catch (MarshalException e) {
            throw new InvalidRequestException(e.getMessage());
        }
    }
}
