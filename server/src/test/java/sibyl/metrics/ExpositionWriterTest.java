package sibyl.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ExpositionWriterTest {
    @Test
    void countersAndGaugesAreWrittenWithHelpTypeAndLabels() {
        ExpositionWriter out = new ExpositionWriter();
        out.counter("x_requests_total", "Requests served.").sample(3, "cf", "Standard1").sample(0, "cf", "Super1");
        out.gauge("x_ratio", "A ratio.").sample(0.25).sample(Double.NaN, "k", "v");
        assertEquals("""
                # HELP x_requests_total Requests served.
                # TYPE x_requests_total counter
                x_requests_total{cf="Standard1"} 3
                x_requests_total{cf="Super1"} 0
                # HELP x_ratio A ratio.
                # TYPE x_ratio gauge
                x_ratio 0.25
                x_ratio{k="v"} NaN
                """, out.text());
    }

    @Test
    void labelValuesAndHelpAreEscaped() {
        ExpositionWriter out = new ExpositionWriter();
        out.gauge("x", "a \\ back\nslash and \"quotes\"").sample(1, "path", "C:\\DIR\n\"FILE\"");
        assertEquals("""
                # HELP x a \\\\ back\\nslash and "quotes"
                # TYPE x gauge
                x{path="C:\\\\DIR\\n\\"FILE\\""} 1
                """, out.text());
        ExpositionParser.Exposition parsed = ExpositionParser.parse(out.text());
        assertEquals("a \\ back\nslash and \"quotes\"", parsed.family("x").help());
        assertEquals(1, parsed.value("x", "path", "C:\\DIR\n\"FILE\""));
    }

    @Test
    void aHistogramHasCumulativeBucketsUpToInfThenSumAndCount() {
        ExpositionWriter out = new ExpositionWriter();
        out.histogram("x_seconds", "Latency.", new double[] {0.000005, 0.5, 1, 10})
                .sample(new long[] {1, 2, 0, 3, 4}, 12.5, "cf", "A")
                .sample(new long[] {0, 0, 0, 0, 0}, 0);
        assertEquals("""
                # HELP x_seconds Latency.
                # TYPE x_seconds histogram
                x_seconds_bucket{cf="A",le="0.000005"} 1
                x_seconds_bucket{cf="A",le="0.5"} 3
                x_seconds_bucket{cf="A",le="1"} 3
                x_seconds_bucket{cf="A",le="10"} 6
                x_seconds_bucket{cf="A",le="+Inf"} 10
                x_seconds_sum{cf="A"} 12.5
                x_seconds_count{cf="A"} 10
                x_seconds_bucket{le="0.000005"} 0
                x_seconds_bucket{le="0.5"} 0
                x_seconds_bucket{le="1"} 0
                x_seconds_bucket{le="10"} 0
                x_seconds_bucket{le="+Inf"} 0
                x_seconds_sum 0
                x_seconds_count 0
                """, out.text());
        assertEquals(10, ExpositionParser.parse(out.text()).value("x_seconds_count", "cf", "A"));
    }

    @Test
    void valuesAreWrittenAsGoParsesThem() {
        assertEquals("42", ExpositionWriter.number(42));
        assertEquals("-3", ExpositionWriter.number(-3));
        assertEquals("0.001", ExpositionWriter.number(0.001));
        assertEquals("1.5E-7", ExpositionWriter.number(1.5e-7));
        assertEquals("1.0E20", ExpositionWriter.number(1e20));
        assertEquals("+Inf", ExpositionWriter.number(Double.POSITIVE_INFINITY));
        assertEquals("-Inf", ExpositionWriter.number(Double.NEGATIVE_INFINITY));
        assertEquals("NaN", ExpositionWriter.number(Double.NaN));
    }

    @Test
    void whatTheFormatForbidsIsRefusedAsItIsWritten() {
        ExpositionWriter out = new ExpositionWriter();
        assertThrows(IllegalArgumentException.class, () -> out.counter("x_requests", "no _total"));
        assertThrows(IllegalArgumentException.class, () -> out.gauge("1x", "starts with a digit"));
        assertThrows(IllegalArgumentException.class, () -> out.gauge("x-y", "a dash"));
        ExpositionWriter.Family a = out.gauge("a", "A.");
        assertThrows(IllegalArgumentException.class, () -> a.sample(1, "bad-label", "v"));
        assertThrows(IllegalArgumentException.class, () -> a.sample(1, "__reserved", "v"));
        assertThrows(IllegalArgumentException.class, () -> a.sample(1, "odd"));
        a.sample(1, "k", "v");
        assertThrows(IllegalStateException.class, () -> a.sample(2, "k", "v"), "a label set twice");
        assertThrows(IllegalStateException.class, () -> out.gauge("a", "again"), "a family twice");
        ExpositionWriter.Histogram h = out.histogram("h", "H.", new double[] {1, 2});
        assertThrows(IllegalStateException.class, () -> a.sample(3), "a family resumed after another began");
        assertThrows(IllegalStateException.class, () -> out.gauge("h_count", "taken by the histogram"));
        assertThrows(IllegalArgumentException.class, () -> h.sample(new long[] {1, 2, 3}, 1, "le", "1"));
        assertThrows(IllegalArgumentException.class, () -> h.sample(new long[] {1, 2}, 1), "one count per bucket");
        assertThrows(IllegalArgumentException.class, () -> out.histogram("g", "G.", new double[] {2, 1}));
        assertTrue(ExpositionParser.parse(out.text()).families().containsKey("a"));
    }

    @Test
    void theParserRefusesWhatAScraperWould() {
        assertThrows(IllegalArgumentException.class, () -> ExpositionParser.parse("x 1"), "no final line feed");
        assertThrows(IllegalArgumentException.class, () -> ExpositionParser.parse("x{a=\"\\t\"} 1\n"), "bad escape");
        assertThrows(IllegalArgumentException.class, () -> ExpositionParser.parse("x 1\ny 1\nx{a=\"b\"} 1\n"),
                "a family in two groups");
        assertThrows(IllegalArgumentException.class, () -> ExpositionParser.parse("x one\n"), "not a number");
        assertThrows(IllegalArgumentException.class, () -> ExpositionParser.parse("x 1\nx 2\n"), "a sample twice");
        assertThrows(IllegalArgumentException.class,
                () -> ExpositionParser.parse("# TYPE h histogram\nh_bucket{le=\"1\"} 2\nh_bucket{le=\"+Inf\"} 1\n"
                        + "h_sum 0\nh_count 1\n"), "buckets not cumulative");
        assertThrows(IllegalArgumentException.class,
                () -> ExpositionParser.parse("# TYPE h histogram\nh_bucket{le=\"1\"} 1\nh_sum 0\nh_count 1\n"),
                "no +Inf bucket");
        assertThrows(IllegalArgumentException.class,
                () -> ExpositionParser.parse("# TYPE h histogram\nh_bucket{le=\"+Inf\"} 1\nh_sum 0\nh_count 2\n"),
                "count differs from +Inf");
        assertThrows(IllegalArgumentException.class, () -> ExpositionParser.parse("x 1\n# TYPE x gauge\n"),
                "TYPE after the samples");
        assertThrows(IllegalArgumentException.class, () -> ExpositionParser.parse("# TYPE c counter\nc -1\n"),
                "a negative counter");
    }
}
