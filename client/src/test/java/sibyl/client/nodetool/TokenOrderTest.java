package sibyl.client.nodetool;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** nodetool ring lists the ring in token order, whatever the partitioner's token strings. */
class TokenOrderTest {
    private static List<String> sorted(String... tokens) {
        List<String> list = new ArrayList<>(List.of(tokens));
        list.sort(NodeTool::compareTokens);
        return list;
    }

    @Test
    void murmur3TokensSortAsSignedNumbers() {
        assertEquals(List.of("-9223372036854775808", "-5", "-1", "0", "10", "9223372036854775807"),
                sorted("10", "-1", "9223372036854775807", "-5", "0", "-9223372036854775808"));
    }

    @Test
    void randomPartitionerTokensSortAsNumbersAndOthersAsText() {
        assertEquals(List.of("9", "10", "170141183460469231731687303715884105728"),
                sorted("170141183460469231731687303715884105728", "10", "9"));
        assertEquals(List.of("0a", "6b6579", "ff"), sorted("ff", "6b6579", "0a"));
    }
}
