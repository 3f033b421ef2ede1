package sibyl.faults;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What became of every write a test sent, recorded the moment its answer arrived (as KillNineIT
 * records acknowledgements): acknowledged, refused by the server (with its message), or
 * unknown (the call broke off without an answer). Thread-safe.
 */
final class WriteLedger {
    /** An acknowledged write: its key, and when (nanoTime) the acknowledgement arrived. */
    record Ack(String key, long at) {
    }

    private final Set<Ack> acked = ConcurrentHashMap.newKeySet();
    private final Map<String, String> refused = new ConcurrentHashMap<>();
    private final Map<String, String> unknown = new ConcurrentHashMap<>();

    void acked(String key) {
        acked.add(new Ack(key, System.nanoTime()));
    }

    void refused(String key, String why) {
        refused.put(key, why);
    }

    void unknown(String key, String what) {
        unknown.put(key, what);
    }

    List<String> ackedKeys() {
        List<String> keys = new ArrayList<>();
        for (Ack a : acked) keys.add(a.key());
        return keys;
    }

    int ackedCount() {
        return acked.size();
    }

    int refusedCount() {
        return refused.size();
    }

    /** Refused key to the server's message. */
    Map<String, String> refused() {
        return Map.copyOf(refused);
    }

    /** Keys whose call got no answer, to what broke it. */
    Map<String, String> unknown() {
        return Map.copyOf(unknown);
    }
}
