package sibyl.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sibyl.io.SavedCacheFile.Kind;

/** Saved caches read back what was written, and nothing of a file that is torn, damaged or another's. */
class SavedCacheFileTest {
    @TempDir
    Path dir;

    private static final List<String> KEYS = List.of("", "a", "key with spaces", "ключ", "\u0000nul", "k".repeat(20_000));

    private static List<String> read(Path dir, Kind kind, int max) throws IOException {
        return SavedCacheFile.read(dir, "Keyspace1", "Standard1", kind, max).orElseThrow();
    }

    @Test
    void keysComeBackInTheirOrderUnderThe066Names() throws IOException {
        SavedCacheFile.write(dir, "Keyspace1", "Standard1", Kind.KEYS, KEYS);
        SavedCacheFile.write(dir, "Keyspace1", "Standard1", Kind.ROWS, List.of("r2", "r1"));
        assertEquals(KEYS, read(dir, Kind.KEYS, Integer.MAX_VALUE));
        assertEquals(List.of("r2", "r1"), read(dir, Kind.ROWS, Integer.MAX_VALUE));
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(List.of("Keyspace1-Standard1-KeyCache", "Keyspace1-Standard1-RowCache"),
                    files.map(p -> p.getFileName().toString()).sorted().toList(), "no temporary file is left");
        }
    }

    @Test
    void aFileOfAnotherProgramUnderTheNameIsNeverSavedOver() throws IOException {
        // 0.6.6 saved its key caches under the same name, in a format of its own.
        Path foreign = SavedCacheFile.path(dir, "Keyspace1", "Standard1", Kind.KEYS);
        byte[] bytes = {0, 0, 0, 1, 0, 3, 'k', 'e', 'y'};
        Files.write(foreign, bytes);
        IOException e = assertThrows(IOException.class,
                () -> SavedCacheFile.write(dir, "Keyspace1", "Standard1", Kind.KEYS, KEYS));
        assertTrue(e.getMessage().contains("is not a saved cache of Sibyl's"), e.getMessage());
        assertArrayEquals(bytes, Files.readAllBytes(foreign));
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(List.of(foreign), files.toList(), "no temporary file left either");
        }
        // The row cache's own name is free, and saving there works.
        SavedCacheFile.write(dir, "Keyspace1", "Standard1", Kind.ROWS, KEYS);
        assertEquals(KEYS, read(dir, Kind.ROWS, 100));
    }

    @Test
    void aMissingFileIsNoSavedCache() throws IOException {
        assertEquals(Optional.empty(), SavedCacheFile.read(dir, "Keyspace1", "Standard1", Kind.KEYS, 10));
        assertEquals(Optional.empty(), SavedCacheFile.read(dir.resolve("absent"), "Keyspace1", "Standard1", Kind.KEYS, 10));
    }

    @Test
    void aSaveReplacesTheLastOneAndCreatesTheDirectory() throws IOException {
        Path nested = dir.resolve("a/b");
        SavedCacheFile.write(nested, "Keyspace1", "Standard1", Kind.KEYS, List.of("old1", "old2", "old3"));
        SavedCacheFile.write(nested, "Keyspace1", "Standard1", Kind.KEYS, List.of("new"));
        assertEquals(List.of("new"), read(nested, Kind.KEYS, 10));
    }

    @Test
    void onlyTheFirstMaxKeysAreKeptButTheWholeFileIsChecked() throws IOException {
        SavedCacheFile.write(dir, "Keyspace1", "Standard1", Kind.ROWS, List.of("a", "b", "c", "d"));
        assertEquals(List.of("a", "b"), read(dir, Kind.ROWS, 2));
        Path file = SavedCacheFile.path(dir, "Keyspace1", "Standard1", Kind.ROWS);
        byte[] bytes = Files.readAllBytes(file);
        bytes[bytes.length - 6] ^= 1; // in the last key
        Files.write(file, bytes);
        assertThrows(IOException.class, () -> read(dir, Kind.ROWS, 2));
    }

    @Test
    void everyTruncationIsRefused() throws IOException {
        SavedCacheFile.write(dir, "Keyspace1", "Standard1", Kind.KEYS, List.of("alpha", "beta", "gamma"));
        Path file = SavedCacheFile.path(dir, "Keyspace1", "Standard1", Kind.KEYS);
        byte[] whole = Files.readAllBytes(file);
        for (int length = 0; length < whole.length; length++) {
            Files.write(file, Arrays.copyOf(whole, length));
            assertThrows(IOException.class, () -> read(dir, Kind.KEYS, 100), "truncated to " + length);
        }
        Files.write(file, whole);
        assertEquals(List.of("alpha", "beta", "gamma"), read(dir, Kind.KEYS, 100));
    }

    @Test
    void everySingleBitFlipIsRefused() throws IOException {
        long seed = System.nanoTime();
        System.out.println("SavedCacheFileTest seed " + seed);
        Random random = new Random(seed);
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 50; i++) keys.add("key" + random.nextInt(1000));
        SavedCacheFile.write(dir, "Keyspace1", "Standard1", Kind.KEYS, keys);
        Path file = SavedCacheFile.path(dir, "Keyspace1", "Standard1", Kind.KEYS);
        byte[] whole = Files.readAllBytes(file);
        for (int i = 0; i < whole.length; i++) {
            byte[] damaged = whole.clone();
            damaged[i] ^= (byte) (1 << random.nextInt(8));
            Files.write(file, damaged);
            assertThrows(IOException.class, () -> read(dir, Kind.KEYS, 1000), "byte " + i + ", seed " + seed);
        }
        byte[] longer = Arrays.copyOf(whole, whole.length + 1);
        Files.write(file, longer);
        IOException e = assertThrows(IOException.class, () -> read(dir, Kind.KEYS, 1000));
        assertTrue(e.getMessage().contains("after the checksum"), e.getMessage());
    }

    /** A file with a valid checksum over what {@code body} writes. */
    private Path forge(Kind as, DataWriter body) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        body.write(new DataOutputStream(bytes));
        CRC32 crc = new CRC32();
        crc.update(bytes.toByteArray());
        bytes.write(ByteBuffer.allocate(4).putInt((int) crc.getValue()).array());
        return Files.write(SavedCacheFile.path(dir, "Keyspace1", "Standard1", as), bytes.toByteArray());
    }

    interface DataWriter {
        void write(DataOutputStream out) throws IOException;
    }

    @Test
    void aFileOfAnotherVersionKindOrColumnFamilyIsRefusedWithTheReason() throws IOException {
        forge(Kind.KEYS, out -> {
            out.writeInt(SavedCacheFile.MAGIC);
            out.writeInt(2);
        });
        assertMessage("version 2", Kind.KEYS);
        forge(Kind.KEYS, out -> out.writeBytes("<?xml version='1.0'?>"));
        assertMessage("not a saved cache", Kind.KEYS);
        // A row cache's file copied to the key cache's name, and a copy of another column family's.
        SavedCacheFile.write(dir, "Keyspace1", "Standard1", Kind.ROWS, List.of("k"));
        Files.copy(SavedCacheFile.path(dir, "Keyspace1", "Standard1", Kind.ROWS),
                SavedCacheFile.path(dir, "Keyspace1", "Standard1", Kind.KEYS), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        assertMessage("holds the row cache of Keyspace1.Standard1", Kind.KEYS);
        SavedCacheFile.write(dir, "Keyspace1", "Standard2", Kind.KEYS, List.of("k"));
        Files.copy(SavedCacheFile.path(dir, "Keyspace1", "Standard2", Kind.KEYS),
                SavedCacheFile.path(dir, "Keyspace1", "Standard1", Kind.KEYS), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        assertMessage("holds the key cache of Keyspace1.Standard2", Kind.KEYS);
    }

    private void assertMessage(String expected, Kind kind) {
        IOException e = assertThrows(IOException.class, () -> read(dir, kind, 10));
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }

    @Test
    void theLayoutIsTheDocumentedOne() throws IOException {
        SavedCacheFile.write(dir, "K", "C", Kind.KEYS, List.of("ab"));
        byte[] file = Files.readAllBytes(SavedCacheFile.path(dir, "K", "C", Kind.KEYS));
        byte[] body = {'S', 'C', 'C', 'H', 0, 0, 0, 1, 'K', 0, 1, 'K', 0, 1, 'C', 0, 0, 0, 1, 0, 2, 'a', 'b'};
        assertArrayEquals(body, Arrays.copyOf(file, body.length));
        CRC32 crc = new CRC32();
        crc.update(body);
        assertEquals((int) crc.getValue(), ByteBuffer.wrap(file, body.length, 4).getInt());
        assertEquals(body.length + 4, file.length);
    }
}
