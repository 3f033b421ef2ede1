package sibyl.db;

import java.util.List;
import sibyl.db.marshal.BytesType;

/** The implicit {@code system} keyspace every 0.6 node has (docs/configuration.md §System keyspace). */
public final class SystemKeyspace {
    public static final String NAME = "system";
    public static final String LOCATION_INFO = "LocationInfo";
    public static final String HINTS = "HintsColumnFamily";

    private SystemKeyspace() {
    }

    public static KSMetaData metadata() {
        return new KSMetaData(NAME, 1, List.of(
                new CFMetaData(NAME, LOCATION_INFO, false, BytesType.instance, null,
                        "persistent metadata for the local node"),
                new CFMetaData(NAME, HINTS, true, BytesType.instance, BytesType.instance, "hinted handoff data")));
    }
}
