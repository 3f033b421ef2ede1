package sibyl.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class HostRotationTest {
    private static final HostAddress A = new HostAddress("10.0.0.1", 9160);
    private static final HostAddress B = new HostAddress("10.0.0.2", 9160);
    private static final HostAddress C = new HostAddress("10.0.0.3", 9160);

    private final List<HostAddress> tried = new ArrayList<>();

    /** An opener that fails, with {@code kind}, for the hosts in {@code down}. */
    private HostRotation.Opener opener(Set<HostAddress> down, ClientException.Kind kind) {
        return host -> {
            tried.add(host);
            if (down.contains(host)) throw new ClientException(kind, "connect", host + " is down", null);
        };
    }

    @Test
    void eachConnectStartsAfterTheHostLastConnectedTo() {
        HostRotation rotation = new HostRotation(List.of(A, B, C));
        rotation.connect(opener(Set.of(), ClientException.Kind.CONNECTION));
        rotation.connect(opener(Set.of(B), ClientException.Kind.CONNECTION));
        rotation.connect(opener(Set.of(), ClientException.Kind.CONNECTION));
        assertEquals(List.of(A, B, C, A), tried);
    }

    @Test
    void unreachableOrSilentHostsArePassedOverAndNamedWhenNoneAccepts() {
        HostRotation rotation = new HostRotation(List.of(A, B));
        rotation.connect(opener(Set.of(A), ClientException.Kind.READ_TIMEOUT));
        assertEquals(List.of(A, B), tried);

        ClientException e = assertThrows(ClientException.class,
                () -> rotation.connect(opener(Set.of(A, B), ClientException.Kind.CONNECTION)));
        assertSame(ClientException.Kind.CONNECTION, e.kind());
        assertTrue(e.why().contains(A + " is down") && e.why().contains(B + " is down"), e.why());
    }

    @Test
    void aRefusalOtherThanUnreachableEndsTheAttempt() {
        HostRotation rotation = new HostRotation(List.of(A, B));
        ClientException e = assertThrows(ClientException.class,
                () -> rotation.connect(opener(Set.of(A), ClientException.Kind.AUTHENTICATION)));
        assertSame(ClientException.Kind.AUTHENTICATION, e.kind());
        assertEquals(List.of(A), tried, "another host would refuse the login too");
    }
}
