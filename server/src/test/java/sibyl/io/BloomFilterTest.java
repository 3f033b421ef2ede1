package sibyl.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import org.junit.jupiter.api.Test;

class BloomFilterTest {
    private static final int KEYS = 20_000;

    private static BloomFilter filled() {
        BloomFilter filter = BloomFilter.create(KEYS, 0.01);
        for (int i = 0; i < KEYS; i++) filter.add("key" + i);
        return filter;
    }

    @Test
    void neverMissesAnAddedKey() {
        BloomFilter filter = filled();
        for (int i = 0; i < KEYS; i++) assertTrue(filter.mightContain("key" + i), "key" + i);
    }

    @Test
    void falsePositiveRateIsAboutOnePercent() {
        BloomFilter filter = filled();
        int falsePositives = 0;
        int probes = 200_000;
        for (int i = 0; i < probes; i++) {
            if (filter.mightContain("other" + i)) falsePositives++;
        }
        double rate = (double) falsePositives / probes;
        assertTrue(rate > 0.002 && rate < 0.015, "false-positive rate " + rate);
    }

    @Test
    void isSizedByTheTextbookFormulas() {
        BloomFilter filter = BloomFilter.create(KEYS, 0.01);
        double bitsPerKey = (double) filter.bitCount() / KEYS;
        assertTrue(bitsPerKey >= 9.58 && bitsPerKey < 9.7, "bits per key " + bitsPerKey);
        assertEquals(7, filter.hashCount());
    }

    @Test
    void readsBackWhatItWrote() throws IOException {
        BloomFilter filter = filled();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        filter.writeTo(new DataOutputStream(bytes));
        assertEquals(filter.serializedSize(), bytes.size());
        BloomFilter read = BloomFilter.readFrom(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())), bytes.size());
        assertEquals(filter.bitCount(), read.bitCount());
        assertEquals(filter.hashCount(), read.hashCount());
        for (int i = 0; i < 50_000; i++) {
            assertEquals(filter.mightContain("probe" + i), read.mightContain("probe" + i));
            if (i < KEYS) assertTrue(read.mightContain("key" + i));
        }
    }

    @Test
    void refusesImpossibleSizes() {
        byte[] bytes = {0, 0, 0, 7, 0x7f, 0, 0, 0};
        assertThrows(IOException.class,
                () -> BloomFilter.readFrom(new DataInputStream(new ByteArrayInputStream(bytes)), bytes.length));
        assertThrows(IllegalArgumentException.class, () -> BloomFilter.create(10, 1.5));
    }

    @Test
    void aFilterForNoKeysStillWorks() {
        BloomFilter filter = BloomFilter.create(0, 0.01);
        filter.add("a");
        assertTrue(filter.mightContain("a"));
    }
}
