package sibyl.cluster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Values as the driver hands them over (slices of its frames) and as a list is bound. */
class ValuesTest {
    @Test
    void aValueIsCopiedFromItsPositionAndItsBufferLeftAsItWas() {
        ByteBuffer frame = ByteBuffer.wrap(new byte[] {9, 9, 1, 2, 3, 9});
        ByteBuffer value = frame.position(2).limit(5).slice().position(1); // a slice whose own position moved on
        assertArrayEquals(new byte[] {2, 3}, Values.array(value));
        assertEquals(1, value.position());
        assertEquals(2, value.remaining());
    }

    @Test
    void nullIsTheEmptyValue() {
        assertArrayEquals(new byte[0], Values.array(null));
    }

    @Test
    void aListIsItsCountThenEachElementsLengthAndBytes() {
        ByteBuffer list = Values.list(List.of(new byte[] {7}, new byte[0]));
        assertEquals(ByteBuffer.wrap(new byte[] {0, 0, 0, 2, 0, 0, 0, 1, 7, 0, 0, 0, 0}), list);
    }
}
