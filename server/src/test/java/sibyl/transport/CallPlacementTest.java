package sibyl.transport;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.apache.thrift.protocol.TMessageType;
import org.junit.jupiter.api.Test;

/** Which calls the network threads run themselves. */
class CallPlacementTest {
    private static final long SLOW = 1_000_000;
    private static final long PROBE = 50_000_000;
    private static final long T0 = 7_000_000_000L;

    private final ProcessorFactory application = new ProcessorFactory() {
        @Override
        public org.apache.thrift.TProcessor newProcessor(ConnectionContext connection) {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean isQuick(String method) {
            return method.equals("get");
        }
    };
    private final CallPlacement placement = new CallPlacement(application, SLOW, PROBE);

    @Test
    void onlyQuickMethodsInSmallMessagesRunOnTheNetworkThread() {
        assertTrue(placement.onNetworkThread(call("get", 100), T0));
        assertFalse(placement.onNetworkThread(call("get_range_slices", 100), T0));
        assertTrue(placement.onNetworkThread(call("get", CallPlacement.MAX_INLINE_MESSAGE_BYTES), T0));
        assertFalse(placement.onNetworkThread(call("get", CallPlacement.MAX_INLINE_MESSAGE_BYTES + 1), T0));
    }

    @Test
    void oneStallAmongQuickCallsKeepsTheMethodOnTheNetworkThread() {
        long t = T0;
        for (int i = 0; i < 100; i++) {
            placement.ranOnNetworkThread(call("get", 100), t, t + 20_000);
            t += 20_000;
        }
        placement.ranOnNetworkThread(call("get", 100), t, t + 5_000_000_000L); // a 5 s pause
        assertFalse(placement.backingOff("get"));
        assertTrue(placement.onNetworkThread(call("get", 100), t));
    }

    @Test
    void aMethodSlowOnAverageGoesToTheWorkersButForOneProbePerPeriod() {
        long t = T0;
        int samples = 0;
        while (!placement.backingOff("get")) {
            placement.ranOnNetworkThread(call("get", 100), t, t + 2 * SLOW);
            t += 2 * SLOW;
            samples++;
        }
        assertTrue(samples > 1 && samples < 32, "turned slow after " + samples + " slow calls");
        assertFalse(placement.onNetworkThread(call("get", 100), t));
        assertFalse(placement.onNetworkThread(call("get", 100), t + PROBE - 1));
        assertTrue(placement.onNetworkThread(call("get", 100), t + PROBE), "the probe");
        assertFalse(placement.onNetworkThread(call("get", 100), t + PROBE), "one probe per period");
        assertTrue(placement.onNetworkThread(call("get", 100), t + 2 * PROBE));

        // The data is cached again: the probes see quick calls and the method comes back.
        long probes = 0;
        for (long now = t + 3 * PROBE; placement.backingOff("get"); now += PROBE) {
            assertTrue(placement.onNetworkThread(call("get", 100), now));
            placement.ranOnNetworkThread(call("get", 100), now, now + 10_000);
            probes++;
        }
        assertTrue(probes < 64, probes + " probes to come back");
        assertTrue(placement.onNetworkThread(call("get", 100), t + 100 * PROBE));
    }

    private static ThriftCall call(String method, int messageBytes) {
        byte[] name = method.getBytes(StandardCharsets.UTF_8);
        byte[] message = new byte[Math.max(messageBytes, name.length)];
        System.arraycopy(name, 0, message, 0, name.length);
        return new ThriftCall(WireMode.FRAMED, message, method, TMessageType.CALL, 1, false);
    }
}
