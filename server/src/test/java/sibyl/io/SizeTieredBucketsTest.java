package sibyl.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class SizeTieredBucketsTest {
    private static final long MB = 1024 * 1024;
    private final SizeTieredBuckets strategy = new SizeTieredBuckets(4, 32, 0.5, 1.5, 0);

    @Test
    void similarSizesShareABucket() {
        List<Long> sizes = List.of(100 * MB, 1000 * MB, 110 * MB, 90 * MB, 1100 * MB, 10 * MB);
        assertEquals(List.of(List.of(10 * MB), List.of(90 * MB, 100 * MB, 110 * MB), List.of(1000 * MB, 1100 * MB)),
                strategy.buckets(sizes, s -> s));
    }

    @Test
    void aBucketIsDueAtTheMinimumThreshold() {
        assertEquals(List.of(), strategy.compactions(List.of(100 * MB, 101 * MB, 102 * MB), s -> s));
        assertEquals(List.of(List.of(100 * MB, 101 * MB, 102 * MB, 103 * MB)),
                strategy.compactions(List.of(103 * MB, 100 * MB, 101 * MB, 102 * MB, 900 * MB), s -> s));
    }

    @Test
    void theMaximumThresholdTakesTheSmallest() {
        SizeTieredBuckets narrow = new SizeTieredBuckets(2, 3, 0.5, 1.5, 0);
        assertEquals(List.of(List.of(10L, 11L, 12L)), narrow.compactions(List.of(13L, 12L, 11L, 10L), s -> s));
    }

    @Test
    void smallFilesGoTogetherWhateverTheirRatio() {
        SizeTieredBuckets defaults = SizeTieredBuckets.defaults();
        List<Long> sizes = List.of(1 * MB, 5 * MB, 20 * MB, 40 * MB, 400 * MB);
        assertEquals(List.of(List.of(1 * MB, 5 * MB, 20 * MB, 40 * MB), List.of(400 * MB)), defaults.buckets(sizes, s -> s));
        assertEquals(1, defaults.compactions(sizes, s -> s).size());
    }

    @Test
    void impossibleSettingsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new SizeTieredBuckets(1, 32, 0.5, 1.5, 0));
        assertThrows(IllegalArgumentException.class, () -> new SizeTieredBuckets(4, 3, 0.5, 1.5, 0));
        assertThrows(IllegalArgumentException.class, () -> new SizeTieredBuckets(4, 32, 1.5, 0.5, 0));
    }
}
