package sibyl.db;

import java.util.List;

/** One row of a range read: the key and what the selection found there (perhaps nothing). */
public record RowSlice(String key, List<Cell> cells) {
    public RowSlice {
        cells = List.copyOf(cells);
    }
}
