package sibyl.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UTFDataFormatException;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Keys decode and encode exactly as DataInput.readUTF and DataOutput.writeUTF do, on both paths. */
class ModifiedUtf8Test {
    private static byte[] writeUtf(String s) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        new DataOutputStream(bytes).writeUTF(s);
        return bytes.toByteArray();
    }

    private static String randomKey(Random random) {
        StringBuilder key = new StringBuilder();
        int length = random.nextInt(40);
        for (int i = 0; i < length; i++) {
            key.append(switch (random.nextInt(6)) {
                case 0 -> (char) 0;
                case 1 -> (char) (0x80 + random.nextInt(0x780)); // two bytes
                case 2 -> (char) (0x800 + random.nextInt(0xF7FF)); // three, lone surrogates included
                default -> (char) (1 + random.nextInt(0x7F));
            });
        }
        return random.nextInt(3) == 0 ? "key" + random.nextInt(1_000_000) : key.toString();
    }

    @Test
    void randomKeysMatchTheJdksForm() throws IOException {
        Random random = new Random(35);
        for (int i = 0; i < 20_000; i++) {
            String key = randomKey(random);
            byte[] expected = writeUtf(key);
            assertArrayEquals(expected, ModifiedUtf8.encode(key), key);
            byte[] framed = new byte[expected.length + 6];
            System.arraycopy(expected, 0, framed, 3, expected.length);
            assertEquals(key, ModifiedUtf8.decode(framed, 3, 3 + expected.length));
            assertEquals(expected.length, ModifiedUtf8.encodedLength(framed, 3));
        }
    }

    @Test
    void aKeyRunningPastItsEndOrTheArrayIsTruncated() throws IOException {
        byte[] bytes = writeUtf("abcdef");
        assertThrows(EOFException.class, () -> ModifiedUtf8.decode(bytes, 0, bytes.length - 1));
        byte[] cut = java.util.Arrays.copyOf(bytes, bytes.length - 2);
        assertThrows(EOFException.class, () -> ModifiedUtf8.decode(cut, 0, bytes.length));
        assertThrows(EOFException.class, () -> ModifiedUtf8.decode(bytes, bytes.length - 1, bytes.length));
        assertEquals("abcdef", ModifiedUtf8.decode(bytes, 0, bytes.length));
    }

    @Test
    void malformedBytesAndOverlongKeysAreRefusedAsTheJdkRefusesThem() {
        byte[] malformed = {0, 2, (byte) 0xC3, (byte) 0x41};
        assertThrows(UTFDataFormatException.class, () -> ModifiedUtf8.decode(malformed, 0, malformed.length));
        assertThrows(UTFDataFormatException.class, () -> ModifiedUtf8.encode("k".repeat(70_000)));
        assertThrows(UTFDataFormatException.class, () -> ModifiedUtf8.encode("\u00e9".repeat(40_000)));
    }
}
