package sibyl.thrift20;

import java.nio.ByteBuffer;
import sibyl.db.marshal.AbstractType;
import sibyl.db.marshal.AsciiType;
import sibyl.db.marshal.LexicalUUIDType;
import sibyl.db.marshal.LongType;
import sibyl.db.marshal.MarshalException;
import sibyl.db.marshal.TimeUUIDType;
import sibyl.db.marshal.UTF8Type;
import sibyl.iface.v20.InvalidRequestException;

/**
 * A column name (or a slice bound) checked against its comparator as Cassandra 3.11 checks it, refused with 3.11's
 * words (docs/thrift-api-0.7.md §What Sibyl serves today). The comparators' own checks are 0.6's and keep 0.6's
 * words for the 0.6 interface; here the built-in comparators are worded as 3.11's, and AsciiType refuses a byte above
 * 127 as 3.11 does (0.6 took any).
 */
final class NameRules {
    private NameRules() {
    }

    static void conforms(AbstractType comparator, ByteBuffer name) throws InvalidRequestException {
        int length = name.remaining();
        if (comparator == LongType.instance) {
            if (length != 8 && length != 0) refuse(String.format("Expected 8 or 0 byte long (%d)", length));
        } else if (comparator == LexicalUUIDType.instance || comparator == TimeUUIDType.instance) {
            if (length != 16 && length != 0) refuse(String.format("UUID should be 16 or 0 bytes (%d)", length));
            // The version is the high nibble of byte 6.
            if (comparator == TimeUUIDType.instance && length == 16 && (name.get(name.position() + 6) & 0xf0) != 0x10) {
                refuse("Invalid version for TimeUUID type.");
            }
        } else if (comparator == AsciiType.instance) {
            for (int i = name.position(); i < name.limit(); i++) {
                if (name.get(i) < 0) refuse("Invalid byte for ascii: " + name.get(i));
            }
        } else if (comparator == UTF8Type.instance) {
            try {
                comparator.validate(name);
            } catch (MarshalException e) {
                refuse("String didn't validate.");
            }
        } else {
            try {
                comparator.validate(name);
            } catch (MarshalException e) {
                refuse(e.getMessage());
            }
        }
    }

    private static void refuse(String why) throws InvalidRequestException {
        throw new InvalidRequestException(why);
    }
}
