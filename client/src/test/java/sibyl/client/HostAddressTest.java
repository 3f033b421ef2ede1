package sibyl.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class HostAddressTest {

    @Test
    void parsesTheForms() {
        assertEquals(new HostAddress("localhost", 9160), HostAddress.parse("localhost", 9160));
        assertEquals(new HostAddress("localhost", 9161), HostAddress.parse("localhost/9161", 9160));
        assertEquals(new HostAddress("10.0.0.1", 9162), HostAddress.parse("10.0.0.1:9162", 9160));
        assertEquals(new HostAddress("::1", 9160), HostAddress.parse("::1", 9160));
        assertEquals(new HostAddress("::1", 9163), HostAddress.parse("[::1]:9163", 9160));
        assertEquals(List.of(new HostAddress("a", 1), new HostAddress("b", 9160)),
                HostAddress.parseList("a:1, b", 9160));
    }

    @Test
    void refusesBadPorts() {
        assertThrows(IllegalArgumentException.class, () -> HostAddress.parse("host/x", 9160));
        assertThrows(IllegalArgumentException.class, () -> HostAddress.parse("host:70000", 9160));
        assertThrows(IllegalArgumentException.class, () -> HostAddress.parseList(" , ", 9160));
    }
}
