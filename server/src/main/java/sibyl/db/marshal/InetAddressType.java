package sibyl.db.marshal;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.util.HexFormat;

/** IPv4 (4 bytes) or IPv6 (16 bytes) addresses, or empty, in unsigned byte order. */
public final class InetAddressType extends UniformlyCheckedType {
    public static final InetAddressType instance = new InetAddressType();

    private InetAddressType() {
    }

    @Override
    public void conform(ByteBuffer value) {
        int length = value.remaining();
        if (length != 0 && length != 4 && length != 16) {
            byte[] bytes = new byte[length];
            value.get(value.position(), bytes);
            throw new MarshalException("Expected 4 or 16 byte inetaddress; got " + HexFormat.of().formatHex(bytes));
        }
    }

    @Override
    public int compare(byte[] a, byte[] b) {
        return java.util.Arrays.compareUnsigned(a, b);
    }

    @Override
    public String getString(byte[] name) {
        validate(name);
        if (name.length == 0) return "";
        try {
            return InetAddress.getByAddress(name).getHostAddress();
        } catch (UnknownHostException e) {
            throw new MarshalException(e.getMessage());
        }
    }
}
