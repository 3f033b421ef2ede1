package sibyl.client;

import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.Function;

/**
 * The iterator of a scan fetched page by page between inclusive bounds ({@link RangeScan}: rows by key,
 * {@link SliceScan}: columns by name).
 *
 * <p>Each page after the first starts at the position (key or name) of the last entry of the page before. The
 * start bound is inclusive, so that entry comes back as the first of the new page and is skipped. A page shorter
 * than asked for is the last one, as is a page that ends at the scan's end bound. Paging needs at least two
 * entries per page, or a page could hold nothing but the repeated entry.
 *
 * @param <T> an entry: a row or a column
 * @param <P> a position: what a page starts at, and what tells one entry from another
 */
final class PageIterator<T, P> implements Iterator<T> {
    private final int pageSize;
    private final P end;
    private final Function<P, List<T>> fetch;
    private final Function<T, P> positionOf;

    private List<T> page = List.of();
    private int position;
    private P nextStart;
    private P lastReturned;
    private boolean lastPage;

    /**
     * @param start      the position of the first page
     * @param end        the inclusive end bound; null for none
     * @param pageSize   entries per page, at least 2; checked by the scans, which say what they page through
     * @param fetch      the page of {@code pageSize} entries from a position on (inclusive)
     * @param positionOf an entry's position
     */
    PageIterator(P start, P end, int pageSize, Function<P, List<T>> fetch, Function<T, P> positionOf) {
        this.nextStart = start;
        this.end = end;
        this.pageSize = pageSize;
        this.fetch = fetch;
        this.positionOf = positionOf;
    }

    @Override
    public boolean hasNext() {
        while (position >= page.size()) {
            if (lastPage) {
                return false;
            }
            fetchNextPage();
        }
        return true;
    }

    @Override
    public T next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        T entry = page.get(position++);
        lastReturned = positionOf.apply(entry);
        return entry;
    }

    private void fetchNextPage() {
        page = fetch.apply(nextStart);
        lastPage = page.size() < pageSize;
        position = 0;
        if (lastReturned != null && !page.isEmpty() && positionOf.apply(page.get(0)).equals(lastReturned)) {
            position = 1; // the start, already returned at the end of the previous page
        }
        if (!page.isEmpty()) {
            nextStart = positionOf.apply(page.get(page.size() - 1));
            if (end != null && nextStart.equals(end)) {
                lastPage = true;
            }
        }
    }
}
