package sibyl.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.EOFException;
import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reads through memory mappings give the bytes positional reads give, across the mappings' boundaries too. */
class PositionalFileTest {
    @TempDir
    Path dir;

    @Test
    void mappedReadsMatchPositionalReadsAcrossChunks() throws IOException {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        byte[] content = new byte[10_000];
        random.nextBytes(content);
        Path file = Files.write(dir.resolve("f"), content);
        // Chunks of 1 KB, so that many reads cross from one mapping into the next.
        try (PositionalFile standard = new PositionalFile(file);
             PositionalFile mapped = new PositionalFile(file, true, 10)) {
            assertTrue(mapped.isMapped());
            assertFalse(standard.isMapped());
            assertEquals(content.length, mapped.length());
            for (int i = 0; i < 2000; i++) {
                int length = random.nextInt(3000);
                long position = random.nextInt(content.length - length + 1);
                byte[] expected = Arrays.copyOfRange(content, (int) position, (int) position + length);
                assertArrayEquals(expected, standard.read(position, length), "seed " + seed);
                assertArrayEquals(expected, mapped.read(position, length), "seed " + seed + " at " + position);
            }
            assertArrayEquals(content, mapped.read(0, content.length));
            assertThrows(EOFException.class, () -> mapped.read(content.length - 10, 11));
            assertThrows(EOFException.class, () -> mapped.read(-1, 5));
        }
    }

    @Test
    void aClosedMappedFileRefusesReadsAndAnEmptyOneHasNothingToRead() throws IOException {
        Path file = Files.write(dir.resolve("g"), new byte[] {1, 2, 3});
        PositionalFile mapped = new PositionalFile(file, true, PositionalFile.DEFAULT_CHUNK_BITS);
        assertArrayEquals(new byte[] {2, 3}, mapped.read(1, 2));
        mapped.close();
        mapped.close(); // idempotent
        assertThrows(ClosedChannelException.class, () -> mapped.read(0, 1));

        try (PositionalFile empty = new PositionalFile(Files.write(dir.resolve("e"), new byte[0]), true, 10)) {
            assertEquals(0, empty.read(0, 0).length);
            assertThrows(EOFException.class, () -> empty.read(0, 1));
        }
    }
}
