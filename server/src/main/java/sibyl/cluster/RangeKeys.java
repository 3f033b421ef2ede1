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
    private static final int NONE = 0;
    private static final int KEY = 1;
    private static final int TOKEN = 2;

    private RangeKeys() {
    }

    static List<byte[]> find(ClusterStorageService service, Table table, RowRange range, int count,
                             Consistency consistency) {
        List<byte[]> keys = new ArrayList<>(Math.min(count, 1024));
        if (range instanceof RowRange.Keys k) {
            // [token(start), token(end)]; an empty start is the start of the ring, an empty end no bound
            ByteBuffer start = k.startKey().isEmpty() ? null : ByteBuffer.wrap(ClusterStorageService.key(k.startKey()));
            ByteBuffer end = k.endKey().isEmpty() ? null : ByteBuffer.wrap(ClusterStorageService.key(k.endKey()));
            scan(service, table, start == null ? NONE : KEY, start, end == null ? NONE : KEY, end, count, consistency,
                    keys);
            return keys;
        }
        RowRange.Tokens t = (RowRange.Tokens) range;
        ClusterTokens tokens = service.tokens();
        ByteBuffer after = tokens.bind(t.start());
        ByteBuffer upTo = tokens.bind(t.end());
        if (t.start().compareTo(t.end()) < 0) {
            scan(service, table, TOKEN, after, TOKEN, upTo, count, consistency, keys);
        } else {
            // (start, end] wraps past the end of the ring (start == end: the whole ring from just after start)
            scan(service, table, TOKEN, after, NONE, null, count, consistency, keys);
            if (keys.size() < count) scan(service, table, NONE, null, TOKEN, upTo, count - keys.size(), consistency, keys);
        }
        return keys;
    }

    private static void scan(ClusterStorageService service, Table table, int lowerKind, ByteBuffer lower,
                             int upperKind, ByteBuffer upper, int count, Consistency consistency, List<byte[]> into) {
        BoundStatementBuilder b = table.statements().rangeKeys(lowerKind, upperKind).prepared(service.statements())
                .boundStatementBuilder();
        int i = 0;
        if (lower != null) b.setBytesUnsafe(i++, lower);
        if (upper != null) b.setBytesUnsafe(i++, upper);
        b.setInt(i, count);
        b.setConsistencyLevel(ConsistencyLevels.read(consistency));
        for (Row row : service.execute(b.build())) into.add(Values.array(row.getBytesUnsafe(0)));
    }
}
