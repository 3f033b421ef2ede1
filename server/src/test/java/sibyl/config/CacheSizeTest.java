package sibyl.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class CacheSizeTest {
    @Test
    void wholeNumbersAboveOneAreCounts() {
        CacheSize size = CacheSize.parse("200000");
        assertFalse(size.isFraction());
        assertEquals(200000, size.count());
        assertEquals(200000, size.entriesFor(10));
        assertEquals("200000", size.toString());
        assertEquals(CacheSize.ofCount(2), CacheSize.parse(" 2.0 "));
    }

    @Test
    void numbersUpToOneAreFractions() {
        CacheSize half = CacheSize.parse("0.5");
        assertTrue(half.isFraction());
        assertEquals(0.5, half.fraction());
        assertEquals(50, half.entriesFor(100));
        assertEquals(1, half.entriesFor(1));
        assertEquals("50%", half.toString());
        assertEquals(CacheSize.ofFraction(1), CacheSize.parse("1"));
    }

    @Test
    void percentages() {
        assertEquals(CacheSize.ofFraction(0.5), CacheSize.parse("50%"));
        assertEquals(CacheSize.ofFraction(1), CacheSize.parse("100%"));
        assertEquals(CacheSize.ofFraction(0.125), CacheSize.parse("12.5%"));
        assertEquals("12.5%", CacheSize.parse("12.5%").toString());
    }

    @Test
    void zeroInAnyFormIsNoCache() {
        assertEquals(CacheSize.NONE, CacheSize.parse("0"));
        assertEquals(CacheSize.NONE, CacheSize.parse("0%"));
        assertEquals(CacheSize.NONE, CacheSize.parse("0.0"));
        assertTrue(CacheSize.NONE.isNone());
        assertEquals(0, CacheSize.NONE.entriesFor(1000));
        assertEquals("0", CacheSize.NONE.toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "lots", "-1", "-5%", "101%", "1.5", "NaN", "Infinity", "1e3", "%", "99999999999999999999"})
    void refusesWhatIsNotACacheSize(String text) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CacheSize.parse(text));
        assertFalse(e.getMessage().isBlank());
    }
}
