package sibyl.client.soak;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.cassandra.thrift.ColumnOrSuperColumn;
import org.apache.cassandra.thrift.ConsistencyLevel;
import sibyl.client.Predicates;
import sibyl.client.SibylClient;

/**
 * The end of a soak: reads back every acknowledged row, in multigets of {@link #BATCH} keys per
 * column family, and counts the ones missing, partial or wrong: the lost writes.
 */
final class SoakVerifier {
    private static final int BATCH = 200;
    private static final int LOST_SHOWN = 10;

    private final SibylClient client;
    private final PrintStream err;

    SoakVerifier(SibylClient client, PrintStream err) {
        this.client = client;
        this.err = err;
    }

    /** How many of {@code keys} (acknowledged writes) do not read back whole. */
    long lost(List<String> keys) {
        List<String> standard = new ArrayList<>();
        List<String> supers = new ArrayList<>();
        for (String key : keys) (SoakRows.columnFamily(key).equals(SoakRows.SUPER) ? supers : standard).add(key);
        return lostIn(standard) + lostIn(supers);
    }

    private long lostIn(List<String> keys) {
        long lost = 0;
        for (int from = 0; from < keys.size(); from += BATCH) {
            List<String> batch = keys.subList(from, Math.min(keys.size(), from + BATCH));
            Map<String, List<ColumnOrSuperColumn>> rows = client.multigetSlice(SoakRows.KEYSPACE, batch,
                    SoakRows.parent(batch.get(0)), Predicates.first(100), ConsistencyLevel.ONE);
            for (String key : batch) {
                List<ColumnOrSuperColumn> row = rows.getOrDefault(key, List.of());
                if (!SoakRows.isWhole(key, row) && ++lost <= LOST_SHOWN) {
                    err.println("soak: lost acknowledged write " + key + ": read " + row);
                }
            }
        }
        return lost;
    }
}
