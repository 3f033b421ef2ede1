package sibyl.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class GrowableBufferTest {
    @Test
    void holdsWhatAByteArrayOutputStreamHoldsAcrossGrowthAndReset() throws IOException {
        long seed = System.nanoTime();
        System.out.println("GrowableBufferTest seed " + seed);
        Random r = new Random(seed);
        GrowableBuffer buffer = new GrowableBuffer(1);
        DataOutputStream out = new DataOutputStream(buffer);
        for (int round = 0; round < 20; round++) {
            buffer.reset();
            ByteArrayOutputStream reference = new ByteArrayOutputStream();
            DataOutputStream ref = new DataOutputStream(reference);
            int writes = r.nextInt(500);
            for (int i = 0; i < writes; i++) {
                switch (r.nextInt(4)) {
                    case 0 -> {
                        int b = r.nextInt();
                        out.write(b);
                        ref.write(b);
                    }
                    case 1 -> {
                        long v = r.nextLong();
                        out.writeLong(v);
                        ref.writeLong(v);
                    }
                    case 2 -> {
                        byte[] bytes = new byte[r.nextInt(3000)];
                        r.nextBytes(bytes);
                        int off = bytes.length == 0 ? 0 : r.nextInt(bytes.length);
                        int len = r.nextInt(bytes.length - off + 1);
                        out.write(bytes, off, len);
                        ref.write(bytes, off, len);
                    }
                    default -> {
                        int v = r.nextInt();
                        out.writeInt(v);
                        ref.writeInt(v);
                    }
                }
            }
            assertArrayEquals(reference.toByteArray(), Arrays.copyOf(buffer.array(), buffer.size()), "seed " + seed);
        }
    }

    @Test
    void aSliceOutsideTheArrayIsRefused() {
        GrowableBuffer buffer = new GrowableBuffer(4);
        assertThrows(IndexOutOfBoundsException.class, () -> buffer.write(new byte[3], 2, 2));
    }
}
