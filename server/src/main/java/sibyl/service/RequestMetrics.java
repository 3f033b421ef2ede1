package sibyl.service;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The requests served per column family, whichever backend served them: {@link MeteredStorageService}
 * records into it, cfstats and the metrics endpoint read it. A column family gets its figures when
 * first asked for or first served, so column families added while the node runs are counted too.
 *
 * <p>Finding a column family's figures is two lookups in concurrent maps, without a lock or an
 * allocation once they exist.
 */
public final class RequestMetrics {
    private final ConcurrentHashMap<String, ConcurrentHashMap<String, ColumnFamilyRequests>> keyspaces =
            new ConcurrentHashMap<>();

    /** The figures of one column family, created empty if it has none yet. */
    public ColumnFamilyRequests of(String keyspace, String columnFamily) {
        ConcurrentHashMap<String, ColumnFamilyRequests> cfs = keyspaces.get(keyspace);
        if (cfs == null) cfs = keyspaces.computeIfAbsent(keyspace, ks -> new ConcurrentHashMap<>());
        ColumnFamilyRequests requests = cfs.get(columnFamily);
        if (requests == null) requests = cfs.computeIfAbsent(columnFamily, cf -> new ColumnFamilyRequests(keyspace, cf));
        return requests;
    }

    /** Every column family that has figures, by keyspace and then column family name. */
    public List<ColumnFamilyRequests> all() {
        List<ColumnFamilyRequests> all = new ArrayList<>();
        for (ConcurrentHashMap<String, ColumnFamilyRequests> cfs : keyspaces.values()) all.addAll(cfs.values());
        all.sort(Comparator.comparing(ColumnFamilyRequests::keyspace).thenComparing(ColumnFamilyRequests::columnFamily));
        return all;
    }
}
