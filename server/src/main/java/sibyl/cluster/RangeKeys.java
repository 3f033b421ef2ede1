package sibyl.cluster;

import com.datastax.oss.driver.api.core.cql.BoundStatementBuilder;
import com.datastax.oss.driver.api.core.cql.Row;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import sibyl.db.RowRange;
import sibyl.service.Consistency;

/**
 * The keys of a range read, in the cluster's ring order: {@code SELECT DISTINCT key} over a token
 * range, which lists the partitions holding live data.
 */
final class RangeKeys {
    private RangeKeys() {
    }

    static List<byte[]> find(ClusterStorageService service, Table table, RowRange range, int count,
                             Consistency consistency) {
        List<byte[]> keys = new ArrayList<>();
        if (range instanceof RowRange.Keys k) {
            // [token(start), token(end)]; an empty start is the start of the ring, an empty end no bound
            Bound lower = k.startKey().isEmpty() ? null
                    : new Bound("token(key) >= token(?)", ByteBuffer.wrap(ClusterStorageService.key(k.startKey())));
            Bound upper = k.endKey().isEmpty() ? null
                    : new Bound("token(key) <= token(?)", ByteBuffer.wrap(ClusterStorageService.key(k.endKey())));
            scan(service, table, lower, upper, count, consistency, keys);
            return keys;
        }
        RowRange.Tokens t = (RowRange.Tokens) range;
        ClusterTokens tokens = service.tokens();
        Bound after = new Bound("token(key) > ?", tokens.bind(t.start()));
        Bound upTo = new Bound("token(key) <= ?", tokens.bind(t.end()));
        if (t.start().compareTo(t.end()) < 0) {
            scan(service, table, after, upTo, count, consistency, keys);
        } else {
            // (start, end] wraps past the end of the ring (start == end: the whole ring from just after start)
            scan(service, table, after, null, count, consistency, keys);
            if (keys.size() < count) scan(service, table, null, upTo, count - keys.size(), consistency, keys);
        }
        return keys;
    }

    private record Bound(String condition, ByteBuffer value) {
    }

    private static void scan(ClusterStorageService service, Table table, Bound lower, Bound upper, int count,
                             Consistency consistency, List<byte[]> into) {
        StringBuilder cql = new StringBuilder("SELECT DISTINCT key FROM ").append(table.qualifiedName());
        List<ByteBuffer> values = new ArrayList<>();
        String joint = " WHERE ";
        for (Bound b : new Bound[] {lower, upper}) {
            if (b == null) continue;
            cql.append(joint).append(b.condition());
            values.add(b.value());
            joint = " AND ";
        }
        cql.append(" LIMIT ?");
        BoundStatementBuilder b = service.statements().get(cql.toString()).boundStatementBuilder();
        for (int i = 0; i < values.size(); i++) b.setBytesUnsafe(i, values.get(i));
        b.setInt(values.size(), count);
        b.setConsistencyLevel(ConsistencyLevels.read(consistency));
        for (Row row : service.execute(b.build())) into.add(Values.array(row.getBytesUnsafe(0)));
    }
}
