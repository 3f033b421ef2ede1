package sibyl.io;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import sibyl.db.CFMetaData;
import sibyl.db.ColumnFamily;
import sibyl.db.marshal.BytesType;
import sibyl.db.marshal.UTF8Type;

class TombstonePurgerTest {
    /** Deletion times of the fixtures' tombstones are 1,000,000 to 1,000,999: some before this, some after. */
    private static final int GC_BEFORE = 1_000_500;

    @Test
    void aRowKeptWholeIsTheRowRebuiltFromWhatIsKept() {
        long seed = System.nanoTime();
        System.out.println("TombstonePurgerTest seed " + seed);
        Random random = new Random(seed);
        for (CFMetaData cf : List.of(SSTableFixtures.standard(UTF8Type.instance),
                SSTableFixtures.ofSuper(BytesType.instance, UTF8Type.instance))) {
            for (boolean major : List.of(false, true)) {
                TombstonePurger purger = new TombstonePurger(GC_BEFORE, GC_BEFORE, major);
                for (int i = 0; i < 2000; i++) {
                    ColumnFamily row = SSTableFixtures.randomRow(cf, random, i % 2 == 0 ? 3 : 12);
                    ColumnFamily rebuilt = purger.rebuild(row);
                    assertEquals(SSTableFixtures.render(rebuilt),
                            SSTableFixtures.render(purger.purge(row)),
                            "seed " + seed + " " + cf.name() + (major ? " major " : " minor ") + SSTableFixtures.render(row));
                }
            }
        }
    }
}
