package sibyl.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import sibyl.db.CFMetaData;
import sibyl.db.KSMetaData;
import sibyl.db.RowMutation;
import sibyl.db.marshal.BytesType;
import sibyl.dht.DecoratedKey;
import sibyl.dht.OrderPreservingPartitioner;
import sibyl.dht.Range;
import sibyl.dht.Token;

class DescribeSplitsTest {
    private final OrderPreservingPartitioner p = new OrderPreservingPartitioner();

    private LocalStorageService service(int indexInterval, int keys) {
        KSMetaData ks = new KSMetaData("ks", 1, List.of(CFMetaData.standard("ks", "a", BytesType.instance),
                CFMetaData.standard("ks", "b", BytesType.instance)));
        LocalStorageService db = new LocalStorageService(p, List.of(ks), indexInterval);
        byte[] c = "c".getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < keys; i++) {
            db.apply(RowMutation.builder("ks", String.format("k%03d", i)).write("a", c, c, 1).build());
        }
        return db;
    }

    private static List<String> strings(List<Token> tokens) {
        List<String> r = new ArrayList<>();
        for (Token t : tokens) r.add(t.toString());
        return r;
    }

    @Test
    void samplesEveryIntervalthKeyInRingOrderFromTheRangeStart() {
        LocalStorageService db = service(10, 100);
        List<String> samples = new ArrayList<>();
        for (DecoratedKey k : db.keySamples(new Range(p.getToken("k045"), p.getToken("k025")))) samples.add(k.key());
        assertEquals(List.of("k050", "k060", "k070", "k080", "k090", "k000", "k010", "k020"), samples);
    }

    @Test
    void splitsAreEvenlySpacedSampleTokensBetweenStartAndEnd() {
        LocalStorageService db = service(10, 100);
        Token start = p.getMinimumToken();
        Token end = p.getMinimumToken();
        // 10 samples standing for 100 keys, 25 keys a split: 4 splits, cut at every 2nd sample.
        assertEquals(List.of("", "k020", "k040", "k060", ""), strings(db.describeSplits(start, end, 25)));
        // More keys a split than there are keys: just the bounds.
        assertEquals(List.of("", ""), strings(db.describeSplits(start, end, 1000)));
        assertEquals(List.of("k001", "k050"), strings(db.describeSplits(p.getToken("k001"), p.getToken("k050"), 1000)));
        assertThrows(IllegalArgumentException.class, () -> db.describeSplits(start, end, 0));
    }

    @Test
    void anEmptyNodeHasOnlyTheBounds() {
        LocalStorageService db = service(128, 0);
        List<Token> splits = db.describeSplits(p.getToken("a"), p.getToken("z"), 1);
        assertEquals(List.of("a", "z"), strings(splits));
        assertTrue(db.keySamples(new Range(p.getMinimumToken(), p.getMinimumToken())).isEmpty());
    }
}
