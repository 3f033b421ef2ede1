package sibyl.thrift20;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import sibyl.db.Cell;
import sibyl.db.ColumnSelection;
import sibyl.db.QueryPath;
import sibyl.db.marshal.AbstractType;
import sibyl.iface.v20.ColumnSlice;
import sibyl.iface.v20.MultiSliceRequest;
import sibyl.service.Consistency;
import sibyl.service.StorageService;
import sibyl.thrift.ThriftConversion;

/**
 * One get_multi_slice (docs/thrift-api-0.7.md §Multi-range slices): the columns of one row that fall in any of the
 * request's slices, each once, in the comparator's order (or its reverse), {@code count} of them in all. Each slice
 * is read with the whole count, so the first {@code count} of their union are among what the reads return. A
 * reversed slice leaves out its two bounds, as 3.11's does.
 */
final class MultiSlice {
    private MultiSlice() {
    }

    private static List<Cell> withoutBounds(List<Cell> cells, AbstractType comparator, byte[] start, byte[] finish) {
        List<Cell> inside = new ArrayList<>(cells.size());
        for (Cell c : cells) {
            if (comparator.compare(c.name(), start) != 0 && comparator.compare(c.name(), finish) != 0) inside.add(c);
        }
        return inside;
    }

    /** {@code request} has been checked ({@link RequestChecks#multiSlice}). */
    static CompletableFuture<List<Cell>> read(StorageService storage, String keyspace, String key,
                                              AbstractType comparator, MultiSliceRequest request, Consistency level) {
        QueryPath parent = new QueryPath(request.column_parent.getColumn_family(), null, null);
        List<CompletableFuture<List<Cell>>> reads = new ArrayList<>();
        if (request.count > 0) {
            for (ColumnSlice slice : request.column_slices) {
                byte[] start = slice.isSetStart() ? ThriftConversion.bytes(slice.start) : new byte[0];
                byte[] finish = slice.isSetFinish() ? ThriftConversion.bytes(slice.finish) : new byte[0];
                if (!request.reversed) {
                    reads.add(storage.readSlice(keyspace, key, parent,
                            new ColumnSelection.Range(start, finish, false, request.count), level));
                    continue;
                }
                // Two more, for the bounds left out.
                int count = (int) Math.min(Integer.MAX_VALUE, request.count + 2L);
                reads.add(storage.readSlice(keyspace, key, parent, new ColumnSelection.Range(start, finish, true,
                        count), level).thenApply(cells -> withoutBounds(cells, comparator, start, finish)));
            }
        }
        Comparator<byte[]> order = request.reversed ? comparator.reversed() : comparator;
        return CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new)).thenApply(done -> {
            List<Cell> all = new ArrayList<>();
            for (CompletableFuture<List<Cell>> read : reads) all.addAll(read.join());
            all.sort((a, b) -> order.compare(a.name(), b.name()));
            List<Cell> union = new ArrayList<>(Math.min(all.size(), request.count));
            for (Cell c : all) {
                if (union.size() == request.count) break;
                if (union.isEmpty() || order.compare(union.get(union.size() - 1).name(), c.name()) != 0) union.add(c);
            }
            return union;
        });
    }
}
