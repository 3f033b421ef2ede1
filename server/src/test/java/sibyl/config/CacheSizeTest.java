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

    /** 0.6 cut a count to a whole number of entries and read numbers with Double.parseDouble. */
    @Test
    void takesWhat06sParserTook() {
        assertEquals(CacheSize.ofCount(1), CacheSize.parse("1.5"));
        assertEquals(CacheSize.ofCount(1000), CacheSize.parse("1000.7"));
        assertEquals(CacheSize.ofCount(1000), CacheSize.parse("1e3"));
        assertEquals(CacheSize.ofFraction(0.25), CacheSize.parse("2.5e-1"));
        assertEquals(CacheSize.ofFraction(0.5), CacheSize.parse("50.0%"));
        assertEquals(CacheSize.ofCount(Long.MAX_VALUE), CacheSize.parse("99999999999999999999"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "lots", "-1", "-5%", "101%", "NaN", "Infinity", "1e400", "%", "1,5", "50 %%"})
    void refusesWhatIsNotACacheSize(String text) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CacheSize.parse(text));
        assertFalse(e.getMessage().isBlank());
    }
}
