package sibyl.io;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.function.ToLongFunction;

/**
 * Size-tiered compaction's choice: group SSTables of similar size, and compact a group once it
 * has {@code minThreshold} members. A file joins a bucket when its size is within
 * [lowRatio, highRatio] × the bucket's average size; files below {@code smallSize} all share one
 * bucket, so a stream of tiny flushes does not spread over many. Immutable.
 *
 * @param minThreshold fewest SSTables worth compacting together (4 by default in 0.6)
 * @param maxThreshold most SSTables compacted at once (32 by default in 0.6)
 */
public record SizeTieredBuckets(int minThreshold, int maxThreshold, double lowRatio, double highRatio, long smallSize) {
    public SizeTieredBuckets {
        if (minThreshold < 2 || maxThreshold < minThreshold) {
            throw new IllegalArgumentException("thresholds must satisfy 2 <= min <= max: " + minThreshold + ", " + maxThreshold);
        }
        if (!(lowRatio > 0 && lowRatio <= 1 && highRatio >= 1)) {
            throw new IllegalArgumentException("ratios must satisfy 0 < low <= 1 <= high: " + lowRatio + ", " + highRatio);
        }
    }

    /** Thresholds 4 and 32, sizes within 0.5–1.5 × a bucket's average, files under 50 MB together. */
    public static SizeTieredBuckets defaults() {
        return new SizeTieredBuckets(4, 32, 0.5, 1.5, 50L * 1024 * 1024);
    }

    /** All buckets, each smallest file first, buckets in order of their smallest file. */
    public <T> List<List<T>> buckets(Collection<T> sstables, ToLongFunction<T> size) {
        List<T> sorted = new ArrayList<>(sstables);
        sorted.sort(Comparator.comparingLong(size));
        List<List<T>> buckets = new ArrayList<>();
        List<Long> totals = new ArrayList<>();
        for (T sstable : sorted) {
            long s = size.applyAsLong(sstable);
            int b = buckets.size() - 1; // sorted by size, so only the newest bucket can fit
            if (b >= 0) {
                double average = (double) totals.get(b) / buckets.get(b).size();
                boolean bothSmall = s < smallSize && average < smallSize;
                if (bothSmall || (s >= average * lowRatio && s <= average * highRatio)) {
                    buckets.get(b).add(sstable);
                    totals.set(b, totals.get(b) + s);
                    continue;
                }
            }
            List<T> bucket = new ArrayList<>();
            bucket.add(sstable);
            buckets.add(bucket);
            totals.add(s);
        }
        return buckets;
    }

    /**
     * The compactions worth doing now: each bucket of at least minThreshold SSTables, cut to its
     * maxThreshold smallest members.
     */
    public <T> List<List<T>> compactions(Collection<T> sstables, ToLongFunction<T> size) {
        List<List<T>> due = new ArrayList<>();
        for (List<T> bucket : buckets(sstables, size)) {
            if (bucket.size() >= minThreshold) due.add(List.copyOf(bucket.subList(0, Math.min(bucket.size(), maxThreshold))));
        }
        return due;
    }
}
