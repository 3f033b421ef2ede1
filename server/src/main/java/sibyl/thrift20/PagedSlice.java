package sibyl.thrift20;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import sibyl.db.ColumnSelection;
import sibyl.db.QueryPath;
import sibyl.db.RowRange;
import sibyl.db.RowSlice;
import sibyl.service.Consistency;
import sibyl.service.StorageService;

/**
 * One get_paged_slice as 3.11 answers it (docs/thrift-api-0.7.md §Paged slices): up to {@code count} rows of a key
 * range in ring order, each with all its columns, except the range's start row, which begins at the start column.
 * The count is of rows, as 3.11 counts it, not of columns.
 */
final class PagedSlice {
    private static final ColumnSelection WHOLE_ROW = new ColumnSelection.Range(new byte[0], new byte[0], false,
            Integer.MAX_VALUE);

    private PagedSlice() {
    }

    /**
     * @param startKey    the range's start key, or null for a range of tokens, which has no start row
     * @param startColumn where the start row begins (empty: at its first column)
     */
    static CompletableFuture<List<RowSlice>> read(StorageService storage, String keyspace, QueryPath parent,
                                                  RowRange range, String startKey, byte[] startColumn, int count,
                                                  Consistency level) {
        CompletableFuture<List<RowSlice>> rows = storage.scan(keyspace, parent, WHOLE_ROW, range, count, level);
        if (startKey == null || startColumn.length == 0) return rows;
        return rows.thenCompose(found -> {
            if (found.isEmpty() || !found.get(0).key().equals(startKey)) return CompletableFuture.completedFuture(found);
            ColumnSelection from = new ColumnSelection.Range(startColumn, new byte[0], false, Integer.MAX_VALUE);
            return storage.readSlice(keyspace, startKey, parent, from, level).thenApply(cells -> {
                List<RowSlice> answer = new ArrayList<>(found);
                answer.set(0, new RowSlice(startKey, cells));
                return answer;
            });
        });
    }
}
